// The queue a task's first segment waits in, by what decides it: the task's function and its traced processor
// (MachineMap::targets). A trace has few such pairs (1,248 on a 32-node S3D trace), so this table stays in the
// cache, where an array indexed by task would cost a cache miss for every task that becomes ready (and 4 bytes per
// task). Open addressing with linear probing, at most half full.
#pragma once

#include <cstdint>
#include <vector>

namespace rr::replay {

class FirstSegmentQueues {
 public:
  static constexpr std::uint32_t kMissing = ~0u;

  // The queue of (func, processor), or kMissing.
  std::uint32_t find(std::uint32_t func, std::uint64_t processor) const {
    if (slots_.empty()) return kMissing;
    return slots_[slot_of(func, processor)].queue;
  }

  // Records the queue of a pair not recorded yet. queue != kMissing.
  void insert(std::uint32_t func, std::uint64_t processor, std::uint32_t queue) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    Slot& s = slots_[slot_of(func, processor)];
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

  // The pair's slot, or the empty one where it would go.
  std::size_t slot_of(std::uint32_t func, std::uint64_t processor) const {
    // Every bit of both mixed into the low ones: processor ids differ mostly in their high (node) bits.
    std::uint64_t h = processor ^ (std::uint64_t{func} * 0x9e3779b97f4a7c15ull);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    const std::size_t mask = slots_.size() - 1;  // a power of two
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.queue == kMissing || (s.processor == processor && s.func == func)) return i;
    }
  }

  void grow() {
    std::vector<Slot> old(slots_.empty() ? 16 : slots_.size() * 2);
    old.swap(slots_);
    size_ = 0;
    for (const Slot& s : old)
      if (s.queue != kMissing) insert(s.func, s.processor, s.queue);
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace rr::replay
