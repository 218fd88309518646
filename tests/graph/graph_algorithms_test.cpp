// The Boost.Graph concepts hold for EventGraph and BGL algorithms run on it; longest path under weights.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/graph_concepts.hpp>
#include <boost/graph/topological_sort.hpp>

#include "graph/bgl_adapter.hpp"
#include "graph/graph_algorithms.hpp"
#include "graph/graph_builder.hpp"
#include "support/trace_builder.hpp"

namespace rr::graph {
namespace {

BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<EventGraph>));
BOOST_CONCEPT_ASSERT((boost::IncidenceGraphConcept<EventGraph>));
BOOST_CONCEPT_ASSERT((boost::BidirectionalGraphConcept<EventGraph>));
BOOST_CONCEPT_ASSERT((boost::AdjacencyGraphConcept<EventGraph>));

// A diamond: top issues a (10 us) and b (30 us); a merge of both feeds c (5 us).
BuildResult diamond() {
  return build_event_graph(testing::make_trace(
      {{0,
        {"Processor: 80000000 1", "Task Request: 1 80000000 (20000001,1) (0,0) (0,0) 0 (nil) 0",
         "Task Request: 2 80000000 (20000002,1) (0,0) (20000001,1) 0 (nil) 0",
         "Task Request: 3 80000000 (20000003,1) (0,0) (20000001,1) 0 (nil) 0", "Event Merge: (20000004,1) 2",
         "Event Precondition: (20000004,1) (20000002,1)", "Event Precondition: (20000004,1) (20000003,1)",
         "Task Request: 4 80000000 (20000005,1) (20000004,1) (20000001,1) 0 (nil) 0", "Task Time: (20000001,1) 1",
         "Task Time: (20000002,1) 10", "Task Time: (20000003,1) 30", "Task Time: (20000005,1) 5"}}}));
}

TEST(GraphAlgorithms, BreadthFirstSearchFromBglVisitsEveryVertex) {
  auto r = diamond();
  const auto& g = r.graph;
  std::vector<boost::default_color_type> colors(g.vertex_count());
  std::vector<VertexId> discovered;
  struct Recorder : boost::default_bfs_visitor {
    std::vector<VertexId>* out;
    void discover_vertex(VertexId v, const EventGraph&) const { out->push_back(v); }
  } visitor;
  visitor.out = &discovered;
  boost::breadth_first_search(
      g, VertexId{0},
      boost::visitor(visitor).color_map(boost::make_iterator_property_map(colors.begin(), get(boost::vertex_index, g))));
  EXPECT_EQ(discovered.size(), g.vertex_count());
  EXPECT_EQ(discovered.front(), 0u);
}

TEST(GraphAlgorithms, TopologicalOrderRespectsEveryEdge) {
  auto r = diamond();
  const auto& g = r.graph;
  auto order = topological_order(g);
  ASSERT_EQ(order.size(), g.vertex_count());
  std::vector<std::size_t> rank(g.vertex_count());
  for (std::size_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
  for (VertexId v = 0; v < g.vertex_count(); ++v)
    for (VertexId w : g.successors(v)) EXPECT_LT(rank[v], rank[w]);
}

TEST(GraphAlgorithms, LongestPathTakesTheHeavierBranch) {
  auto r = diamond();
  const auto& g = r.graph;
  auto weight = [&](VertexId v) -> std::int64_t {
    return g.kind(v) == OpKind::task ? g.task(v).time_ns / 1000 : 0;
  };
  auto path = longest_path(g, weight);
  EXPECT_EQ(path.length, 1 + 30 + 5);
  std::vector<std::uint32_t> funcs;
  for (auto v : path.vertices)
    if (g.kind(v) == OpKind::task) funcs.push_back(g.task(v).func_id);
  EXPECT_EQ(funcs, (std::vector<std::uint32_t>{1, 3, 4}));
  // An edge weight (a latency on merge inputs) adds up along the path too.
  auto with_latency = longest_path(g, weight, [](VertexId, VertexId, EdgeKind k) {
    return k == EdgeKind::merge_input ? std::int64_t{100} : std::int64_t{0};
  });
  EXPECT_EQ(with_latency.length, 1 + 30 + 100 + 5);
}

// Edge offsets are 32 bits: a graph of more edges than they index is refused by name, not wrapped around.
TEST(EventGraphLimits, MoreEdgesThanTheOffsetsHoldIsRefused) {
  EXPECT_NO_THROW(EventGraph::check_edge_count(kMaxEdges));
  try {
    EventGraph::check_edge_count(kMaxEdges + 1);
    FAIL() << "no error";
  } catch (const std::length_error& e) {
    EXPECT_NE(std::string(e.what()).find("4294967296 dependencies; it holds at most 4294967295"), std::string::npos)
        << e.what();
  }
  // The diamond's offsets index its edges in both directions.
  const EventGraph& g = diamond().graph;
  EXPECT_EQ(g.first_edge(g.vertex_count() - 1) + g.successors(g.vertex_count() - 1).size(), g.edge_count());
}

}  // namespace
}  // namespace rr::graph
