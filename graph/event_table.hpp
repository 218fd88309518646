// An open-addressing hash table from EventKey to a dense 32-bit value: 16 bytes a slot, no per-entry
// allocation. Lookups of a built table may run from many threads at once; inserts are single-threaded.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/ids.hpp"
#include "graph/open_addressing.hpp"

namespace rr::graph {

class EventTable {
 public:
  static constexpr std::uint32_t kMissing = 0xffffffffu;

  // Sized for `expected` keys at a load factor of at most 0.8. Lookups are mostly hits, which linear
  // probing answers in about three slots at that load (a cache line or two).
  explicit EventTable(std::size_t expected = 0) { reserve(expected); }

  void reserve(std::size_t expected) {
    const std::size_t capacity = std::max<std::size_t>(16, expected + expected / 4 + 1);
    if (capacity <= slots_.size()) return;
    rehash(capacity);
  }

  // Inserts key -> value if the key is absent; returns the value now stored for the key.
  std::uint32_t insert(const core::EventKey& key, std::uint32_t value) {
    if ((size_ + 1) * 5 > slots_.size() * 4) rehash(slots_.size() * 2);
    Slot& s = find_slot(key);
    if (s.value == kMissing) {
      s.key = key;
      s.value = value;
      ++size_;
    }
    return s.value;
  }

  std::uint32_t find(const core::EventKey& key) const {
    if (slots_.empty()) return kMissing;
    return const_cast<EventTable*>(this)->find_slot(key).value;
  }

  std::size_t size() const { return size_; }

 private:
  struct Slot {
    core::EventKey key;
    std::uint32_t value = kMissing;
  };
  static_assert(sizeof(Slot) == 16);

  static std::uint64_t hash(const core::EventKey& key) { return std::hash<core::EventKey>{}(key); }

  Slot& find_slot(const core::EventKey& key) {
    return open_addressing::probe(slots_, hash(key), [&](const Slot& s) { return s.value == kMissing || s.key == key; });
  }

  void rehash(std::size_t capacity) {
    const std::vector<Slot> old = open_addressing::replace_slots(slots_, capacity);
    size_ = 0;
    for (const Slot& s : old)
      if (s.value != kMissing) insert(s.key, s.value);
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace rr::graph
