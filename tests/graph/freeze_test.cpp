// EventGraph::freeze pads the per-vertex arrays a builder may leave short: an issuer array that stops before the
// last vertices (the Realm build sizes it only when resolution writes it; vertices added later have none).
#include <gtest/gtest.h>

#include <array>
#include <span>

#include "graph/event_graph.hpp"

namespace rr::graph {
namespace {

TEST(Freeze, AnIssuerArrayThatStopsShortGivesTheRestNoIssuer) {
  VertexTable t;
  const VertexId task = t.add(OpKind::task, 0, core::EventKey::make(0x20000001, 1), 0);
  t.tasks.push_back({});
  const VertexId copy = t.add(OpKind::copy, 0, core::EventKey::make(0x20000002, 1), 0);
  t.copies.push_back({});
  t.issuer.resize(t.size(), kNoVertex);  // sized for the vertices so far, as the build does before resolution
  t.issuer[copy] = task;
  const VertexId merge = t.add(OpKind::merge, 1, core::EventKey::make(0x20000003, 1), 1);  // added after
  ASSERT_EQ(t.issuer.size(), 2u);  // add() leaves the issuer array as it is

  const std::array<Edge, 2> edges{{{task, copy, EdgeKind::issue}, {copy, merge, EdgeKind::merge_input}}};
  const std::array<std::span<const Edge>, 1> runs{std::span<const Edge>(edges)};
  const EventGraph g = EventGraph::freeze(std::move(t), runs);
  ASSERT_EQ(g.vertex_count(), 3u);
  EXPECT_EQ(g.issuer(task), kNoVertex);
  EXPECT_EQ(g.issuer(copy), task);
  EXPECT_EQ(g.issuer(merge), kNoVertex);
  EXPECT_EQ(g.edge_count(), 2u);
}

}  // namespace
}  // namespace rr::graph
