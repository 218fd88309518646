// The replay's compact times (OperationTimes: 16 bytes per operation) against plain arrays, on random sequences
// whose waits and runs cross the 32-bit limit.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "replay/operation_times.hpp"

namespace rr::replay {
namespace {

using graph::VertexId;

// Times near 2^32 ns apart, so both the narrow and the side-table paths are taken.
TimeNs random_gap(std::mt19937_64& rng) {
  switch (rng() % 4) {
    case 0: return 0;
    case 1: return static_cast<TimeNs>(rng() % 1000);
    case 2: return (TimeNs{1} << 32) - 3 + static_cast<TimeNs>(rng() % 6);  // both sides of the limit
    default: return static_cast<TimeNs>(rng() % (TimeNs{1} << 40));
  }
}

TEST(OperationTimes, MatchesPlainArraysAcrossThe32BitLimit) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    const VertexId n = 200;
    OperationTimes times;
    times.reset(n);
    std::vector<TimeNs> ready(n, 0), start(n, kNever), end(n, kNever);
    for (VertexId v = 0; v < n; ++v) {
      // Inputs raise the ready time; then perhaps a start; then perhaps an end (which starts it if nothing did).
      for (int k = static_cast<int>(rng() % 3); k > 0; --k) {
        ready[v] += random_gap(rng);
        times.ready_until_start(v) = ready[v];
      }
      if (rng() % 4 != 0) {
        start[v] = ready[v] + random_gap(rng);
        times.start_at(v, start[v]);
      }
      if (rng() % 4 != 0) {
        const TimeNs from = start[v] == kNever ? ready[v] : start[v];
        end[v] = from + random_gap(rng);
        if (start[v] == kNever) start[v] = end[v];
        times.end_at(v, end[v]);
      }
    }
    for (VertexId v = 0; v < n; ++v) {
      EXPECT_EQ(times.ready(v), ready[v]) << "seed " << seed << " vertex " << v;
      EXPECT_EQ(times.start(v), start[v]) << "seed " << seed << " vertex " << v;
      EXPECT_EQ(times.end(v), end[v]) << "seed " << seed << " vertex " << v;
      EXPECT_EQ(times.started(v), start[v] != kNever);
      EXPECT_EQ(times.ended(v), end[v] != kNever);
    }
  }
}

TEST(OperationTimes, AWaitOrRunOfExactlyTheLimitIsKeptWhole) {
  OperationTimes times;
  times.reset(3);
  const TimeNs limit = (TimeNs{1} << 32) - 2;  // the first value the side table takes
  times.ready_until_start(0) = 5;
  times.start_at(0, 5 + limit);
  times.end_at(0, 5 + limit + limit - 1);
  times.start_at(1, limit - 1);
  times.end_at(1, limit - 1 + limit);
  EXPECT_EQ(times.ready(0), 5);
  EXPECT_EQ(times.start(0), 5 + limit);
  EXPECT_EQ(times.end(0), 5 + 2 * limit - 1);
  EXPECT_EQ(times.ready(1), 0);
  EXPECT_EQ(times.start(1), limit - 1);
  EXPECT_EQ(times.end(1), 2 * limit - 1);
  EXPECT_EQ(times.start(2), kNever);
  EXPECT_EQ(times.end(2), kNever);
}

}  // namespace
}  // namespace rr::replay
