// The mail between the blocks of a split replay (replay/src/block_mail.hpp): a writer and a reader on two threads
// see every message once, in order, only once flushed, across many chunks; acknowledgements count what was taken
// in; the earliest unacknowledged time is that of a plain scan.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <thread>
#include <vector>

#include "replay/src/block_mail.hpp"

namespace rr::replay {
namespace {

TEST(MailQueue, OneWriterOneReaderInOrderAcrossChunks) {
  MailQueue q;
  constexpr std::uint32_t kCount = 100000;  // about a hundred chunks
  std::thread writer([&] {
    for (std::uint32_t i = 0; i < kCount; ++i) {
      q.send({static_cast<machine::TimeNs>(i) * 3, i, i + 1, i + 2, Mail::Kind::event});
      if (i % 97 == 0) q.flush();
    }
    q.flush();
  });
  std::uint32_t next = 0;
  while (next < kCount) {
    q.drain([&](const Mail& m) {
      ASSERT_EQ(m.a, next);
      ASSERT_EQ(m.time, static_cast<machine::TimeNs>(next) * 3);
      ASSERT_EQ(m.c, next + 2);
      ++next;
    });
    q.acknowledge();
  }
  writer.join();
  EXPECT_EQ(q.taken(), kCount);
  EXPECT_EQ(q.acknowledged(), kCount);
  EXPECT_EQ(q.written(), kCount);
  EXPECT_FALSE(q.drain([](const Mail&) {}));
}

TEST(MailQueue, NothingIsSeenBeforeItIsFlushed) {
  MailQueue q;
  q.send({5, 1, 2, 3, Mail::Kind::contribute});
  int seen = 0;
  EXPECT_FALSE(q.drain([&](const Mail&) { ++seen; }));
  EXPECT_EQ(q.sent(), 1u);
  EXPECT_EQ(q.written(), 0u);
  q.flush();
  EXPECT_TRUE(q.drain([&](const Mail&) { ++seen; }));
  EXPECT_EQ(seen, 1);
  EXPECT_EQ(q.acknowledged(), 0u);  // taken in, not yet acknowledged
  q.acknowledge();
  EXPECT_EQ(q.acknowledged(), 1u);
}

TEST(UnackedTimes, EarliestIsTheMinimumOfWhatIsNotAcknowledged) {
  std::mt19937_64 rng(11);
  UnackedTimes u;
  std::vector<machine::TimeNs> sent;
  std::uint64_t acked = 0;
  for (int step = 0; step < 20000; ++step) {
    if (rng() % 3 != 0) {
      const auto t = static_cast<machine::TimeNs>(rng() % 1000);
      u.sent(sent.size(), t);
      sent.push_back(t);
    } else {
      acked = std::min<std::uint64_t>(sent.size(), acked + rng() % 4);
    }
    const machine::TimeNs scan =
        acked == sent.size() ? kNoTime : *std::min_element(sent.begin() + static_cast<std::ptrdiff_t>(acked), sent.end());
    ASSERT_EQ(u.earliest(acked), scan) << "step " << step;
  }
}

}  // namespace
}  // namespace rr::replay
