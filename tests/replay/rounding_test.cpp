// core::held_round rounds without the library call: it must give exactly what std::llround gives wherever that
// is defined (halves away from zero, the binades where doubles are integers), and hold the rest at the ceiling.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "core/saturating.hpp"

namespace rr::core {
namespace {

void expect_llround(double x) {
  if (std::isnan(x) || std::fabs(x) >= static_cast<double>(kTimeCeilingNs)) return;
  EXPECT_EQ(held_round(x), std::llround(x)) << std::hexfloat << x;
}

TEST(HeldRound, HalvesGoAwayFromZero) {
  for (double x : {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999999999999994, -0.49999999999999994, 0.0, -0.0,
                   4503599627370495.5, -4503599627370495.5, 4503599627370496.0, 9007199254740993.0})
    expect_llround(x);
  EXPECT_EQ(held_round(2.5), 3);
  EXPECT_EQ(held_round(-2.5), -3);
  EXPECT_EQ(held_round(0.49999999999999994), 0);  // x + 0.5 would round up to 1
}

TEST(HeldRound, HoldsAtTheCeiling) {
  EXPECT_EQ(held_round(std::numeric_limits<double>::quiet_NaN()), 0);
  EXPECT_EQ(held_round(std::numeric_limits<double>::infinity()), kTimeCeilingNs);
  EXPECT_EQ(held_round(-std::numeric_limits<double>::infinity()), -kTimeCeilingNs);
  EXPECT_EQ(held_round(1e30), kTimeCeilingNs);
  EXPECT_EQ(held_round(static_cast<double>(kTimeCeilingNs)), kTimeCeilingNs);
  EXPECT_EQ(held_round(std::nextafter(static_cast<double>(kTimeCeilingNs), 0.0)),
            std::llround(std::nextafter(static_cast<double>(kTimeCeilingNs), 0.0)));
}

// Random values over every binade up to the ceiling, and random halves and their neighbours.
TEST(HeldRound, MatchesLlroundEverywhereItIsDefined) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> exponent(-30, 60);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  for (int i = 0; i < 2'000'000; ++i) {
    const double x = std::ldexp(mantissa(rng), exponent(rng)) * (rng() & 1 ? 1 : -1);
    expect_llround(x);
    const double half = std::floor(x) + 0.5;
    expect_llround(half);
    expect_llround(std::nextafter(half, 0.0));
    expect_llround(std::nextafter(half, 1e300));
  }
}

}  // namespace
}  // namespace rr::core
