#include "session/src/over_ranks.hpp"

#include <array>
#include <vector>

#include "replay/network_sums.hpp"

namespace rr::session {

using replay::Combine;
using replay::combine_over_ranks;

OverRanks agree_over_ranks(replay::BlockNetwork& net, bool ok, std::int64_t value, const std::string& error) {
  const std::array<std::int64_t, 2> mine{ok ? 0 : 1, ok ? value : 0};
  const std::vector<std::int64_t> all = combine_over_ranks(net, mine, Combine::max);
  OverRanks out{all[0] == 0, all[1], {}};
  if (out.everyone) return out;
  // The lowest failing rank (the largest ranks - rank), and how long its error is; then its error's characters.
  const std::int64_t ranks = net.ranks(), me = net.rank();
  const std::array<std::int64_t, 1> lowest_mine{ok ? 0 : ranks - me};
  const std::int64_t lowest = ranks - combine_over_ranks(net, lowest_mine, Combine::max)[0];
  const std::array<std::int64_t, 1> length_mine{me == lowest ? static_cast<std::int64_t>(error.size()) : 0};
  const std::int64_t length = combine_over_ranks(net, length_mine, Combine::max)[0];
  std::vector<std::int64_t> text(static_cast<std::size_t>(length), 0);
  if (me == lowest)
    for (std::size_t i = 0; i < text.size(); ++i) text[i] = static_cast<unsigned char>(error[i]);
  std::string said;
  for (const std::int64_t c : combine_over_ranks(net, text, Combine::sum)) said.push_back(static_cast<char>(c));
  out.error = "rank " + std::to_string(lowest) + " of " + std::to_string(ranks) + ": " +
              (said.empty() ? std::string("failed") : said);
  return out;
}

}  // namespace rr::session
