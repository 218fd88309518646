// Overflow-safe time arithmetic for the replay (docs/limits.md). Trace durations are bounded by the parser
// (2^42 us) and machine costs by the loader (1e15 ns), but a slow model processor, long chains of long tasks
// or many copies can still push a sum past int64: times and durations are held at kTimeCeilingNs instead, a
// time no real run reaches (36 years), so the report shows an absurd estimate rather than a wrapped one.
#pragma once

#include <cmath>
#include <cstdint>

namespace rr::core {

// 2^60 ns: two of them and a few machine costs still add up below 2^63, so `a + b + cost` of held values
// cannot overflow before it is held again.
inline constexpr std::int64_t kTimeCeilingNs = std::int64_t{1} << 60;

// v held in [-kTimeCeilingNs, kTimeCeilingNs].
constexpr std::int64_t held(std::int64_t v) {
  return v > kTimeCeilingNs ? kTimeCeilingNs : v < -kTimeCeilingNs ? -kTimeCeilingNs : v;
}

// a + b, held; never overflows whatever a and b are.
constexpr std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return a > 0 ? kTimeCeilingNs : -kTimeCeilingNs;
  return held(sum);
}

// a + b for totals that only grow (microseconds, bytes, counts over a whole trace): held at the largest value
// instead of wrapping, so that no hostile trace's total comes out small.
constexpr std::uint64_t saturating_sum(std::uint64_t a, std::uint64_t b) {
  std::uint64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

// A duration computed in floating point, rounded to the nearest ns, halves away from zero as llround does, and
// held (nan counts as 0): llround of a value beyond int64 is undefined. Rounded here rather than by llround, a
// library call the replay made for every task segment: within the ceiling the truncation to int64 is exact,
// and so is the fraction left (ns and its truncation are within a factor of two of each other, or it is 0).
inline std::int64_t held_round(double ns) {
  if (std::isnan(ns)) return 0;
  if (ns >= static_cast<double>(kTimeCeilingNs)) return kTimeCeilingNs;
  if (ns <= -static_cast<double>(kTimeCeilingNs)) return -kTimeCeilingNs;
  const auto whole = static_cast<std::int64_t>(ns);
  const double fraction = ns - static_cast<double>(whole);
  return fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole;
}

}  // namespace rr::core
