// The replay against the run the trace observed (Legion Prof logs record when every operation started and
// stopped): the observed makespan beside the estimate, and per kind of operation and per function how far the
// replayed start and end times are from the observed ones. Both clocks start at the run's first operation
// (EventGraph::observed_origin), so the errors are absolute times, not durations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graph/event_graph.hpp"
#include "graph/rank_exchange.hpp"
#include "replay/replay_result.hpp"

namespace rr::replay {

// Errors of one group of operations: replayed minus observed, in ns. The median is signed (a bias: positive
// when the replay is late); the p95 is of the absolute error (how far off most of them are).
struct ObservedErrors {
  std::string name;           // "task", "copy", ... or a function's name
  std::uint64_t count = 0;
  TimeNs observed_busy_ns = 0;  // sum of what ran as observed: stop - start, less the measured waits
  TimeNs replayed_busy_ns = 0;  // sum of what ran as replayed: each segment's end - start (its overhead included)
  TimeNs start_median_ns = 0;
  TimeNs start_p95_abs_ns = 0;
  TimeNs end_median_ns = 0;
  TimeNs end_p95_abs_ns = 0;
};

struct ObservedComparison {
  TimeNs observed_makespan_ns = 0;  // last observed end of the operations the estimate counts
  TimeNs estimated_ns = 0;
  double error = 0;                 // (estimate - observed) / observed
  std::uint64_t operations = 0;     // operations compared (observed and replayed)
  std::uint64_t not_replayed = 0;   // observed but never replayed (stuck)
  std::vector<ObservedErrors> by_kind;      // in a fixed order: task, meta-task, partition, profiler, copy, fill
  std::vector<ObservedErrors> by_function;  // tasks and runtime work by function, most observed time first
};

// Nothing when the trace records no observed times (Realm text logs).
std::optional<ObservedComparison> compare_with_observed(const graph::EventGraph& g, const ReplayResult& r);

// The same comparison of a replay from parts (part_replay.hpp), on every rank at once, each with its own result;
// every rank gets one process's comparison of the whole graph, exactly. No rank sends its samples: each sends its
// sums and, for each median and p95, how many of its errors lie at or below a value that a bisection moves (at most
// 64 exchanges for all of them together). Nothing when no rank's part records observed times.
std::optional<ObservedComparison> compare_with_observed_over_ranks(const ReplayResult& r, graph::RankExchange& exchange);

}  // namespace rr::replay
