// An experiment for bench_replay --interleave: the same graph with its vertices renumbered so that the nodes'
// sequences are interleaved (the k-th of n vertices of a node lands near k/n of the whole), instead of node by
// node, which follows time more closely in an SPMD program. It made the engine slower, not faster (1.7x on 32
// nodes, 1.2x on 1,024: docs/performance.md); it stays so that the finding can be rerun. Ties between equal
// times are broken by vertex id, so a replay of the renumbered graph may order simultaneous work differently
// (the makespan is printed too).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "graph/event_graph.hpp"

namespace rr::bench {

inline graph::EventGraph interleaved(const graph::EventGraph& g) {
  using graph::VertexId;
  using graph::kNoVertex;
  const VertexId n = g.vertex_count();
  // Rank of each vertex within its node, and each node's count.
  std::map<std::uint32_t, std::uint32_t> count;
  std::vector<std::uint32_t> rank(n);
  for (VertexId v = 0; v < n; ++v) rank[v] = count[g.node(v)]++;
  std::vector<std::tuple<double, std::uint32_t, VertexId>> keys(n);
  for (VertexId v = 0; v < n; ++v) keys[v] = {(rank[v] + 0.5) / count[g.node(v)], g.node(v), v};
  std::sort(keys.begin(), keys.end());
  std::vector<VertexId> new_id(n), old_id(n);
  for (VertexId i = 0; i < n; ++i) {
    old_id[i] = std::get<2>(keys[i]);
    new_id[old_id[i]] = i;
  }
  auto remap = [&](VertexId v) { return v == kNoVertex ? kNoVertex : new_id[v]; };

  graph::VertexTable t;
  for (VertexId i = 0; i < n; ++i) {
    const VertexId v = old_id[i];
    t.add(g.kind(v), g.node(v), g.event(v), g.payload(v));
    t.issuer[i] = remap(g.issuer(v));
  }
  t.position.resize(n);
  for (VertexId i = 0; i < n; ++i) t.position[i] = g.position(old_id[i]);
  // The payload arrays keep their order; only the vertex ids inside them change.
  for (VertexId v = 0; v < n; ++v) {
    const std::uint32_t p = g.payload(v);
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

}  // namespace rr::bench
