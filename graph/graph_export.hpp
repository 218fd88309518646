// DOT and JSON dumps of the event graph, or of a selection of it (one node, a slice of the topological order).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graph/event_graph.hpp"

namespace rr::graph {

struct Selection {
  std::optional<std::uint32_t> node;         // only operations on this node
  std::optional<std::uint64_t> slice_begin;  // only vertices at these positions of the topological order
  std::optional<std::uint64_t> slice_end;
};

// The selected vertices in ascending id order (edges are kept when both ends are selected).
std::vector<VertexId> select_vertices(const EventGraph& g, const Selection& selection);

// Graphviz: one node per operation ("task f5 (20000001,1)"), edges styled by kind.
std::string to_dot(const EventGraph& g, const std::vector<VertexId>& vertices);

// {"schema":"realm-replay/graph","schema_version":1,"vertices":[...],"edges":[[from,to,"kind"],...]}
std::string to_json(const EventGraph& g, const std::vector<VertexId>& vertices);

}  // namespace rr::graph
