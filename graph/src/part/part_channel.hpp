// The exchanges of a graph built in parts (the 2015 logs' build and the Legion Prof logs' build alike): every
// message starts with whether its sender is still going; a rank that stops sends every other rank its error in
// place of its next message, so that no rank waits for it, and every rank stops at that exchange naming it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "graph/rank_exchange.hpp"

namespace rr::graph::part_detail {

class PartChannel {
 public:
  explicit PartChannel(RankExchange& exchange) : exchange_(exchange) {}
  std::uint32_t rank() const { return exchange_.rank(); }
  std::uint32_t ranks() const { return exchange_.ranks(); }
  // Sends each rank its message and returns each rank's, checking that no rank failed. This rank's own entry is
  // what it gave, unread here: a step keeps its own share as it is.
  std::vector<std::vector<std::byte>> exchange(std::vector<std::vector<std::byte>> to_each);
  // Tells every other rank why this one stopped, once.
  void send_failure(const std::string& what);
  std::uint64_t bytes_sent() const { return bytes_sent_; }

 private:
  RankExchange& exchange_;
  bool failure_sent_ = false;
  std::uint64_t bytes_sent_ = 0;
};

}  // namespace rr::graph::part_detail
