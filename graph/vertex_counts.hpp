// A count per vertex in 2 bytes (how many inputs a vertex still waits for, in the replay and in longest paths).
// Nearly every vertex has a few inputs; the rare one with 65,535 or more (a merge of a huge index launch) keeps
// its count whole in a side table.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "graph/event_graph.hpp"

namespace rr::graph {

class VertexCounts {
 public:
  void reset(std::size_t n) {
    narrow_.assign(n, 0);
    wide_.clear();
  }
  void release() {
    narrow_ = {};
    wide_ = {};
  }

  std::uint32_t get(VertexId v) const { return narrow_[v] != kWide ? narrow_[v] : wide(v); }
  void set(VertexId v, std::uint32_t count) {
    if (count < kWide) {
      if (narrow_[v] == kWide) {
        const std::lock_guard lock(wide_mutex());
        wide_.erase(v);
      }
      narrow_[v] = static_cast<std::uint16_t>(count);
    } else {
      narrow_[v] = kWide;
      const std::lock_guard lock(wide_mutex());
      wide_[v] = count;
    }
  }
  void add_one(VertexId v) {
    if (narrow_[v] < kWide - 1) ++narrow_[v];
    else set(v, get(v) + 1);
  }
  // One less for v (whose count is not 0): the count left.
  std::uint32_t take_one(VertexId v) {
    if (narrow_[v] != kWide) return --narrow_[v];
    const std::uint32_t left = get(v) - 1;
    set(v, left);
    return left;
  }

 private:
  static constexpr std::uint16_t kWide = 0xFFFF;  // the count is in wide_
  // Threads that each count their own vertices (one replay on several threads) share the side table: the rare
  // count that needs it takes a lock.
  static std::mutex& wide_mutex() {
    static std::mutex m;
    return m;
  }
  [[gnu::noinline]] std::uint32_t wide(VertexId v) const {
    const std::lock_guard lock(wide_mutex());
    return wide_.at(v);
  }
  std::vector<std::uint16_t> narrow_;
  std::unordered_map<VertexId, std::uint32_t> wide_;
};

}  // namespace rr::graph
