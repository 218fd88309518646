// What bounds a replay: the resources its critical path waited for and the functions whose work it ran, each
// with a what-if replay that gives it more (the resource doubled, the function twice as fast) (docs/replay.md,
// "What bounds the run"). A what-if that adds processors runs under pool placement: under traced placement each
// traced processor keeps its one model processor, and the added ones would sit idle.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "session/session.hpp"

namespace rr::session {

// The most bounds a report names, and so the most what-if replays it runs.
inline constexpr std::size_t kMaxBounds = 3;

// One thing the critical path spent its time on, and the change that gives it more.
struct RunBound {
  enum class Kind : std::uint8_t { resource, function };
  Kind kind = Kind::resource;
  std::string name;        // "utility processors (all nodes)", "f15 on GPU"
  replay::TimeNs path_ns = 0;  // its time on the path: contention for a resource, compute for a function
  std::string change;      // "8 instead of 4 per node", "twice as fast"; empty: no what-if can give it more
  std::vector<std::string> overrides;  // the change as --set values
  machine::MachineModel changed;       // the machine with the change
  bool pool = false;                   // the what-if runs under pool placement (it adds processors)
  // The count it doubles is the mapping's ([processors] of a mapping file), which --set does not change.
  bool count_in_mapping = false;
  std::optional<replay::TimeNs> what_if_ns;  // the estimate with the change, once run
  std::string what_if_error;                 // why that replay failed
};

// "resource" or "function", and the what-if's placement ("pool", or "as the run"), as reports and Python name them.
inline const char* kind_name(RunBound::Kind kind) { return kind == RunBound::Kind::resource ? "resource" : "function"; }
inline const char* what_if_placement(const RunBound& bound) { return bound.pool ? "pool" : "as the run"; }

// The kMaxBounds largest resources and functions on a replay's critical path (which `run` must have), largest
// first (ties by name); none with no time on the path.
std::vector<RunBound> find_bounds(const LoadedTrace& trace, const ReplayRun& run);
// The same with `g` naming the functions (a replay from parts: this rank's graph, which has the trace's names).
std::vector<RunBound> find_bounds(const graph::EventGraph& g, const ReplayRun& run);

// Replays each bound's what-if on `changed`, with `settings` (under pool placement when the bound says so) and
// without a critical path, side by side on oneTBB (threads 0: every hardware thread). A what-if that fails keeps
// its error; the others still run. With a network in `settings` (a replay over ranks), every rank calls this with
// the same bounds (find_bounds reads only the critical path's sums, which every rank has) and each what-if is one
// replay over the ranks, in turn; rank 0's bounds get the estimates. Ranks that hold only their part of the graph
// run them with run_what_ifs_from_part (part_what_ifs.hpp).
void run_what_ifs(const LoadedTrace& trace, const ReplaySettings& settings, std::vector<RunBound>& bounds,
                  unsigned threads);

}  // namespace rr::session
