// The graph's in-edges, derived from the forward CSR on first use: every forward edge once, in order of its
// source, the same for copies of the graph and whichever threads ask first.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "graph/graph_builder.hpp"
#include "parser/trace_reader.hpp"

namespace rr::graph {
namespace {

using InEdge = std::tuple<VertexId, EdgeKind>;

// The oracle: per target, (source, kind) of every forward edge, sources visited in increasing order.
std::vector<std::vector<InEdge>> reversed_by_hand(const EventGraph& g) {
  std::vector<std::vector<InEdge>> in(g.vertex_count());
  for (VertexId v = 0; v < g.vertex_count(); ++v)
    for (std::size_t i = 0; i < g.successors(v).size(); ++i)
      in[g.successors(v)[i]].emplace_back(v, g.successor_kinds(v)[i]);
  return in;
}

std::vector<InEdge> in_edges_of(const EventGraph& g, VertexId v) {
  std::vector<InEdge> out;
  for (std::size_t i = 0; i < g.predecessors(v).size(); ++i) out.emplace_back(g.predecessors(v)[i], g.predecessor_kinds(v)[i]);
  return out;
}

BuildResult built(const std::string& trace) {
  auto records = parser::read_trace({RR_SOURCE_DIR "/data/traces/" + trace}, {});
  EXPECT_TRUE(records.ok()) << trace;
  return build_event_graph(*records);
}

class ReverseCsr : public ::testing::TestWithParam<std::string> {};

TEST_P(ReverseCsr, HoldsEveryForwardEdgeInOrderOfItsSource) {
  const BuildResult r = built(GetParam());
  const EventGraph& g = r.graph;
  ASSERT_GT(g.edge_count(), 0u);
  const auto expected = reversed_by_hand(g);
  std::uint64_t edges = 0;
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    ASSERT_EQ(in_edges_of(g, v), expected[v]) << "vertex " << v;
    edges += g.predecessors(v).size();
  }
  EXPECT_EQ(edges, g.edge_count());
}

TEST_P(ReverseCsr, ThreadsAskingAtOnceAndCopiesSeeTheSameEdges) {
  const BuildResult r = built(GetParam());
  const EventGraph copy_before = r.graph;  // shares the graph's edges, its reverse not yet built
  EXPECT_FALSE(copy_before.reverse_built());  // neither the build nor its checks needed it
  std::vector<std::vector<std::vector<InEdge>>> seen(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < seen.size(); ++t)
    threads.emplace_back([&, t] {
      const EventGraph& g = t % 2 ? copy_before : r.graph;
      for (VertexId v = 0; v < g.vertex_count(); ++v) seen[t].push_back(in_edges_of(g, v));
    });
  for (auto& t : threads) t.join();
  const auto expected = reversed_by_hand(r.graph);
  for (const auto& s : seen) EXPECT_TRUE(s == expected);
  EXPECT_TRUE(r.graph.reverse_built());
  const EventGraph copy_after = r.graph;
  for (VertexId v = 0; v < copy_after.vertex_count(); ++v) ASSERT_EQ(in_edges_of(copy_after, v), expected[v]);
}

INSTANTIATE_TEST_SUITE_P(BundledTraces, ReverseCsr,
                         ::testing::Values("real/full_circuit_2node_p4_cpu2", "real/full_ghost_b2_cpu2",
                                           "s3d/dme_mixed_4n", "s3d/dme_all_2n"),
                         [](const auto& info) {
                           std::string name = info.param.substr(info.param.find('/') + 1);
                           std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
                           return name;
                         });

}  // namespace
}  // namespace rr::graph
