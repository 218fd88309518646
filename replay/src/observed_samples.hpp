// What the comparison with the observed run (replay/observed_comparison.hpp) reads of each operation, gathered
// before any statistic is taken: one rule for the whole graph and for a rank's part of it, so that a comparison
// over ranks puts together exactly the samples one process would have.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "graph/event_graph.hpp"
#include "replay/observed_comparison.hpp"
#include "graph/rank_exchange.hpp"
#include "replay/replay_result.hpp"

namespace rr::replay {

// The fixed groups of operations the comparison reports by kind, in its order.
enum class ObservedGroup : std::uint8_t { task, meta_task, partition, profiler, copy, fill, count };
inline constexpr std::size_t kObservedGroups = static_cast<std::size_t>(ObservedGroup::count);
inline constexpr std::array<const char*, kObservedGroups> kObservedGroupNames{"task",     "meta-task", "partition",
                                                                              "profiler", "copy",      "fill"};

// One group's errors (replayed minus observed, signed) and busy sums, in no particular order.
struct ObservedSamples {
  std::vector<TimeNs> start, end;
  TimeNs observed_busy = 0, replayed_busy = 0;
};

struct ObservedSampleSet {
  TimeNs observed_makespan_ns = 0;
  std::uint64_t operations = 0;
  std::uint64_t not_replayed = 0;
  std::array<ObservedSamples, kObservedGroups> by_group;
  std::map<std::uint32_t, ObservedSamples> by_function;  // tasks and runtime work, by function id
};

// The record of vertex v of `g` in `r` (its index in r.ops), or kNoVertex for an operation this collection leaves
// to another rank: the identity for a replay of the whole graph.
using RecordOf = std::function<graph::VertexId(graph::VertexId)>;

ObservedSampleSet collect_observed_samples(const graph::EventGraph& g, const ReplayResult& r, const RecordOf& record_of);

// Nearest rank: the smallest value with at least q of the n samples at or below it is the k-th smallest, k this.
std::size_t nearest_rank(double q, std::size_t n);

// compare_with_observed_over_ranks on any graph: each rank takes the operations `record_of` gives a record, which
// between them must be every operation once (a task with its segments).
std::optional<ObservedComparison> compare_samples_over_ranks(const graph::EventGraph& g, const ReplayResult& r,
                                                             const RecordOf& record_of, graph::RankExchange& exchange);

// The error from the two makespans, and the functions in the report's order (most observed time first).
void finish_observed_comparison(ObservedComparison& out);

}  // namespace rr::replay
