// What a graph build split over ranks (graph/graph_part.hpp) needs of the ranks' network: exchanges in which every
// rank sends every other rank one message. The graph knows no MPI: replay/part_exchange.hpp runs the exchanges over
// a replay::BlockNetwork, the network a replay over ranks already uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rr::graph {

class RankExchange {
 public:
  virtual ~RankExchange() = default;
  virtual std::uint32_t ranks() const = 0;
  virtual std::uint32_t rank() const = 0;
  // Every rank makes the same number of calls. Sends to_each[r] to each other rank r and returns, by sender, what
  // every rank sent this one in the same call (this rank's own entry is to_each[rank()]). Waits for all of them.
  virtual std::vector<std::vector<std::byte>> all_to_all(std::vector<std::vector<std::byte>> to_each) = 0;
  // Sends every other rank `bytes` in place of this rank's next all_to_all message, and does not wait: what a rank
  // that stops says, so that no other rank waits for it.
  virtual void send_to_all(const std::vector<std::byte>& bytes) = 0;
};

}  // namespace rr::graph
