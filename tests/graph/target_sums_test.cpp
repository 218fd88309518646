// The graph builder's per-batch sums by processor (graph/src/builder/target_sums.hpp): thousands of targets,
// most colliding in the 256-slot front and spilled to its map, against a std::map that adds the same amounts;
// and sums that reach the largest value stay there.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "graph/src/builder/target_sums.hpp"

namespace rr::graph::build_detail {
namespace {

TEST(TargetSums, ManyCollidingTargetsAddUpAsAMapWould) {
  std::mt19937_64 rng(7);
  TargetSums sums;
  std::map<std::uint64_t, std::uint64_t> expected;
  for (int i = 0; i < 200000; ++i) {
    // Runs of one target (the usual case) between jumps among 5,000 (far more than the front's slots).
    const std::uint64_t target = 0x1d00000000000000ull + (rng() % 5000) * 0x10000;
    for (int run = static_cast<int>(rng() % 4); run >= 0; --run) {
      const std::uint64_t amount = rng() % 1000;
      sums.add(target, amount);
      expected[target] += amount;
    }
  }
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> got = sums.take_sorted();
  EXPECT_EQ(got, (std::vector<std::pair<std::uint64_t, std::uint64_t>>(expected.begin(), expected.end())));
  EXPECT_GT(got.size(), 256u);
  EXPECT_TRUE(sums.take_sorted().empty());  // taking them starts again from nothing
}

TEST(TargetSums, HoldsAtTheLargestValue) {
  TargetSums sums;
  sums.add(1, UINT64_MAX - 1);
  sums.add(1, 5);
  sums.add(2, 3);
  const auto got = sums.take_sorted();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], (std::pair<std::uint64_t, std::uint64_t>{1, UINT64_MAX}));
  EXPECT_EQ(got[1], (std::pair<std::uint64_t, std::uint64_t>{2, 3}));
}

}  // namespace
}  // namespace rr::graph::build_detail
