// The exchanges of a replay from parts before its first event (docs/scale.md, "The replay from parts"): every rank
// sends every other one message per round over the graph's RankExchange, each opening with whether its sender is
// still going. A rank that fails sends its error in place of its next message, so that no other rank waits for it:
// they stop at that round, naming it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/rank_exchange.hpp"

namespace rr::replay {

class PartRounds {
 public:
  explicit PartRounds(graph::RankExchange& exchange) : exchange_(exchange) {}
  std::uint32_t ranks() const { return exchange_.ranks(); }
  std::uint32_t rank() const { return exchange_.rank(); }

  // Sends to_each[r] to each other rank r; what each sent this one, its first byte taken off (this rank's own
  // entry as given). std::runtime_error naming the rank that stopped, if one did.
  std::vector<std::vector<std::byte>> exchange(std::vector<std::vector<std::byte>> to_each) {
    for (std::uint32_t r = 0; r < to_each.size(); ++r)
      if (r != rank()) to_each[r].insert(to_each[r].begin(), kGoing);
    std::vector<std::vector<std::byte>> from_each = exchange_.all_to_all(std::move(to_each));
    for (std::uint32_t r = 0; r < from_each.size(); ++r) {
      if (r == rank()) continue;
      std::vector<std::byte>& bytes = from_each[r];
      if (bytes.empty()) throw std::logic_error("replay from parts: rank " + std::to_string(r) + " sent nothing");
      if (bytes.front() == kFailed) {
        told_ = true;  // the rank that failed told every rank itself
        throw std::runtime_error("rank " + std::to_string(r) + " of " + std::to_string(ranks()) +
                                 " stopped before the replay from parts began: " +
                                 std::string(reinterpret_cast<const char*>(bytes.data() + 1), bytes.size() - 1));
      }
      bytes.erase(bytes.begin());
    }
    return from_each;
  }

  // This rank stops: every other rank learns why at its next round (once, and not when another rank stopped first).
  void fail(const std::string& why) {
    if (told_) return;
    told_ = true;
    std::vector<std::byte> bytes(why.size() + 1);
    bytes[0] = kFailed;
    std::memcpy(bytes.data() + 1, why.data(), why.size());
    exchange_.send_to_all(bytes);
  }

 private:
  static constexpr std::byte kGoing{0}, kFailed{1};
  graph::RankExchange& exchange_;
  bool told_ = false;
};

}  // namespace rr::replay
