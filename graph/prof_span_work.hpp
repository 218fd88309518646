// Work from spans: how much of a logged span was a thread's own work when more threads ran than the traced
// process had cores (docs/replay.md, "Cores").
#pragma once

#include <cstdint>
#include <vector>

#include "core/prof_records.hpp"

namespace rr::graph {

// A stretch of a log in which no record has a time: the process did nothing it logs.
struct SilentWindow {
  core::TimeNs from;
  core::TimeNs to;
  std::uint64_t processor = 0;  // the processor starting up then
};

// For each work item of one process's log (indexed like ProfileRecords::work), the part of its running time (start
// to stop, less its waits) that was not its own work, in ns: while k of the process's threads ran on `cores` cores,
// each ran at min(1, cores / k) of real time, and the rest was another thread's turn. The threads counted are those
// that take a core in the replay: work on CPU, utility and I/O processors (tasks, meta-tasks, messages) and Realm's
// background work (dependent partitioning). The program's own thread, the profiler's responses and GPU tasks take
// none, and lose nothing. The start-ups in `windows` are no one's work either: the processor starting up did its
// start-up then, and the threads that ran meanwhile waited for the runtime it held (startup_stall_ns keeps what
// their spinning cost the start-up). cores 0: nothing is lost.
std::vector<core::TimeNs> span_time_not_worked(const core::ProfileRecords& profile, std::uint32_t cores,
                                               const std::vector<SilentWindow>& windows = {});

// Silences of kStartupSilenceNs or more between the first and the last operation: Realm processors starting up.
// Each CPU or utility processor, on its first runtime work, stalls the process for tens of milliseconds, one
// processor after another: the real logs show exactly one such silence per processor (docs/replay.md, "Processor
// start-up").
inline constexpr core::TimeNs kStartupSilenceNs = 20'000'000;
std::vector<SilentWindow> silent_windows(const core::ProfileRecords& profile);
// The length of one processor's start-up: the mean of a log's start-up silences (silent_windows), as long as each
// took in the traced run (with the threads that spun beside it, waiting for the runtime it held). 0 when none.
core::TimeNs startup_stall_ns(const std::vector<SilentWindow>& windows);
// How much of [from, to) lies in the windows (sorted, disjoint).
core::TimeNs silent_overlap(const std::vector<SilentWindow>& windows, core::TimeNs from, core::TimeNs to);

}  // namespace rr::graph
