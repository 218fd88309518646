// FirstSegmentQueues against std::map: pairs that differ only in the function, only in the processor's node bits
// (how processor ids differ across nodes) or only in its low bits, through several growths.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <utility>

#include "replay/first_segment_queues.hpp"

namespace rr::replay {
namespace {

TEST(FirstSegmentQueues, FindsWhatWasInsertedAndNothingElse) {
  FirstSegmentQueues table;
  EXPECT_EQ(table.find(3, 0x1d00000000000003ull), FirstSegmentQueues::kMissing);  // empty
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint32_t> oracle;
  std::mt19937_64 rng(11);
  std::uint32_t next_queue = 0;
  for (int i = 0; i < 20000; ++i) {
    const auto func = static_cast<std::uint32_t>(rng() % 64);
    const std::uint64_t node = rng() % 1024, local = rng() % 32;
    const std::uint64_t processor = 0x1d00000000000000ull | node << 40 | local;
    const auto [it, fresh] = oracle.try_emplace({func, processor}, next_queue);
    if (fresh) {
      ASSERT_EQ(table.find(func, processor), FirstSegmentQueues::kMissing);
      table.insert(func, processor, next_queue++);
    }
    ASSERT_EQ(table.find(func, processor), it->second);
  }
  EXPECT_EQ(table.size(), oracle.size());
  for (const auto& [key, queue] : oracle) EXPECT_EQ(table.find(key.first, key.second), queue);
  // Neighbours of recorded pairs that were never recorded.
  EXPECT_EQ(table.find(64, 0x1d00000000000000ull), FirstSegmentQueues::kMissing);
  EXPECT_EQ(table.find(0, 0x1d00000000000000ull | std::uint64_t{1024} << 40), FirstSegmentQueues::kMissing);
  EXPECT_EQ(table.find(0, 0x1d00000000000000ull | 32), FirstSegmentQueues::kMissing);
}

// Many functions on one processor: nearly every probe passes slots of the same processor, so a lookup that looked
// at the processor alone would find another function's queue.
TEST(FirstSegmentQueues, TellsApartFunctionsOnOneProcessor) {
  FirstSegmentQueues table;
  constexpr std::uint64_t kProcessor = 0x1d00030000000005ull;
  for (std::uint32_t func = 0; func < 1000; ++func) {
    ASSERT_EQ(table.find(func, kProcessor), FirstSegmentQueues::kMissing) << func;
    table.insert(func, kProcessor, 5000 + func);
  }
  for (std::uint32_t func = 0; func < 1000; ++func) EXPECT_EQ(table.find(func, kProcessor), 5000 + func);
  EXPECT_EQ(table.find(1000, kProcessor), FirstSegmentQueues::kMissing);
}

}  // namespace
}  // namespace rr::replay
