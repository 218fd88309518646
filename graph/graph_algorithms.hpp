// Algorithms over the EventGraph: topological order and cycle detection (Boost.Graph), longest weighted path.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "graph/event_graph.hpp"

namespace rr::graph {

// Vertices in an order where every edge goes forward; empty if the graph has a cycle.
std::vector<VertexId> topological_order(const EventGraph& g);

// The operations of one cycle (each waits on the next... and the last on the first), or empty when the graph
// is acyclic: one topological pass, and strongly connected components only on what it cannot order.
std::vector<VertexId> find_cycle(const EventGraph& g);

struct LongestPath {
  std::int64_t length = 0;
  std::vector<VertexId> vertices;  // from the first operation to the last
};

// The heaviest path when each vertex weighs vertex_weight(v) and each edge edge_weight(from, to, kind):
// the infinite-resource lower bound of a replay. Requires an acyclic graph (returns length -1 otherwise).
LongestPath longest_path(const EventGraph& g, const std::function<std::int64_t(VertexId)>& vertex_weight,
                         const std::function<std::int64_t(VertexId, VertexId, EdgeKind)>& edge_weight = {});

}  // namespace rr::graph
