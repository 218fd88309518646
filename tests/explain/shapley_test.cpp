// Shapley values by hand on two and three classes, the rounding that makes them add up, and their independence of
// the order of the classes.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "explain/shapley.hpp"

namespace rr::explain {
namespace {

TEST(Shapley, TwoClassesByHand) {
  // v(∅)=100, v({0})=130, v({1})=110, v({0,1})=150: φ0 = ½(30) + ½(150−110) = 35, φ1 = ½(10) + ½(150−130) = 15.
  const std::vector<std::int64_t> v = {100, 130, 110, 150};
  EXPECT_EQ(shapley_values(v, 2), (std::vector<std::int64_t>{35, 15}));
}

TEST(Shapley, ThreeClassesByHand) {
  // Masks: 0:∅ 1:{0} 2:{1} 3:{0,1} 4:{2} 5:{0,2} 6:{1,2} 7:{0,1,2}.
  const std::vector<std::int64_t> v = {0, 60, 30, 120, 0, 60, 30, 180};
  // φ0 = 1/3·60 + 1/6·(120−30) + 1/6·(60−0) + 1/3·(180−30) = 20 + 15 + 10 + 50 = 95
  // φ1 = 1/3·30 + 1/6·(120−60) + 1/6·(30−0) + 1/3·(180−60) = 10 + 10 + 5 + 40 = 65
  // φ2 = 1/3·0 + 1/6·(60−60) + 1/6·(30−30) + 1/3·(180−120) = 20
  EXPECT_EQ(shapley_values(v, 3), (std::vector<std::int64_t>{95, 65, 20}));
}

TEST(Shapley, RoundingAddsUpExactly) {
  // Three symmetric players sharing 100 ns: 33⅓ each; the ns left over goes to the first.
  const std::vector<std::int64_t> v = {0, 0, 0, 0, 0, 0, 0, 100};
  const auto s = shapley_values(v, 3);
  EXPECT_EQ(s, (std::vector<std::int64_t>{34, 33, 33}));
  // Negative differences round the same way and still add up.
  const std::vector<std::int64_t> w = {100, 100, 100, 100, 100, 100, 100, 0};
  const auto t = shapley_values(w, 3);
  EXPECT_EQ(std::accumulate(t.begin(), t.end(), std::int64_t{0}), -100);
  for (auto x : t) EXPECT_NEAR(static_cast<double>(x), -100.0 / 3, 1.0);
}

TEST(Shapley, RandomGamesAddUpAndDoNotDependOnOrder) {
  std::mt19937_64 rng(42);
  for (unsigned k = 1; k <= kMaxPlayers; ++k) {
    const std::uint32_t n = 1u << k;
    std::vector<std::int64_t> v(n);
    for (auto& x : v) x = static_cast<std::int64_t>(rng() % 2'000'000'000'000ull);
    const auto s = shapley_values(v, k);
    EXPECT_EQ(std::accumulate(s.begin(), s.end(), std::int64_t{0}), v[n - 1] - v[0]) << k;
    // Reversing the players' numbering reverses the shares (within the 1 ns of rounding).
    std::vector<std::int64_t> reversed(n);
    for (std::uint32_t m = 0; m < n; ++m) {
      std::uint32_t r = 0;
      for (unsigned i = 0; i < k; ++i)
        if ((m >> i) & 1u) r |= 1u << (k - 1 - i);
      reversed[r] = v[m];
    }
    const auto t = shapley_values(reversed, k);
    for (unsigned i = 0; i < k; ++i) EXPECT_LE(std::llabs(s[i] - t[k - 1 - i]), 1) << k << " " << i;
  }
}

TEST(Shapley, RefusesTooManyClasses) {
  EXPECT_THROW(shapley_values(std::vector<std::int64_t>(512), 9), std::invalid_argument);
  EXPECT_THROW(shapley_values(std::vector<std::int64_t>(3), 2), std::invalid_argument);
  EXPECT_TRUE(shapley_values(std::vector<std::int64_t>{5}, 0).empty());
}

}  // namespace
}  // namespace rr::explain
