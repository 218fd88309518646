// The graph's exchanges between ranks (graph/rank_exchange.hpp) over the network of a replay over ranks
// (replay/block_network.hpp), so that a rank builds its part of the graph (graph/graph_part.hpp) on the network it
// then replays on. Messages of one call are told apart from the next by order alone: what one rank sends another
// arrives in the order sent, so a rank that has gone on to its next call cannot overtake its own message of this one.
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

#include "graph/rank_exchange.hpp"
#include "replay/block_network.hpp"

namespace rr::replay {

class NetworkRankExchange final : public graph::RankExchange {
 public:
  explicit NetworkRankExchange(BlockNetwork& network) : network_(network), early_(network.ranks()) {}
  std::uint32_t ranks() const override { return network_.ranks(); }
  std::uint32_t rank() const override { return network_.rank(); }
  std::vector<std::vector<std::byte>> all_to_all(std::vector<std::vector<std::byte>> to_each) override;
  void send_to_all(const std::vector<std::byte>& bytes) override;
  // (Its replay's first messages, RankExchange::take_early.)
  std::vector<std::deque<std::vector<std::byte>>> take_early() override { return std::move(early_); }

 private:
  BlockNetwork& network_;
  std::vector<std::deque<std::vector<std::byte>>> early_;  // by sender: come before this rank asked for them
};

}  // namespace rr::replay
