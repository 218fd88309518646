// The build's producer table (8-byte slots: hash bits and vertex; the key is read from the events array) against
// std::unordered_map, with keys whose hash bits collide, repeated producers and lookups of absent events.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

#include "graph/src/builder/producer_table.hpp"

namespace rr::graph::build_detail {
namespace {

using core::EventKey;

// Two different events whose hashes agree in the 32 bits a slot keeps and in the top 4, which place a key in a
// table of 16 slots: there, each probes the other's slot (found by the birthday bound, about 2^18 keys).
std::pair<EventKey, EventKey> keys_with_equal_tags() {
  std::unordered_map<std::uint64_t, EventKey> seen;
  for (std::uint64_t id = 1;; ++id) {
    const EventKey k = EventKey::make(id, 1);
    const std::uint64_t h = std::hash<EventKey>{}(k);
    auto [it, fresh] = seen.try_emplace((h >> 60) << 32 | (h & 0xffffffffu), k);
    if (!fresh) return {it->second, k};
  }
}

TEST(ProducerTable, TellsApartEventsWhoseHashBitsAndSlotAgree) {
  const auto [a, b] = keys_with_equal_tags();
  ASSERT_FALSE(a == b);
  const std::vector<EventKey> events{a, b};
  ProducerTable table(events);  // 16 slots
  EXPECT_EQ(table.insert(0), 0u);
  EXPECT_EQ(table.insert(1), 1u);
  EXPECT_EQ(table.find(a), 0u);
  EXPECT_EQ(table.find(b), 1u);
}

TEST(ProducerTable, MatchesAMapWithRepeatsAbsentKeysAndCollidingHashBits) {
  const auto [a, b] = keys_with_equal_tags();
  ASSERT_FALSE(a == b);
  std::mt19937_64 rng(3);
  std::vector<EventKey> events;
  for (int i = 0; i < 20000; ++i) events.push_back(EventKey::make(rng() % 5000 + 1, static_cast<std::uint32_t>(rng() % 3)));
  events.push_back(a);
  events.push_back(b);
  events.push_back(a);  // a repeated producer: the first stays
  for (std::size_t parts : {1u, 0u}) {  // one table, then the partitioned one
    std::unordered_map<EventKey, VertexId> oracle;
    ProducerTable one(events);
    PartitionedProducerTable many(events);
    if (parts == 1) one.reserve(100);  // it must grow past its first size
    for (VertexId v = 0; v < events.size(); ++v) {
      const VertexId expected = oracle.try_emplace(events[v], v).first->second;
      const VertexId got = parts == 1 ? one.insert(v)
                                      : many.part(PartitionedProducerTable::part_of(events[v])).insert(v);
      ASSERT_EQ(got, expected) << "vertex " << v;
    }
    auto find = [&](const EventKey& k) { return parts == 1 ? one.find(k) : many.find(k); };
    for (const auto& [key, v] : oracle) EXPECT_EQ(find(key), v);
    EXPECT_EQ(find(a), events.size() - 3);
    EXPECT_EQ(find(b), events.size() - 2);
    for (std::uint64_t id = 6000; id < 7000; ++id) EXPECT_EQ(find(EventKey::make(id, 0)), ProducerTable::kMissing);
  }
}

TEST(ProducerTable, AReleasedTableFindsNothing) {
  const std::vector<EventKey> events{EventKey::make(1, 0), EventKey::make(2, 0)};
  PartitionedProducerTable table(events);
  for (VertexId v = 0; v < events.size(); ++v) table.part(PartitionedProducerTable::part_of(events[v])).insert(v);
  EXPECT_EQ(table.find(events[1]), 1u);
  EXPECT_GT(table.release(), 0u);
  EXPECT_EQ(table.find(events[1]), ProducerTable::kMissing);
}

}  // namespace
}  // namespace rr::graph::build_detail
