#include "replay/part_exchange.hpp"

#include <stdexcept>
#include <utility>

namespace rr::replay {

std::vector<std::vector<std::byte>> NetworkRankExchange::all_to_all(std::vector<std::vector<std::byte>> to_each) {
  const std::uint32_t ranks = network_.ranks(), me = network_.rank();
  if (to_each.size() != ranks) throw std::invalid_argument("all_to_all: one message per rank");
  std::vector<std::vector<std::byte>> from_each(ranks);
  from_each[me] = std::move(to_each[me]);
  for (std::uint32_t r = 0; r < ranks; ++r)
    if (r != me) network_.send(r, std::move(to_each[r]));
  std::vector<char> have(ranks, 0);
  have[me] = 1;
  std::uint32_t missing = ranks - 1;
  // A sender's earlier message counts for this call before anything it sends later.
  for (std::uint32_t r = 0; r < ranks; ++r)
    if (r != me && !early_[r].empty()) {
      from_each[r] = std::move(early_[r].front());
      early_[r].pop_front();
      have[r] = 1;
      --missing;
    }
  while (missing > 0) {
    std::optional<BlockNetwork::Message> m = network_.receive(true);
    if (!m) continue;
    if (have[m->from]) {
      early_[m->from].push_back(std::move(m->bytes));
      continue;
    }
    from_each[m->from] = std::move(m->bytes);
    have[m->from] = 1;
    --missing;
  }
  return from_each;
}

void NetworkRankExchange::send_to_all(const std::vector<std::byte>& bytes) {
  for (std::uint32_t r = 0; r < network_.ranks(); ++r)
    if (r != network_.rank()) network_.send(r, bytes);
}

}  // namespace rr::replay
