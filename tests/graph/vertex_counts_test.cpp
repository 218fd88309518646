// VertexCounts (2 bytes per vertex, a side table past 65,534) against plain counts, across the 16-bit limit.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "graph/vertex_counts.hpp"

namespace rr::graph {
namespace {

TEST(VertexCounts, MatchesPlainCountsAcrossThe16BitLimit) {
  std::mt19937_64 rng(7);
  const VertexId n = 50;
  VertexCounts counts;
  counts.reset(n);
  std::vector<std::uint32_t> plain(n, 0);
  for (VertexId v = 0; v < n; ++v) {
    const std::uint32_t inputs = v % 5 == 0 ? 65530 + static_cast<std::uint32_t>(rng() % 20) : rng() % 4;
    for (std::uint32_t i = 0; i < inputs; ++i) counts.add_one(v);
    plain[v] = inputs;
  }
  for (VertexId v = 0; v < n; ++v) ASSERT_EQ(counts.get(v), plain[v]) << v;
  // Inputs come in one at a time, in random order, until every operation has all of them.
  std::vector<VertexId> waiting;
  for (VertexId v = 0; v < n; ++v)
    if (plain[v] > 0) waiting.push_back(v);
  while (!waiting.empty()) {
    const std::size_t i = rng() % waiting.size();
    const VertexId v = waiting[i];
    ASSERT_EQ(counts.take_one(v), --plain[v]) << v;
    if (plain[v] == 0) {
      waiting[i] = waiting.back();
      waiting.pop_back();
    }
  }
  for (VertexId v = 0; v < n; ++v) EXPECT_EQ(counts.get(v), 0u) << v;
}

TEST(VertexCounts, SetTakesAnyCount) {
  VertexCounts counts;
  counts.reset(2);
  counts.set(0, 70000);
  counts.set(1, 65535);
  EXPECT_EQ(counts.get(0), 70000u);
  EXPECT_EQ(counts.get(1), 65535u);
  EXPECT_EQ(counts.take_one(1), 65534u);
  counts.set(0, 1);
  EXPECT_EQ(counts.get(0), 1u);
  EXPECT_EQ(counts.take_one(0), 0u);
}

}  // namespace
}  // namespace rr::graph
