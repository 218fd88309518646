// The numbers that describe one replay in a comparison: time, utilisation per processor kind, copy volume,
// critical-path breakdown. Plain data, cheap to keep for many runs.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "replay/critical_path.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"
#include "replay/utilisation.hpp"

namespace rr::replay {

// One thing that bounds a run (session::find_bounds): a resource its critical path waited for or a function whose
// work it ran, its time on the path, and the change a what-if would make.
struct BoundSummary {
  std::string name;
  TimeNs path_ns = 0;
  std::string change;
};

struct RunSummary {
  std::string trace_label;    // e.g. the trace folder's name
  std::string machine_label;  // the machine's name, with overrides
  std::string family;         // runs of one family differ only in node count (weak scaling)
  std::string placement;      // the placement it was replayed with: traced, pool or eft
  std::string moves;          // the function moves, "18=gpu:0.0191 20=gpu", or "-" for none
  std::uint32_t nodes = 0;
  TimeNs estimated_ns = 0;
  std::uint64_t operations = 0;
  std::uint64_t stuck = 0;
  // By core::ProcessorKind (gpu, cpu, utility); 0 when the kind is absent. `utilisation` is over every model
  // processor of the kind, `utilisation_used` over the ones the mapping uses (`used_processors`).
  std::array<double, kApplicationKindCount> utilisation{};
  std::array<double, kApplicationKindCount> utilisation_used{};
  std::array<std::uint32_t, kApplicationKindCount> processors{};
  std::array<std::uint32_t, kApplicationKindCount> used_processors{};
  std::uint64_t copies = 0;
  std::uint64_t copy_bytes = 0;
  std::array<TimeNs, kPathClassCount> critical{};  // by PathClass
  // The critical path's compute by the kind it ran on (gpu, cpu, utility), and the rest (Realm's background work,
  // the program's own thread): adds up to critical[compute].
  std::array<TimeNs, kApplicationKindCount + 1> critical_compute{};
  TimeNs lower_bound_ns = 0;
  std::vector<std::string> critical_events;        // "(id,gen)" of the compute/copy steps, in path order
  std::vector<BoundSummary> bounded_by;            // largest first; what-ifs are not replayed in a comparison
};

RunSummary summarise_run(const graph::EventGraph& g, const MachineMap& map, const ReplayResult& r,
                         const CriticalPath& cp);

}  // namespace rr::replay
