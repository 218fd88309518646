// The replay's per-operation records (OperationRecords: 24 bytes per operation) against plain arrays, on random
// sequences whose waits and runs cross the 32-bit limit and whose pending counts cross the 16-bit one.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "replay/operation_records.hpp"

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

TEST(OperationRecords, MatchesPlainArraysAcrossThe32BitLimit) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    const VertexId n = 200;
    OperationRecords times;
    times.reset(n);
    std::vector<TimeNs> ready(n, 0), start(n, kNever), end(n, kNever);
    for (VertexId v = 0; v < n; ++v) {
      // Inputs raise the ready time; then perhaps a start; then perhaps an end (which starts it if nothing did).
      for (int k = static_cast<int>(rng() % 3); k > 0; --k) {
        ready[v] += random_gap(rng);
        times.set_ready(v, ready[v]);
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

TEST(OperationRecords, AWaitOrRunOfExactlyTheLimitIsKeptWhole) {
  OperationRecords times;
  times.reset(4);
  // The first values the side tables take: a wait of 2^31 - 1 ns (its 32 bits also say whether the operation
  // started), a run of 2^32 - 2 ns.
  const TimeNs wait_limit = (TimeNs{1} << 31) - 1, run_limit = (TimeNs{1} << 32) - 2;
  times.set_ready(0, 5);
  times.start_at(0, 5 + wait_limit);
  times.end_at(0, 5 + wait_limit + run_limit);
  times.start_at(1, wait_limit - 1);
  times.end_at(1, wait_limit - 1 + run_limit - 1);
  times.set_ready(3, 7);
  times.start_at(3, 7 + wait_limit + 1);
  times.end_at(3, 7 + wait_limit + 1 + run_limit + 1);
  EXPECT_EQ(times.ready(0), 5);
  EXPECT_EQ(times.start(0), 5 + wait_limit);
  EXPECT_EQ(times.end(0), 5 + wait_limit + run_limit);
  EXPECT_EQ(times.ready(1), 0);
  EXPECT_EQ(times.start(1), wait_limit - 1);
  EXPECT_EQ(times.end(1), wait_limit - 1 + run_limit - 1);
  EXPECT_EQ(times.start(2), kNever);
  EXPECT_EQ(times.end(2), kNever);
  EXPECT_EQ(times.ready(3), 7);
  EXPECT_EQ(times.end(3) - times.start(3), run_limit + 1);
}

// The times the engine holds reach the ceiling of 2^60 ns (core/saturating.hpp), and the record keeps why the
// operation was released beside them, in the same 64 bits: neither disturbs the other.
TEST(OperationRecords, TimesAtTheCeilingKeepTheirRelease) {
  OperationRecords ops;
  ops.reset(2);
  const TimeNs ceiling = TimeNs{1} << 60;
  for (const Release why : {Release::none, Release::input, Release::issue, Release::observed}) {
    ops.reset(2);
    ops.raise_ready(0, ceiling, 1, why);
    EXPECT_EQ(ops.ready(0), ceiling);
    EXPECT_EQ(ops.release(0), why);
    ops.start_at(0, ceiling);
    ops.end_at(0, ceiling);
    EXPECT_EQ(ops.start(0), ceiling);
    EXPECT_EQ(ops.end(0), ceiling);
    EXPECT_EQ(ops.release(0), why);
    EXPECT_EQ(ops.released_by(0), 1u);
  }
}

// Inputs come in any order: the latest releases the operation, among equal times the lowest vertex; the fields of
// one record never disturb another's, nor its own other fields.
TEST(OperationRecords, ReleasesPendingCountsAndFlagsAgainstPlainArrays) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    const VertexId n = 300;
    OperationRecords ops;
    ops.reset(n);
    std::vector<TimeNs> ready(n, 0);
    std::vector<VertexId> by(n, graph::kNoVertex);
    std::vector<Release> why(n, Release::none);
    std::vector<std::uint32_t> pending(n, 0);
    std::vector<char> flag(n, 0);
    for (int step = 0; step < 20000; ++step) {
      const auto v = static_cast<VertexId>(rng() % n);
      switch (rng() % 5) {
        case 0: {  // an input: times collide often, so the lowest-id rule is exercised
          const TimeNs t = static_cast<TimeNs>(rng() % 8) * 1000;
          const auto from = static_cast<VertexId>(rng() % 50);
          const auto reason = static_cast<Release>(1 + rng() % 4);
          if (by[v] == graph::kNoVertex || t > ready[v] || (t == ready[v] && from < by[v])) {
            ready[v] = std::max(ready[v], t);
            by[v] = from;
            why[v] = reason;
          }
          ops.raise_ready(v, t, from, reason);
          break;
        }
        case 1: {  // counts on both sides of the 16-bit limit
          const std::uint32_t c = rng() % 3 == 0 ? 65533 + static_cast<std::uint32_t>(rng() % 6) : static_cast<std::uint32_t>(rng() % 5);
          pending[v] = c;
          ops.set_pending(v, c);
          break;
        }
        case 2:
          ++pending[v];
          ops.add_pending(v);
          break;
        case 3:
          if (pending[v] > 0) {
            EXPECT_EQ(ops.take_pending(v), --pending[v]);
          }
          break;
        default:
          flag[v] = !flag[v];
          ops.set_waits_unrecorded(v, flag[v]);
      }
    }
    for (VertexId v = 0; v < n; ++v) {
      EXPECT_EQ(ops.ready(v), ready[v]) << "seed " << seed << " vertex " << v;
      EXPECT_EQ(ops.released_by(v), by[v]) << "seed " << seed << " vertex " << v;
      EXPECT_EQ(ops.release(v), why[v]) << "seed " << seed << " vertex " << v;
      EXPECT_EQ(ops.pending(v), pending[v]) << "seed " << seed << " vertex " << v;
      EXPECT_EQ(ops.waits_unrecorded(v), flag[v] != 0) << "seed " << seed << " vertex " << v;
      EXPECT_FALSE(ops.started(v));
    }
    // Starting and ending keep the times and releases; an operation that started waits for nothing and on no
    // unrecorded event (its wait's bits held them). set_release (a processor's previous occupant) replaces them.
    ops.start_at(0, ready[0] + 7);
    ops.end_at(0, ready[0] + 9);
    EXPECT_EQ(ops.ready(0), ready[0]);
    EXPECT_EQ(ops.start(0), ready[0] + 7);
    EXPECT_EQ(ops.end(0), ready[0] + 9);
    EXPECT_EQ(ops.released_by(0), by[0]);
    EXPECT_EQ(ops.release(0), why[0]);
    EXPECT_EQ(ops.pending(0), 0u);
    EXPECT_FALSE(ops.waits_unrecorded(0));
    ops.set_release(1, 42, Release::observed);
    EXPECT_EQ(ops.released_by(1), 42u);
    EXPECT_EQ(ops.release(1), Release::observed);
    EXPECT_EQ(ops.ready(1), ready[1]);
  }
}

// Equality is the result's: times and releases, not the engine's counts.
TEST(OperationRecords, EqualityComparesTimesAndReleases) {
  OperationRecords a, b;
  a.reset(2);
  b.reset(2);
  a.set_pending(0, 3);
  EXPECT_EQ(a, b);
  a.raise_ready(1, 5, 0, Release::input);
  EXPECT_FALSE(a == b);
  b.raise_ready(1, 5, 0, Release::input);
  EXPECT_EQ(a, b);
  b.set_release(1, 0, Release::issue);
  EXPECT_FALSE(a == b);
}

}  // namespace
}  // namespace rr::replay
