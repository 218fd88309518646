// Experiments on the vertex numbering, for bench_replay (docs/history.md): the same graph renumbered.
// - --interleave: the nodes' sequences interleaved (the k-th of n vertices of a node lands near k/n of the
//   whole) instead of node by node, which follows time more closely in an SPMD program. The engine got slower
//   (1.7x on 32 nodes, 1.2x on 1,024).
// - --start-order: vertices, and the payload arrays with them, in the order a replay started them, the
//   numbering that follows time most closely. 12% faster on 32 nodes, 15% slower on 128 (November 2026); with
//   the engine of 2026-11-25, 4-15% and 0-9% faster.
// - --lower-bound-order: vertices in the order they would start with unlimited resources (a time order a graph
//   gives before any replay). From no gain to 22% faster on 32 nodes, 12-18% slower on 128 (2026-11-25).
// - --random-order: vertices in no order at all, payloads with them: what locality is worth (2-3x slower on the
//   32-node and 4-node S3D traces, 2026-11-26).
// They stay so that the findings can be rerun. Ties between equal times are broken by vertex id, and the
// predecessors of a vertex come in the new order of their sources, so a replay of a renumbered graph may order
// simultaneous work differently, and choices made in vertex order (a moved task's home for copies, the first
// input named when stuck) may differ (the makespan is printed too).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <tuple>
#include <vector>

#include "graph/event_graph.hpp"
#include "graph/graph_algorithms.hpp"
#include "replay/operation_records.hpp"

