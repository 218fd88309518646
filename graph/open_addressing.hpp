// The parts an open-addressing hash table with linear probing is made of, shared by the graph's tables
// (EventTable, the build's ProducerTable): where a hash starts, the probe, and fresh slots on huge pages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "platform/huge_pages.hpp"

namespace rr::graph::open_addressing {

// The slot a hash starts at, from its high bits ("fastrange"), so the capacity need not be a power of two.
inline std::size_t home(std::uint64_t hash, std::size_t capacity) {
  __extension__ using Wide = unsigned __int128;
  return static_cast<std::size_t>((static_cast<Wide>(hash) * capacity) >> 64);
}

// The first slot from `hash`'s home on, wrapping around, where `stop` holds (an empty slot or the key's own).
template <class Slot, class Stop>
Slot& probe(std::vector<Slot>& slots, std::uint64_t hash, Stop&& stop) {
  const std::size_t capacity = slots.size();
  for (std::size_t i = home(hash, capacity);;) {
    Slot& s = slots[i];
    if (stop(s)) return s;
    if (++i == capacity) i = 0;
  }
}

// Replaces `slots` by `capacity` empty ones (on huge pages where the kernel can); returns the old ones to reinsert.
template <class Slot>
std::vector<Slot> replace_slots(std::vector<Slot>& slots, std::size_t capacity) {
  std::vector<Slot> old;
  old.swap(slots);
  platform::reserve_on_huge_pages(slots, capacity);
  slots.assign(capacity, Slot{});
  return old;
}

}  // namespace rr::graph::open_addressing
