// The node index of a packed trace (packed/src/node_index.hpp): each node's vertices as maximal ascending runs,
// the vertices without a node last; and what makes an index other than a partition of the ids, named.
#include <gtest/gtest.h>

#include <vector>

#include "graph/event_graph.hpp"
#include "packed/src/node_index.hpp"

namespace rr::packed::detail {
namespace {

using layout::NodeEntry;
using layout::VertexRun;
constexpr std::uint32_t kNone = graph::kNoNode;

TEST(NodeIndex, RunsByNodeWithTheVerticesWithoutANodeLast) {
  const std::vector<std::uint32_t> nodes = {0, 0, kNone, 1, 1, 0, kNone, 2};
  const NodeIndex index = index_by_node(nodes);
  const std::vector<NodeEntry> entries = {{0, 0, 2, 3}, {1, 2, 1, 2}, {2, 3, 1, 1}, {kNone, 4, 2, 2}};
  const std::vector<VertexRun> runs = {{0, 2}, {5, 1}, {3, 2}, {7, 1}, {2, 1}, {6, 1}};
  EXPECT_EQ(index.entries, entries);
  EXPECT_EQ(index.runs, runs);
  EXPECT_EQ(index_problem(index.entries, index.runs, nodes.size()), "");
  for (const NodeEntry& e : index.entries) EXPECT_EQ(disagreement(e, index.runs, nodes), "");
  EXPECT_EQ(index_problem({}, {}, 0), "") << "a graph without vertices";
}

TEST(NodeIndex, WhatIsNoPartitionIsNamed) {
  const std::vector<std::uint32_t> nodes = {0, 0, 1, 1, 0};
  const NodeIndex good = index_by_node(nodes);  // node 0: [0,2) [4,5); node 1: [2,4)
  const auto problem = [&](auto change) {
    NodeIndex bad = good;
    change(bad);
    return index_problem(bad.entries, bad.runs, nodes.size());
  };
  EXPECT_EQ(problem([](NodeIndex& i) { i.runs[1].first = 3; }), "runs that overlap at vertex 3");
  EXPECT_EQ(problem([](NodeIndex& i) { std::swap(i.runs[0], i.runs[1]); }),
            "runs of one node not in ascending order at run 1");
  EXPECT_EQ(problem([](NodeIndex& i) { i.runs[2].count = 9; }), "a run outside the graph at run 2");
  EXPECT_EQ(problem([](NodeIndex& i) { i.runs[2].count = 0; }), "a run outside the graph at run 2");
  EXPECT_EQ(problem([](NodeIndex& i) { i.entries[1].node = 0; }), "nodes not in ascending order at entry 1");
  EXPECT_EQ(problem([](NodeIndex& i) { i.entries[1].first_run = 1; }),
            "runs that do not follow on from the entry before at entry 1");
  EXPECT_EQ(problem([](NodeIndex& i) { i.entries[0].vertices = 2; }), "a vertex count that is not its runs' at entry 0");
  EXPECT_EQ(problem([](NodeIndex& i) { i.runs.push_back({0, 1}); }), "runs that no entry lists");
  // A gap and an overlap that add up: vertex 2 in no run, vertex 4 twice.
  EXPECT_EQ(problem([](NodeIndex& i) { i.runs[2] = {3, 2}; }), "vertex 2 in no run");
  // One vertex fewer in all: the counts say so before the runs are merged.
  EXPECT_EQ(problem([](NodeIndex& i) {
              i.runs.erase(i.runs.begin() + 1);
              i.entries[0].runs = 1;
              i.entries[0].vertices = 2;
              i.entries[1].first_run = 1;
            }),
            "runs of 4 vertices in a graph of 5");
  const NodeEntry moved{1, 2, 1, 2};
  EXPECT_EQ(disagreement(moved, good.runs, std::vector<std::uint32_t>{0, 0, 1, 0, 0}),
            "vertex 3 listed under node 1 has node 0");
}

}  // namespace
}  // namespace rr::packed::detail