namespace rr::bench {

// The same graph with vertex i of the result being old_id[i]. With `payloads_follow`, the payload arrays (tasks,
// copies, phases, barrier values) are renumbered in the new vertex order too; else they keep theirs.
inline graph::EventGraph renumbered(const graph::EventGraph& g, const std::vector<graph::VertexId>& old_id,
                                    bool payloads_follow) {
  using graph::VertexId;
  using graph::kNoVertex;
  const VertexId n = g.vertex_count();
  std::vector<VertexId> new_id(n);
  for (VertexId i = 0; i < n; ++i) new_id[old_id[i]] = i;
  auto remap = [&](VertexId v) { return v == kNoVertex ? kNoVertex : new_id[v]; };

  // New payload of each vertex: its own, or its rank among the vertices of its payload array in the new order.
  std::vector<std::uint32_t> payload(n);
  std::uint32_t next[4] = {0, 0, 0, 0};
  auto array_of = [&](graph::OpKind k) {
    switch (k) {
      case graph::OpKind::task:
      case graph::OpKind::background: return 0;
      case graph::OpKind::copy: return 1;
      case graph::OpKind::barrier_phase: return 2;
      case graph::OpKind::barrier_alter:
      case graph::OpKind::barrier_arrive: return 3;
      default: return -1;
    }
  };
  for (VertexId i = 0; i < n; ++i) {
    const VertexId v = old_id[i];
    const int a = array_of(g.kind(v));
    payload[i] = payloads_follow && a >= 0 ? next[a]++ : g.payload(v);
  }

  graph::VertexTable t;
  for (VertexId i = 0; i < n; ++i) {
    const VertexId v = old_id[i];
    t.add(g.kind(v), g.node(v), g.event(v), payload[i]);
    t.issuer.push_back(remap(g.issuer(v)));
  }
  t.position.resize(n);
  for (VertexId i = 0; i < n; ++i) t.position[i] = g.position(old_id[i]);
  for (VertexId i = 0; i < n; ++i) {
    const VertexId v = old_id[i];
    const std::uint32_t p = payload[i];
    auto fill = [p](auto& array, const auto& value) {
      if (array.size() <= p) array.resize(p + 1);
      array[p] = value;
    };
    switch (g.kind(v)) {
      case graph::OpKind::task:
      case graph::OpKind::background: fill(t.tasks, g.task(v)); break;
      case graph::OpKind::copy: fill(t.copies, g.copy(v)); break;
      case graph::OpKind::barrier_phase: fill(t.phases, g.phase(v)); break;
      case graph::OpKind::barrier_alter:
      case graph::OpKind::barrier_arrive: fill(t.barrier_values, g.barrier_value(v)); break;
      default: break;
    }
  }
  t.waits.assign(g.waits().begin(), g.waits().end());
  for (auto& w : t.waits) {
    w.task = remap(w.task);
    w.resume = remap(w.resume);
    w.awaited = remap(w.awaited);
  }
  if (g.has_observed()) {
    t.observed_start.resize(n);
    t.observed_end.resize(n);
    t.issue_fraction.resize(n);
    for (VertexId i = 0; i < n; ++i) {
      t.observed_start[i] = g.observed_start(old_id[i]);
      t.observed_end[i] = g.observed_end(old_id[i]);
      t.issue_fraction[i] = g.issue_fraction(old_id[i]);
    }
    t.observed_origin = g.observed_origin();
  }
  t.external_delay.resize(n);
  for (VertexId i = 0; i < n; ++i) t.external_delay[i] = g.external_delay(old_id[i]);
  for (VertexId v : g.outside_work()) t.outside_work.push_back(new_id[v]);
  t.function_names = g.function_names();

  std::vector<graph::Edge> edges;
  edges.reserve(g.edge_count());
  for (VertexId i = 0; i < n; ++i) {
    const VertexId v = old_id[i];
    auto succ = g.successors(v);
    auto kinds = g.successor_kinds(v);
    for (std::size_t k = 0; k < succ.size(); ++k) edges.push_back({i, new_id[succ[k]], kinds[k]});
  }
  const std::span<const graph::Edge> runs[] = {edges};
  return graph::EventGraph::freeze(std::move(t), runs);
}


// The k-th of a node's n vertices near k/n of the whole (payload arrays keep their order).
inline graph::EventGraph interleaved(const graph::EventGraph& g) {
  using graph::VertexId;
  const VertexId n = g.vertex_count();
  // Rank of each vertex within its node, and each node's count.
  std::map<std::uint32_t, std::uint32_t> count;
  std::vector<std::uint32_t> rank(n);
  for (VertexId v = 0; v < n; ++v) rank[v] = count[g.node(v)]++;
  std::vector<std::tuple<double, std::uint32_t, VertexId>> keys(n);
  for (VertexId v = 0; v < n; ++v) keys[v] = {(rank[v] + 0.5) / count[g.node(v)], g.node(v), v};
  std::sort(keys.begin(), keys.end());
  std::vector<VertexId> old_id(n);
  for (VertexId i = 0; i < n; ++i) old_id[i] = std::get<2>(keys[i]);
  return renumbered(g, old_id, false);
}

// The same graph, its vertices in ascending order of `key` (ties in vertex order).
template <typename Key>
graph::EventGraph in_order_of(const graph::EventGraph& g, Key&& key) {
  std::vector<graph::VertexId> old_id(g.vertex_count());
  std::iota(old_id.begin(), old_id.end(), graph::VertexId{0});
  std::stable_sort(old_id.begin(), old_id.end(), [&](graph::VertexId a, graph::VertexId b) { return key(a) < key(b); });
  return renumbered(g, old_id, true);
}

// Vertices in the order a replay started them (`start`, ties by id; never-started ones last), payload arrays
// likewise: the numbering that follows time most closely, and the layout a replay would walk in address order.
inline graph::EventGraph in_start_order(const graph::EventGraph& g, const replay::OperationRecords& times) {
  return in_order_of(g, [&](graph::VertexId v) { return times.started(v) ? times.start(v) : INT64_MAX; });
}

// Vertices in the order they would start with unlimited processors and lanes, with the durations of a replay and
// no delay on any edge: a numbering by time that a graph alone (with durations) could give, before any replay of
// it under contention (--lower-bound-order).
inline graph::EventGraph in_lower_bound_order(const graph::EventGraph& g, const replay::OperationRecords& times) {
  const std::vector<std::int64_t> start =
      graph::earliest_starts(g, [&](graph::VertexId v) -> std::int64_t { return times.ended(v) ? times.run(v) : 0; });
  return in_order_of(g, [&](graph::VertexId v) { return start[v]; });
}

}  // namespace rr::bench
