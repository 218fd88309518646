// Sums by processor over one batch's Task Times (core::FileTimingTally). A batch names a few hundred processors
// over and over, so a direct-mapped front of 256 slots takes most records with one multiply and a compare; a
// slot that another processor needs is first flushed into a hash map.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/saturating.hpp"

namespace rr::graph::build_detail {

class TargetSums {
 public:
  void add(std::uint64_t target, std::uint64_t amount) {
    Slot& s = slots_[(target * 0x9e3779b97f4a7c15ull) >> 56];
    if (s.used && s.target != target) flush(s);
    if (!s.used) s = {target, 0, true};
    s.sum = core::saturating_sum(s.sum, amount);
  }

  // Everything added, one entry per target, ascending by target; the sums start again from nothing.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> take_sorted() {
    for (Slot& s : slots_)
      if (s.used) flush(s);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> sums(spilled_.begin(), spilled_.end());
    std::sort(sums.begin(), sums.end());
    spilled_.clear();
    return sums;
  }

 private:
  struct Slot {
    std::uint64_t target = 0;
    std::uint64_t sum = 0;
    bool used = false;
  };
  void flush(Slot& s) {
    std::uint64_t& spilled = spilled_[s.target];
    spilled = core::saturating_sum(spilled, s.sum);
    s = {};
  }
  std::array<Slot, 256> slots_{};
  std::unordered_map<std::uint64_t, std::uint64_t> spilled_;
};

}  // namespace rr::graph::build_detail
