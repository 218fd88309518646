// Builds the EventGraph from Legion Prof logs (core::ProfileRecords of every file): work items keyed by their
// finish event, dependencies through mergers, triggers, arrivals, reservations and completion queues, launch
// edges from `creator`, waits splitting tasks, and what the traced run observed (start and end of every
// operation, where in its creator each action happened). The rules are in docs/legion-prof.md.
#pragma once

#include "core/trace_records.hpp"
#include "graph/graph_builder.hpp"

namespace rr::graph {

// Function ids of a Legion Prof graph: tasks keep their task_id; runtime work is numbered apart so that names
// do not collide: meta-tasks and message handlers kMetaFunction + lg_id, dependent-partitioning operations
// kPartitionFunction + part_op, the profiler's own tasks kProfilerFunction.
inline constexpr std::uint32_t kMetaFunction = 0x40000000u;
inline constexpr std::uint32_t kPartitionFunction = 0x60000000u;
inline constexpr std::uint32_t kProfilerFunction = 0x70000000u;

// A delay between an operation's recorded inputs and its readiness that is kept even though every input is
// recorded: longer than the runtime's own latency by far (a message, a meta-task's dispatch: microseconds).
inline constexpr core::TimeNs kUnexplainedStallNs = 1'000'000;

BuildResult build_profile_graph(const core::TraceRecords& trace, const BuildOptions& options = {});

}  // namespace rr::graph
