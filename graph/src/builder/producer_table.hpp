// The event -> producer table of the graph build, in 8 bytes a slot: a slot keeps the producing vertex and 32 bits
// of its event's hash, and the event itself is read from the vertex table, which already holds it. EventTable's
// slots carry the 12-byte key and take 16 bytes; this table is alive at the build's memory peak, where the
// difference is 36 MB on a 7.6 M-record trace. A lookup compares hash bits first, so only a likely match reads the
// vertex's event: a hit costs one extra load, a miss almost never does.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/ids.hpp"
#include "graph/event_graph.hpp"
#include "graph/open_addressing.hpp"
#include "platform/freed_memory.hpp"

namespace rr::graph::build_detail {

class ProducerTable {
 public:
  static constexpr VertexId kMissing = kNoVertex;

  // `events` is the vertex table's event array; it must outlive the table and keep its producers' entries.
  explicit ProducerTable(const std::vector<core::EventKey>& events) : events_(&events) {}

  // Sized for `expected` producers at a load factor of at most 0.8 (about three slots per hit with linear probing).
  void reserve(std::size_t expected) {
    const std::size_t capacity = std::max<std::size_t>(16, expected + expected / 4 + 1);
    if (capacity > slots_.size()) rehash(capacity);
  }

  // Registers v as the producer of its event unless the event has one; returns the producer now registered.
  VertexId insert(VertexId v) { return insert(v, hash((*events_)[v])); }
  // The same, given hash() of v's event.
  VertexId insert(VertexId v, std::uint64_t h) {
    if ((size_ + 1) * 5 > slots_.size() * 4) rehash(std::max<std::size_t>(16, slots_.size() * 2));
    Slot& s = find_slot((*events_)[v], h);
    if (s.vertex == kMissing) {
      s = {tag(h), v};
      ++size_;
    }
    return s.vertex;
  }

  VertexId find(const core::EventKey& key) const {
    if (slots_.empty()) return kMissing;
    return const_cast<ProducerTable*>(this)->find_slot(key, hash(key)).vertex;
  }

  // Frees the slots; returns the bytes they held.
  std::size_t release() {
    size_ = 0;
    return platform::free_array(slots_);
  }

  // Starts loading the slot a later lookup of `key` looks at first (lookups of random keys miss the cache).
  void prefetch(const core::EventKey& key) const { prefetch_hashed(hash(key)); }
  void prefetch_hashed(std::uint64_t h) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[open_addressing::home(h, slots_.size())]);
  }

  static std::uint64_t hash(const core::EventKey& key) { return std::hash<core::EventKey>{}(key); }

 private:
  struct Slot {
    std::uint32_t tag = 0;
    VertexId vertex = kMissing;
  };
  static_assert(sizeof(Slot) == 8);

  static std::uint32_t tag(std::uint64_t h) { return static_cast<std::uint32_t>(h); }

  Slot& find_slot(const core::EventKey& key, std::uint64_t h) {
    const std::uint32_t t = tag(h);
    return open_addressing::probe(slots_, h, [&](const Slot& s) {
      return s.vertex == kMissing || (s.tag == t && (*events_)[s.vertex] == key);
    });
  }

  void rehash(std::size_t capacity) {
    const std::vector<Slot> old = open_addressing::replace_slots(slots_, capacity);
    size_ = 0;
    for (const Slot& s : old)
      if (s.vertex != kMissing) insert(s.vertex);
  }

  const std::vector<core::EventKey>* events_;
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

// ProducerTables chosen by the event's hash, so that one thread per part can fill them at once. The number of
// parts is fixed, so what the table holds does not depend on the thread count.
class PartitionedProducerTable {
 public:
  static constexpr std::size_t kParts = 8;
  static std::size_t part_of(const core::EventKey& key) { return part_of_hash(ProducerTable::hash(key)); }
  static std::size_t part_of_hash(std::uint64_t h) { return h % kParts; }

  explicit PartitionedProducerTable(const std::vector<core::EventKey>& events)
      : parts_{ProducerTable(events), ProducerTable(events), ProducerTable(events), ProducerTable(events),
               ProducerTable(events), ProducerTable(events), ProducerTable(events), ProducerTable(events)} {}

  ProducerTable& part(std::size_t i) { return parts_[i]; }
  VertexId find(const core::EventKey& key) const { return parts_[part_of(key)].find(key); }
  void prefetch(const core::EventKey& key) const { parts_[part_of(key)].prefetch(key); }
  // Frees every part (the table is not needed once references are resolved); returns the bytes they held.
  std::size_t release() {
    std::size_t bytes = 0;
    for (ProducerTable& p : parts_) bytes += p.release();
    return bytes;
  }

 private:
  static_assert(kParts == 8, "the constructor names every part");
  std::array<ProducerTable, kParts> parts_;
};

}  // namespace rr::graph::build_detail
