// An open-addressing hash table from EventKey to a dense 32-bit value: 16 bytes a slot, no per-entry allocation.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "graph/ir/ids.hpp"

namespace rr::graph {

class EventTable {
 public:
  static constexpr std::uint32_t kMissing = 0xffffffffu;

  // Sized for `expected` keys at a load factor of at most 1/2.
  explicit EventTable(std::size_t expected = 0) { reserve(expected); }

  void reserve(std::size_t expected) {
    std::size_t capacity = 16;
    while (capacity < expected * 2) capacity <<= 1;
    if (capacity <= slots_.size()) return;
    rehash(capacity);
  }

  // Inserts key -> value if the key is absent; returns the value now stored for the key.
  std::uint32_t insert(const ir::EventKey& key, std::uint32_t value) {
    if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
    Slot& s = find_slot(key);
    if (s.value == kMissing) {
      s.key = key;
      s.value = value;
      ++size_;
    }
    return s.value;
  }

  std::uint32_t find(const ir::EventKey& key) const {
    if (slots_.empty()) return kMissing;
    return const_cast<EventTable*>(this)->find_slot(key).value;
  }

  std::size_t size() const { return size_; }
  std::size_t bytes() const { return slots_.capacity() * sizeof(Slot); }

 private:
  struct Slot {
    ir::EventKey key;
    std::uint32_t value = kMissing;
  };
  static_assert(sizeof(Slot) == 16);

  Slot& find_slot(const ir::EventKey& key) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = std::hash<ir::EventKey>{}(key) & mask;
    for (;;) {
      Slot& s = slots_[i];
      if (s.value == kMissing || s.key == key) return s;
      i = (i + 1) & mask;
    }
  }

  void rehash(std::size_t capacity) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(capacity, Slot{});
    size_ = 0;
    for (const Slot& s : old)
      if (s.value != kMissing) insert(s.key, s.value);
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace rr::graph
