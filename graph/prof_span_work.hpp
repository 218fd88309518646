// Work from spans: how much of a logged span was a thread's own work when more threads ran than the traced
// process had cores (docs/replay.md, "Cores").
#pragma once

#include <cstdint>
#include <vector>

#include "core/prof_records.hpp"

namespace rr::graph {

// For each work item of one process's log (indexed like ProfileRecords::work), the share of its running time
// (start to stop, less its waits) that was its own work, in (0, 1]: while k of the process's threads ran on
// `cores` cores, each ran at min(1, cores / k) of real time. The threads counted are those that take a core in
// the replay: work on CPU, utility and I/O processors (tasks, meta-tasks, messages) and Realm's background work
// (dependent partitioning). The program's own thread, the profiler's responses and GPU tasks take none, and get 1.
std::vector<double> span_work_shares(const core::ProfileRecords& profile, std::uint32_t cores);

}  // namespace rr::graph
