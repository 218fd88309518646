// Topological order and strong components through the Boost.Graph view; cycles found by Kahn's algorithm first.
#include "graph/graph_algorithms.hpp"

#include <algorithm>
#include <boost/graph/filtered_graph.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/graph/topological_sort.hpp>
#include <iterator>

#include "core/saturating.hpp"
#include "graph/bgl_adapter.hpp"
#include "platform/huge_pages.hpp"

namespace rr::graph {

std::vector<std::uint32_t> in_degrees(const EventGraph& g) {
  std::vector<std::uint32_t> degree;
  platform::assign_on_huge_pages(degree, g.vertex_count(), std::uint32_t{0});
  for (VertexId v = 0; v < g.vertex_count(); ++v)
    for (VertexId w : g.successors(v)) ++degree[w];
  return degree;
}

std::vector<VertexId> topological_order(const EventGraph& g) {
  std::vector<VertexId> reversed;
  reversed.reserve(g.vertex_count());
  std::vector<boost::default_color_type> colors(g.vertex_count());
  try {
    boost::topological_sort(
        g, std::back_inserter(reversed),
        boost::color_map(boost::make_iterator_property_map(colors.begin(), get(boost::vertex_index, g))));
  } catch (const boost::not_a_dag&) {
    return {};
  }
  std::reverse(reversed.begin(), reversed.end());
  return reversed;
}

namespace {
// Vertex filter of the part of the graph searched for a cycle.
struct InSet {
  const std::vector<char>* set = nullptr;
  bool operator()(VertexId v) const { return (*set)[v] != 0; }
};

// The operations of one cycle among the vertices v with within[v] != 0 (a set that holds every cycle), by
// strongly connected components: the lowest vertex in a component of size > 1, then a walk inside it.
std::vector<VertexId> cycle_within(const EventGraph& g, const std::vector<char>& within) {
  const std::uint32_t n = g.vertex_count();
  const InSet inside{&within};
  boost::filtered_graph<EventGraph, boost::keep_all, InSet> part(g, boost::keep_all(), inside);
  std::vector<std::uint32_t> component(n, 0);
  auto index = get(boost::vertex_index, g);
  std::uint32_t count = boost::strong_components(part, boost::make_iterator_property_map(component.begin(), index));
  std::vector<std::uint32_t> size(count, 0);
  for (VertexId v = 0; v < n; ++v)
    if (inside(v)) ++size[component[v]];
  VertexId start = 0;
  while (start < n && !(inside(start) && size[component[start]] > 1)) ++start;
  if (start == n) {
    for (VertexId v = 0; v < n; ++v)
      for (VertexId w : g.successors(v))
        if (w == v && inside(v)) return {v};  // a self-loop
    return {};
  }
  // The lowest vertex in a component of size > 1, then a walk inside that component
  // back to it: each step takes the smallest successor in the component not yet on the path.
  const std::uint32_t c = component[start];
  std::vector<VertexId> path{start};
  std::vector<char> on_path(n, 0), dead(n, 0);
  on_path[start] = 1;
  while (!path.empty()) {
    VertexId v = path.back();
    VertexId next = kNoVertex;
    for (VertexId w : g.successors(v)) {
      if (!inside(w) || component[w] != c) continue;
      if (w == start && path.size() > 1) return path;
      if (w == start && path.size() == 1 && v == start) continue;
      if (!on_path[w] && !dead[w] && (next == kNoVertex || w < next)) next = w;
    }
    if (next == kNoVertex) {
      on_path[v] = 0;
      dead[v] = 1;
      path.pop_back();
    } else {
      on_path[next] = 1;
      path.push_back(next);
    }
  }
  return {start};
}

}  // namespace

// Kahn's algorithm settles the usual case (no cycle) in one pass over the CSR. Only a graph with a cycle pays
// for strongly connected components, and only on what Kahn's algorithm could not order and that still leads
// somewhere: every cycle lies in that part.
std::vector<VertexId> find_cycle(const EventGraph& g) {
  const VertexId n = g.vertex_count();
  std::vector<std::uint32_t> pending = in_degrees(g);  // an acyclic graph never needs the reverse CSR
  std::vector<VertexId> ready;
  platform::reserve_on_huge_pages(ready, n);
  for (VertexId v = 0; v < n; ++v)
    if (pending[v] == 0) ready.push_back(v);
  std::uint64_t ordered = 0;
  while (!ready.empty()) {
    VertexId v = ready.back();
    ready.pop_back();
    ++ordered;
    for (VertexId w : g.successors(v))
      if (--pending[w] == 0) ready.push_back(w);
  }
  if (ordered == n) return {};
  // Peel the rest from the other end: vertices none of whose successors is left.
  std::vector<char> left(n, 0);
  for (VertexId v = 0; v < n; ++v) left[v] = pending[v] != 0;
  for (VertexId v = 0; v < n; ++v) {
    if (!left[v]) continue;
    pending[v] = 0;
    for (VertexId w : g.successors(v)) pending[v] += left[w];
    if (pending[v] == 0) ready.push_back(v);
  }
  std::vector<VertexId> removed;
  while (!ready.empty()) {
    VertexId v = ready.back();
    ready.pop_back();
    removed.push_back(v);
    for (VertexId w : g.predecessors(v))
      if (left[w] && --pending[w] == 0) ready.push_back(w);
  }
  for (VertexId v : removed) left[v] = 0;
  return cycle_within(g, left);
}

}  // namespace rr::graph
