// Work from spans: how much of a logged span was a thread's own work when more threads ran than the traced
// process had cores (docs/replay.md, "Cores").
#pragma once

#include <cstddef>
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
// start-up then, and the threads that ran meanwhile waited for the runtime it held (measured_start_ups keeps what
// their spinning cost the start-up). cores 0: nothing is lost.
std::vector<core::TimeNs> span_time_not_worked(const core::ProfileRecords& profile, std::uint32_t cores,
                                               const std::vector<SilentWindow>& windows = {});

// Silences of kStartupSilenceNs or more between the first and the last operation: Realm processors starting up.
// Each CPU or utility processor, on its first runtime work, stalls the process for tens of milliseconds, one
// processor after another: the real logs show exactly one such silence per processor (docs/replay.md, "Processor
// start-up").
inline constexpr core::TimeNs kStartupSilenceNs = 20'000'000;
std::vector<SilentWindow> silent_windows(const core::ProfileRecords& profile);
// What the logs measured of processor start-ups (silent_windows of each log), as long as each took in the traced
// run (with the threads that spun beside it, waiting for the runtime it held).
struct MeasuredStartUps {
  // A node's k-th start-up: the k-th silence of the log, or the (lower) median over the logs that have a k-th.
  std::vector<core::TimeNs> in_order;
  // A start-up no log measured (a what-if with more processors) is a later one: the lower median of the silences
  // after each log's first (the first also holds the process's own start), or of the firsts when no log has more.
  // A start-up is only ever lengthened, by threads that spin beside it on too few cores, so of two the shorter
  // counts, and one slowed start-up does not lengthen the ones the log did not measure. 0 when there is none.
  core::TimeNs typical = 0;
  std::size_t silences = 0;
};
MeasuredStartUps measured_start_ups(const std::vector<std::vector<SilentWindow>>& windows_by_log);
// How much of [from, to) lies in the windows (sorted, disjoint).
core::TimeNs silent_overlap(const std::vector<SilentWindow>& windows, core::TimeNs from, core::TimeNs to);

}  // namespace rr::graph
