// Busy time and utilisation per processor kind, in total and per node: over every model processor of the kind
// and over the ones the mapping uses, since a model with 12 CPUs a node running a 2-CPU trace is mostly idle.
#pragma once

#include <array>
#include <cstdint>
#include <map>

#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"

namespace rr::replay {

using core::kModelKindCount;  // core::ProcessorKind gpu, cpu, utility, external: what models have
// The kinds utilisation counts: gpu, cpu and utility. The external kind (the program's own thread) runs work that is
// not the application's, outside the estimate: it is listed in the mapping, not in the utilisation.
inline constexpr std::size_t kApplicationKindCount = 3;

struct KindUse {
  std::uint32_t processors = 0;  // model processors of the kind
  std::uint32_t used = 0;        // of those, the ones some traced processor or group maps to
  TimeNs busy_ns = 0;
  std::uint64_t segments = 0;
  // busy / (time x processors), 0 when there is none: over all model processors, and over the used ones.
  double utilisation_all(TimeNs makespan_ns) const;
  double utilisation_used(TimeNs makespan_ns) const;
};

using KindUses = std::array<KindUse, kModelKindCount>;  // indexed by core::ProcessorKind

struct Utilisation {
  KindUses total;
  std::map<std::uint32_t, KindUses> by_node;  // model node -> its processors
};

Utilisation utilisation(const MachineMap& map, const ReplayResult& result);
// One model processor's busy time over the estimate (0 when the estimate is 0): the tables of the SQL export
// and the Python module.
double processor_utilisation(const ReplayResult& result, std::uint32_t processor);

}  // namespace rr::replay
