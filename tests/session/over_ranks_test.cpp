// How the replays a session runs from parts agree over the ranks (session/src/over_ranks.hpp): the latest value when
// every rank got there, else the lowest failing rank's error on every rank, named by rank, whichever ranks failed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "session/src/over_ranks.hpp"
#include "support/in_process_network.hpp"
#include "support/ranks_as_threads.hpp"

namespace rr::session {
namespace {

// Each rank's outcome: its value, or its error when it is not empty.
std::vector<OverRanks> agree(const std::vector<std::pair<std::int64_t, std::string>>& outcomes, std::uint64_t seed) {
  const auto ranks = static_cast<std::uint32_t>(outcomes.size());
  rr::testing::InProcessNetwork net(ranks, seed);
  return rr::testing::on_ranks(net, ranks, [&](std::uint32_t r, replay::BlockNetwork& end) {
    const auto& [value, error] = outcomes[r];
    OverRanks got = agree_over_ranks(end, error.empty(), value, error);
    end.part_done();
    return got;
  });
}

TEST(OverRanks, EveryRankGetsTheLatestValueWhenAllGotThere) {
  for (const OverRanks& got : agree({{5, ""}, {9, ""}, {7, ""}}, 3)) {
    EXPECT_TRUE(got.everyone);
    EXPECT_EQ(got.latest, 9);
    EXPECT_EQ(got.error, "");
  }
}

TEST(OverRanks, EveryRankGetsTheLowestFailingRanksErrorByName) {
  for (std::uint64_t seed = 1; seed < 6; ++seed) {
    for (const OverRanks& got : agree({{5, ""}, {0, ""}, {0, "no route from system to framebuffer"}, {0, "other"}}, seed)) {
      EXPECT_FALSE(got.everyone);
      EXPECT_EQ(got.error, "rank 2 of 4: no route from system to framebuffer");
    }
  }
  // Rank 0 itself; one failing rank between ranks that got there.
  for (const OverRanks& got : agree({{0, "bad"}, {3, ""}}, 7)) EXPECT_EQ(got.error, "rank 0 of 2: bad");
  for (const OverRanks& got : agree({{1, ""}, {0, "x"}, {0, ""}}, 8)) EXPECT_EQ(got.error, "rank 1 of 3: x");
}

TEST(OverRanks, OneRankAgreesWithItself) {
  const auto got = agree({{0, "alone"}}, 1);
  EXPECT_FALSE(got[0].everyone);
  EXPECT_EQ(got[0].error, "rank 0 of 1: alone");
}

}  // namespace
}  // namespace rr::session
