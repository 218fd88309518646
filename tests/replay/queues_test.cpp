// Property tests of the engine's two queues against a binary heap on the same total order (the oracle): random
// operation sequences, with many ties, must pop exactly the same elements in exactly the same order.
#include <gtest/gtest.h>

#include <limits>
#include <queue>
#include <random>
#include <tuple>
#include <vector>

#include "replay/event_queue.hpp"
#include "replay/segment_queue.hpp"

namespace rr::replay {
namespace {

struct EventLater {
  // The order spelled out field by field, independently of the packed key the queue compares.
  bool operator()(const QueuedEvent& a, const QueuedEvent& b) const {
    return std::tuple(b.time(), b.vertex(), b.type(), b.aux()) < std::tuple(a.time(), a.vertex(), a.type(), a.aux());
  }
};

bool same(const QueuedEvent& a, const QueuedEvent& b) {
  return a.time() == b.time() && a.vertex() == b.vertex() && a.type() == b.type() && a.aux() == b.aux();
}

// Drives EventQueue as the engine does (one instant at a time, pushes at or after the present, some of them
// at the present itself) and checks every pop against the oracle.
void check_event_queue(std::uint32_t seed, machine::TimeNs spread, int operations) {
  std::mt19937_64 rng(seed);
  EventQueue q;
  std::priority_queue<QueuedEvent, std::vector<QueuedEvent>, EventLater> oracle;
  machine::TimeNs now = 0;
  auto push_random = [&] {
    const machine::TimeNs t = now + (rng() % 4 == 0 ? 0 : static_cast<machine::TimeNs>(rng() % spread));
    const QueuedEvent e{t, static_cast<graph::VertexId>(rng() % 50), static_cast<EventType>(rng() % 6),
                        static_cast<std::uint32_t>(rng() % 3)};
    q.push(e);
    oracle.push(e);
  };
  for (int i = 0; i < 20; ++i) push_random();
  int done = 0;
  while (!q.empty() && done < operations) {
    ASSERT_FALSE(oracle.empty());
    // A look ahead (a block of a split replay deciding whether it may go on) sees the earliest time and moves
    // nothing: an event before it may still come, and then it is the earliest.
    ASSERT_EQ(q.next_time(), oracle.top().time());
    if (rng() % 3 == 0) {
      push_random();
      ASSERT_EQ(q.next_time(), oracle.top().time());
    }
    now = q.begin_instant();
    ASSERT_EQ(now, oracle.top().time());
    while (q.has_present()) {
      const QueuedEvent e = q.pop();
      ASSERT_TRUE(same(e, oracle.top())) << "seed " << seed << " pop " << done;
      oracle.pop();
      ++done;
      for (int k = static_cast<int>(rng() % 3); k > 0; --k) push_random();
    }
    // The engine's end of instant: new work may start at the present.
    for (int k = static_cast<int>(rng() % 2); k > 0; --k) push_random();
    ASSERT_EQ(q.size(), oracle.size());
  }
}

TEST(EventQueue, PopsWhatABinaryHeapPops) {
  for (std::uint32_t seed = 1; seed <= 40; ++seed) check_event_queue(seed, seed % 2 ? 7 : 1'000'000'007, 20000);
}

// Spreads that put events in the current window, in the ring of the next windows, past it, and across both, over
// runs long enough for the ring to go round many times.
TEST(EventQueue, PopsWhatABinaryHeapPopsAtEverySpread) {
  const machine::TimeNs spreads[] = {1000, 5000, 1 << 20, 1 << 24, 1 << 26, machine::TimeNs{1} << 40};
  for (std::uint32_t seed = 1; seed <= 12; ++seed)
    for (const machine::TimeNs spread : spreads) check_event_queue(seed * 131 + 7, spread, 50000);
}

// Events exactly on the edges of the ring: the last window it holds, the first it does not, and one a whole
// ring later, in the same slot as the current window.
TEST(EventQueue, TheRingsEdges) {
  const machine::TimeNs window = 1024, ring = window << 14;
  for (const machine::TimeNs base : std::initializer_list<machine::TimeNs>{0, machine::TimeNs{5} * window + 17, ring - 1, 3 * ring + 1000}) {
    EventQueue q;
    std::priority_queue<QueuedEvent, std::vector<QueuedEvent>, EventLater> oracle;
    auto push = [&](machine::TimeNs t, graph::VertexId v) {
      q.push({t, v, EventType::fire, 0});
      oracle.push({t, v, EventType::fire, 0});
    };
    push(base, 0);
    ASSERT_EQ(q.begin_instant(), base);
    for (const machine::TimeNs d : std::initializer_list<machine::TimeNs>{ring - window, ring - 1, ring, ring + 1, 2 * ring, window, 1, 0, ring + window})
      push(base + d, static_cast<graph::VertexId>(d % 97));
    while (!q.empty()) {
      ASSERT_EQ(q.next_time(), oracle.top().time());
      q.begin_instant();
      while (q.has_present()) {
        ASSERT_TRUE(same(q.pop(), oracle.top()));
        oracle.pop();
      }
    }
    EXPECT_TRUE(oracle.empty());
  }
}

TEST(EventQueue, HugeTimesAndDrain) {
  EventQueue q;
  const machine::TimeNs big = (machine::TimeNs{1} << 61) - 1;  // the latest time a QueuedEvent holds
  q.push({big, 1, EventType::fire, 0});
  q.push({0, 2, EventType::fire, 0});
  q.push({big - 1, 0, EventType::fire, 0});
  EXPECT_EQ(q.begin_instant(), 0);
  EXPECT_EQ(q.pop().vertex(), 2u);
  EXPECT_FALSE(q.has_present());
  EXPECT_EQ(q.begin_instant(), big - 1);
  EXPECT_EQ(q.pop().vertex(), 0u);
  EXPECT_EQ(q.begin_instant(), big);
  EXPECT_EQ(q.pop().vertex(), 1u);
  EXPECT_TRUE(q.empty());
}

// The packed key keeps every field whole over its full range, and orders like the fields compared in turn.
TEST(QueuedEvent, KeyOrdersLikeItsFields) {
  std::mt19937_64 rng(7);
  const machine::TimeNs ceiling = machine::TimeNs{1} << 60;  // core::kTimeCeilingNs: no held time is later
  auto field = [&](std::uint64_t top) { return rng() % 4 == 0 ? top : rng() % (top + 1); };
  auto random_event = [&] {
    return QueuedEvent{static_cast<machine::TimeNs>(field(static_cast<std::uint64_t>(ceiling))),
                       static_cast<graph::VertexId>(field(0xffffffffu)), static_cast<EventType>(rng() % 6),
                       static_cast<std::uint32_t>(field(0xffffffffu))};
  };
  for (int i = 0; i < 100000; ++i) {
    const QueuedEvent a = random_event(), b = rng() % 2 ? random_event() : a.at(a.time());
    EXPECT_EQ(a.before(b), std::tuple(a.time(), a.vertex(), a.type(), a.aux()) <
                               std::tuple(b.time(), b.vertex(), b.type(), b.aux()));
  }
  const QueuedEvent top{ceiling, 0xffffffffu, EventType::floor, 0xffffffffu};
  EXPECT_EQ(top.time(), ceiling);
  EXPECT_EQ(top.vertex(), 0xffffffffu);
  EXPECT_EQ(top.type(), EventType::floor);
  EXPECT_EQ(top.aux(), 0xffffffffu);
  // Out of range: held at the ends, never wrapped.
  EXPECT_EQ((QueuedEvent{-5, 1, EventType::fire, 0}.time()), 0);
  EXPECT_EQ((QueuedEvent{std::numeric_limits<machine::TimeNs>::max(), 1, EventType::fire, 0}.time()), QueuedEvent::kLatest);
  EXPECT_EQ((QueuedEvent{std::numeric_limits<machine::TimeNs>::min(), 7, EventType::ready, 3}.vertex()), 7u);
  const QueuedEvent zero{0, 0, EventType::fire, 0};
  EXPECT_TRUE(zero.before(top));
  EXPECT_EQ(zero.at(5).time(), 5);
  EXPECT_EQ(zero.at(5).type(), EventType::fire);
}

TEST(EventQueue, NothingIsScheduledBeforeThePresent) {
  EventQueue q;
  q.push({100, 1, EventType::fire, 0});
  EXPECT_EQ(q.begin_instant(), 100);
  q.pop();
  q.push({50, 2, EventType::ready, 0});  // held at the present
  q.push({-50, 3, EventType::ready, 0});  // so is a negative time
  ASSERT_TRUE(q.has_present());
  const QueuedEvent e = q.pop();
  EXPECT_EQ(e.time(), 100);
  EXPECT_EQ(e.vertex(), 2u);
  const QueuedEvent f = q.pop();
  EXPECT_EQ(f.time(), 100);
  EXPECT_EQ(f.vertex(), 3u);
}

struct SegmentLater {
  bool operator()(const WaitingSegment& a, const WaitingSegment& b) const { return b.before(a); }
};

// Mostly in-order arrivals (the FIFO path) mixed with out-of-order ones (the heap path), pops interleaved.
TEST(SegmentQueue, ServesWhatABinaryHeapServes) {
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    SegmentQueue q;
    std::priority_queue<WaitingSegment, std::vector<WaitingSegment>, SegmentLater> oracle;
    machine::TimeNs clock = 0;
    graph::VertexId next_vertex = 0;
    for (int step = 0; step < 30000; ++step) {
      if (rng() % 3 != 0 || oracle.empty()) {
        clock += static_cast<machine::TimeNs>(rng() % 3);
        const bool in_order = rng() % 8 != 0;
        const WaitingSegment s{.priority = in_order ? 0 : static_cast<std::int32_t>(rng() % 5) - 2,
                               .task_payload = static_cast<std::uint32_t>(step),
                               .order = in_order ? clock : clock - static_cast<machine::TimeNs>(rng() % 50),
                               .vertex = in_order ? next_vertex++ : static_cast<graph::VertexId>(1'000'000 + step)};
        q.push(s);
        oracle.push(s);
      } else {
        ASSERT_FALSE(q.empty());
        const WaitingSegment& a = q.top();
        const WaitingSegment& b = oracle.top();
        ASSERT_EQ(a.vertex, b.vertex) << "seed " << seed << " step " << step;
        ASSERT_EQ(a.order, b.order);
        ASSERT_EQ(a.priority, b.priority);
        ASSERT_EQ(a.task_payload, b.task_payload);
        q.pop();
        oracle.pop();
      }
      ASSERT_EQ(q.size(), oracle.size());
    }
    while (!oracle.empty()) {
      ASSERT_EQ(q.top().vertex, oracle.top().vertex);
      q.pop();
      oracle.pop();
    }
    EXPECT_TRUE(q.empty());
  }
}

}  // namespace
}  // namespace rr::replay
