// Algorithms over the EventGraph: topological order and cycle detection (Boost.Graph), longest weighted path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/saturating.hpp"
#include "graph/event_graph.hpp"
#include "graph/vertex_counts.hpp"

namespace rr::graph {

// Vertices in an order where every edge goes forward; empty if the graph has a cycle.
std::vector<VertexId> topological_order(const EventGraph& g);

// The operations of one cycle (each waits on the next... and the last on the first), or empty when the graph
// is acyclic: one topological pass, and strongly connected components only on what it cannot order.
std::vector<VertexId> find_cycle(const EventGraph& g);

// How many edges enter each vertex, counted along the forward CSR (the graph's reverse one is not needed).
std::vector<std::uint32_t> in_degrees(const EventGraph& g);

struct LongestPath {
  std::int64_t length = 0;
  std::vector<VertexId> vertices;  // from the first operation to the last
};

// The heaviest path when each vertex weighs vertex_weight(v) and each edge edge_weight(from, to, kind):
// the infinite-resource lower bound of a replay. Requires an acyclic graph (returns length -1 otherwise).
// A path's length saturates (core/saturating.hpp). Of equally heavy ways into a vertex, the path takes the one
// from the lowest predecessor, so the path does not depend on the order the vertices are settled in.
//
// Settled in Kahn's order, each vertex pushing its finish along its out-edges in the forward CSR only: no
// search, and the weights inlined (a template, not std::function: they are called once per vertex and edge).
namespace detail {
// longest_path, and with kWithPath false longest_path_length: then no predecessor per vertex is kept. With
// `starts`, it also gives each vertex's heaviest path in, before its own weight (earliest_starts).
template <bool kWithPath, typename VertexWeight, typename EdgeWeight>
LongestPath heaviest_path(const EventGraph& g, VertexWeight&& vertex_weight, EdgeWeight&& edge_weight,
                          std::vector<std::int64_t>* starts = nullptr) {
  const VertexId n = g.vertex_count();
  // start[v]: heaviest path into v, before its own weight; via[v]: the predecessor it comes through.
  std::vector<std::int64_t> start(n, 0);
  std::vector<VertexId> via(kWithPath ? n : 0, kNoVertex);
  VertexCounts pending;  // the pass reads no predecessor list
  pending.reset(n);
  for (VertexId v = 0; v < n; ++v)
    for (VertexId w : g.successors(v)) pending.add_one(w);
  std::vector<VertexId> ready;
  for (VertexId v = 0; v < n; ++v)
    if (pending.get(v) == 0) ready.push_back(v);
  LongestPath best;
  VertexId last = kNoVertex;
  VertexId settled = 0;
  while (!ready.empty()) {
    const VertexId v = ready.back();
    ready.pop_back();
    ++settled;
    const std::int64_t finish = core::saturating_add(start[v], vertex_weight(v));
    // The heaviest finish; of equal ones, the first in vertex order.
    if (last == kNoVertex || finish > best.length || (finish == best.length && v < last)) {
      best.length = finish;
      last = v;
    }
    auto succ = g.successors(v);
    auto kinds = g.successor_kinds(v);
    for (std::size_t i = 0; i < succ.size(); ++i) {
      const VertexId w = succ[i];
      const std::int64_t t = core::saturating_add(finish, edge_weight(v, w, kinds[i]));
      if constexpr (kWithPath) {
        // A path only counts once it weighs something: a way in of weight 0 leaves w a start of its own.
        if (t > start[w] || (t == start[w] && t > 0 && v < via[w])) {
          start[w] = t;
          via[w] = v;
        }
      } else {
        start[w] = std::max(start[w], t);
      }
      if (pending.take_one(w) == 0) ready.push_back(w);
    }
  }
  if (settled != n) return {-1, {}};
  if (starts) *starts = std::move(start);
  if constexpr (kWithPath) {
    for (VertexId v = last; v != kNoVertex; v = via[v]) best.vertices.push_back(v);
    std::reverse(best.vertices.begin(), best.vertices.end());
  }
  return best;
}
}  // namespace detail

template <typename VertexWeight, typename EdgeWeight>
LongestPath longest_path(const EventGraph& g, VertexWeight&& vertex_weight, EdgeWeight&& edge_weight) {
  return detail::heaviest_path<true>(g, vertex_weight, edge_weight);
}

// The length of longest_path alone, without a predecessor per vertex (what a lower bound needs).
template <typename VertexWeight, typename EdgeWeight>
std::int64_t longest_path_length(const EventGraph& g, VertexWeight&& vertex_weight, EdgeWeight&& edge_weight) {
  return detail::heaviest_path<false>(g, vertex_weight, edge_weight).length;
}

template <typename VertexWeight>
LongestPath longest_path(const EventGraph& g, VertexWeight&& vertex_weight) {
  return longest_path(g, vertex_weight, [](VertexId, VertexId, EdgeKind) { return std::int64_t{0}; });
}

// When each vertex would start with nothing but its predecessors to wait for: its heaviest path in, before its own
// weight, with no weight on any edge. Empty if the graph has a cycle.
template <typename VertexWeight>
std::vector<std::int64_t> earliest_starts(const EventGraph& g, VertexWeight&& vertex_weight) {
  std::vector<std::int64_t> starts;
  detail::heaviest_path<false>(g, vertex_weight, [](VertexId, VertexId, EdgeKind) { return std::int64_t{0}; }, &starts);
  return starts;
}

}  // namespace rr::graph
