// The graph's exchanges between ranks (graph/rank_exchange.hpp) over the network of a replay over ranks
// (replay/block_network.hpp), so that a rank builds its part of the graph (graph/graph_part.hpp) on the network it
// then replays on, and replays from its part again and again (the what-ifs) on the same network.
//
// Each message is marked as an exchange's and numbered by its call. What one rank sends another arrives in the
// order sent, but a rank that has gone on (to its replay, or to the next replay's exchanges) may send while this
// one still waits in an earlier stage: every stage therefore keeps what is not its own in the network's `kept`, by
// kind, for the stage it belongs to. A message of a call this rank has already passed is dropped: a rank that
// stopped sends its error in place of its message of a call (send_to_all) and takes in none of that call's
// messages, which would otherwise be read as its next call's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "graph/rank_exchange.hpp"
#include "replay/block_network.hpp"

namespace rr::replay {

class NetworkRankExchange final : public graph::RankExchange {
 public:
  explicit NetworkRankExchange(BlockNetwork& network) : network_(network) {}
  std::uint32_t ranks() const override { return network_.ranks(); }
  std::uint32_t rank() const override { return network_.rank(); }
  std::vector<std::vector<std::byte>> all_to_all(std::vector<std::vector<std::byte>> to_each) override;
  // Counts as this rank's next call: every rank's count stays the same.
  void send_to_all(const std::vector<std::byte>& bytes) override;

 private:
  BlockNetwork& network_;
  std::uint64_t calls_ = 0;  // all_to_all and send_to_all calls made so far
};

}  // namespace rr::replay
