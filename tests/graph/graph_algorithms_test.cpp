// The Boost.Graph concepts hold for EventGraph and BGL algorithms run on it; longest path under weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/graph_concepts.hpp>
#include <boost/graph/topological_sort.hpp>

#include "graph/bgl_adapter.hpp"
#include "graph/graph_algorithms.hpp"
#include "graph/graph_builder.hpp"
#include "parser/trace_reader.hpp"
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

TEST(GraphAlgorithms, EarliestStartsAreTheHeaviestPathsIn) {
  auto r = diamond();
  const auto& g = r.graph;
  auto weight = [&](VertexId v) -> std::int64_t {
    return g.kind(v) == OpKind::task ? g.task(v).time_ns / 1000 : 0;
  };
  const std::vector<std::int64_t> starts = earliest_starts(g, weight);
  ASSERT_EQ(starts.size(), g.vertex_count());
  // By hand: the top task (1) at 0; tasks 2 and 3 after it, at 1; the merge after the longer (3: 1 + 30), and
  // task 4 after the merge.
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    if (g.kind(v) == OpKind::merge) {
      EXPECT_EQ(starts[v], 31);
    }
    if (g.kind(v) != OpKind::task) continue;
    const std::int64_t expected[] = {0, 0, 1, 1, 31};
    EXPECT_EQ(starts[v], expected[g.task(v).func_id]) << "function " << g.task(v).func_id;
  }
}

// The longest path by the plain rule, as an oracle: pulled over Boost's topological order, each vertex from all
// its predecessors; the heaviest way in, of equal ones (weighing something) the lowest predecessor; the path
// ends at the heaviest finish, of equal ones the lowest vertex.
LongestPath longest_path_by_pulling(const EventGraph& g, const std::vector<std::int64_t>& vertex_weight,
                                    std::int64_t (*edge_weight)(VertexId, VertexId, EdgeKind)) {
  const std::vector<VertexId> order = topological_order(g);
  std::vector<std::int64_t> finish(g.vertex_count(), 0);
  std::vector<VertexId> via(g.vertex_count(), kNoVertex);
  for (VertexId v : order) {
    std::int64_t start = 0;
    for (std::size_t i = 0; i < g.predecessors(v).size(); ++i) {
      const VertexId u = g.predecessors(v)[i];
      const std::int64_t t = core::saturating_add(finish[u], edge_weight(u, v, g.predecessor_kinds(v)[i]));
      if (t > start || (t == start && t > 0 && u < via[v])) {
        start = t;
        via[v] = u;
      }
    }
    finish[v] = core::saturating_add(start, vertex_weight[v]);
  }
  LongestPath best;
  VertexId last = kNoVertex;
  for (VertexId v = 0; v < g.vertex_count(); ++v)
    if (last == kNoVertex || finish[v] > best.length) {
      best.length = finish[v];
      last = v;
    }
  for (VertexId v = last; v != kNoVertex; v = via[v]) best.vertices.push_back(v);
  std::reverse(best.vertices.begin(), best.vertices.end());
  return best;
}

// On the bundled traces' graphs, with weights drawn from a few values (so that ties are common) and negative
// edge weights (an issue edge weighs the issue point minus the issuer's end): the same length and path.
TEST(GraphAlgorithms, LongestPathEqualsThePlainRuleOnTheBundledTraces) {
  for (const char* name : {"/data/traces/real/full_circuit_2node_p4_cpu2", "/data/traces/real/full_ghost_b2_cpu2",
                           "/data/traces/s3d/dme_mixed_2n"}) {
    auto trace = parser::read_trace({std::string(RR_SOURCE_DIR) + name}, {});
    ASSERT_TRUE(trace) << name;
    const BuildResult built = build_event_graph(*trace);
    const EventGraph& g = built.graph;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      std::vector<std::int64_t> weight(g.vertex_count());
      std::uint64_t x = seed;
      for (auto& w : weight) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        w = static_cast<std::int64_t>((x >> 33) % 4) * 10;
      }
      auto edge = +[](VertexId from, VertexId to, EdgeKind kind) -> std::int64_t {
        return kind == EdgeKind::issue ? -5 : static_cast<std::int64_t>((from * 7 + to * 13) % 3) * 10;
      };
      const LongestPath expected = longest_path_by_pulling(g, weight, edge);
      const LongestPath got = longest_path(g, [&](VertexId v) { return weight[v]; }, edge);
      EXPECT_EQ(got.length, expected.length) << name << " seed " << seed;
      EXPECT_EQ(got.vertices, expected.vertices) << name << " seed " << seed;
      EXPECT_GT(got.length, 0);
      EXPECT_EQ(longest_path_length(g, [&](VertexId v) { return weight[v]; }, edge), expected.length) << name;
    }
  }
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
