// Boost.Graph view of EventGraph: graph_traits and the free functions of the vertex-list,
// incidence, bidirectional and adjacency graph concepts, so BGL algorithms run on it directly.
#pragma once

#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/iterator_facade.hpp>
#include <boost/property_map/property_map.hpp>
#include <utility>

#include "graph/event_graph.hpp"

namespace rr::graph {

// An edge: its ends and, for out-edges, its index in the source-major edge numbering.
struct EdgeRef {
  VertexId source = kNoVertex;
  VertexId target = kNoVertex;
  std::uint64_t index = 0;
  friend bool operator==(const EdgeRef& a, const EdgeRef& b) {
    return a.source == b.source && a.target == b.target && a.index == b.index;
  }
};

// Iterates the edges of one vertex: out-edges (source fixed) or in-edges (target fixed).
template <bool Out>
class IncidentEdgeIterator
    : public boost::iterator_facade<IncidentEdgeIterator<Out>, EdgeRef, boost::random_access_traversal_tag, EdgeRef,
                                    std::ptrdiff_t> {
 public:
  IncidentEdgeIterator() = default;
  IncidentEdgeIterator(const VertexId* ends, VertexId fixed, std::uint64_t index)
      : ends_(ends), fixed_(fixed), index_(index) {}

 private:
  friend class boost::iterator_core_access;
  EdgeRef dereference() const {
    VertexId other = ends_[index_];
    return Out ? EdgeRef{fixed_, other, index_} : EdgeRef{other, fixed_, index_};
  }
  bool equal(const IncidentEdgeIterator& o) const { return index_ == o.index_ && ends_ == o.ends_; }
  void increment() { ++index_; }
  void decrement() { --index_; }
  void advance(std::ptrdiff_t n) { index_ = static_cast<std::uint64_t>(static_cast<std::ptrdiff_t>(index_) + n); }
  std::ptrdiff_t distance_to(const IncidentEdgeIterator& o) const {
    return static_cast<std::ptrdiff_t>(o.index_) - static_cast<std::ptrdiff_t>(index_);
  }
  const VertexId* ends_ = nullptr;
  VertexId fixed_ = kNoVertex;
  std::uint64_t index_ = 0;
};

using OutEdgeIterator = IncidentEdgeIterator<true>;
using InEdgeIterator = IncidentEdgeIterator<false>;
using VertexIterator = boost::counting_iterator<VertexId>;
using AdjacencyIterator = const VertexId*;

// bidirectional_graph_tag already implies incidence_graph_tag (virtual bases, as in BGL's own graphs).
struct EventGraphTraversalCategory : virtual boost::vertex_list_graph_tag,
                                     virtual boost::bidirectional_graph_tag,
                                     virtual boost::adjacency_graph_tag {};

inline std::pair<VertexIterator, VertexIterator> vertices(const EventGraph& g) {
  return {VertexIterator(0), VertexIterator(g.vertex_count())};
}
inline std::uint32_t num_vertices(const EventGraph& g) { return g.vertex_count(); }

inline std::pair<OutEdgeIterator, OutEdgeIterator> out_edges(VertexId v, const EventGraph& g) {
  auto succ = g.successors(v);
  const VertexId* base = succ.data() - g.first_edge(v);  // so that index = global edge number
  return {OutEdgeIterator(base, v, g.first_edge(v)), OutEdgeIterator(base, v, g.first_edge(v) + succ.size())};
}
inline std::uint64_t out_degree(VertexId v, const EventGraph& g) { return g.successors(v).size(); }

inline std::pair<InEdgeIterator, InEdgeIterator> in_edges(VertexId v, const EventGraph& g) {
  auto pred = g.predecessors(v);
  return {InEdgeIterator(pred.data(), v, 0), InEdgeIterator(pred.data(), v, pred.size())};
}
inline std::uint64_t in_degree(VertexId v, const EventGraph& g) { return g.predecessors(v).size(); }
inline std::uint64_t degree(VertexId v, const EventGraph& g) { return in_degree(v, g) + out_degree(v, g); }

inline std::pair<AdjacencyIterator, AdjacencyIterator> adjacent_vertices(VertexId v, const EventGraph& g) {
  auto succ = g.successors(v);
  return {succ.data(), succ.data() + succ.size()};
}

inline VertexId source(const EdgeRef& e, const EventGraph&) { return e.source; }
inline VertexId target(const EdgeRef& e, const EventGraph&) { return e.target; }

// Vertices are dense, so the index map is the identity.
inline boost::typed_identity_property_map<VertexId> get(boost::vertex_index_t, const EventGraph&) { return {}; }

}  // namespace rr::graph

namespace boost {

template <>
struct graph_traits<rr::graph::EventGraph> {
  using vertex_descriptor = rr::graph::VertexId;
  using edge_descriptor = rr::graph::EdgeRef;
  using directed_category = bidirectional_tag;
  using edge_parallel_category = allow_parallel_edge_tag;
  using traversal_category = rr::graph::EventGraphTraversalCategory;
  using vertex_iterator = rr::graph::VertexIterator;
  using out_edge_iterator = rr::graph::OutEdgeIterator;
  using in_edge_iterator = rr::graph::InEdgeIterator;
  using adjacency_iterator = rr::graph::AdjacencyIterator;
  using edge_iterator = void;
  using vertices_size_type = std::uint32_t;
  using edges_size_type = std::uint64_t;
  using degree_size_type = std::uint64_t;
  static vertex_descriptor null_vertex() { return rr::graph::kNoVertex; }
};

template <>
struct property_map<rr::graph::EventGraph, vertex_index_t> {
  using type = typed_identity_property_map<rr::graph::VertexId>;
  using const_type = type;
};

}  // namespace boost
