// The queue a task's first segment waits in, by what decides it: the task's function and its traced processor
// (MachineMap::targets). A trace has few such pairs (1,248 on a 32-node S3D trace), so this table stays in the
// cache, where an array indexed by task would cost a cache miss for every task that becomes ready (and 4 bytes per
// task). Open addressing with linear probing (graph/open_addressing.hpp), at most half full.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/open_addressing.hpp"

namespace rr::replay {

class FirstSegmentQueues {
 public:
  static constexpr std::uint32_t kMissing = ~0u;

  // The queue of (func, processor), or kMissing.
  std::uint32_t find(std::uint32_t func, std::uint64_t processor) const {
    if (slots_.empty()) return kMissing;
    return const_cast<FirstSegmentQueues*>(this)->slot_of(func, processor).queue;
  }

  // Records the queue of a pair not recorded yet. queue != kMissing.
  void insert(std::uint32_t func, std::uint64_t processor, std::uint32_t queue) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    Slot& s = slot_of(func, processor);
    if (s.queue == kMissing) ++size_;
    s = {processor, func, queue};
  }

  std::size_t size() const { return size_; }

 private:
  struct Slot {
    std::uint64_t processor = 0;
    std::uint32_t func = 0;
    std::uint32_t queue = kMissing;
  };

  // Every bit of both mixed into the high ones, from which the probe starts: processor ids differ mostly in
  // their node bits.
  static std::uint64_t hash(std::uint32_t func, std::uint64_t processor) {
    std::uint64_t h = processor ^ (std::uint64_t{func} * 0x9e3779b97f4a7c15ull);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
  }

  // The pair's slot, or the empty one where it would go.
  Slot& slot_of(std::uint32_t func, std::uint64_t processor) {
    return graph::open_addressing::probe(slots_, hash(func, processor), [&](const Slot& s) {
      return s.queue == kMissing || (s.processor == processor && s.func == func);
    });
  }

  void grow() {
    const std::vector<Slot> old = graph::open_addressing::replace_slots(slots_, slots_.empty() ? 16 : slots_.size() * 2);
    size_ = 0;
    for (const Slot& s : old)
      if (s.queue != kMissing) insert(s.func, s.processor, s.queue);
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace rr::replay
