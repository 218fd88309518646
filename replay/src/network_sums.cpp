#include "replay/network_sums.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "replay/byte_wire.hpp"
#include "replay/src/network_pump.hpp"

namespace rr::replay {

std::vector<std::int64_t> combine_over_ranks(BlockNetwork& net, std::span<const std::int64_t> mine, Combine how) {
  std::vector<std::int64_t> out(mine.begin(), mine.end());
  if (net.ranks() < 2) return out;
  ByteWriter w;
  w.put(WireKind::sums);
  w.put_all<std::int64_t>(mine);
  const std::vector<std::byte> bytes = w.take();
  for (std::uint32_t x = 0; x < net.ranks(); ++x)
    if (x != net.rank()) net.send(x, bytes);
  Inbox inbox(net);
  std::vector<char> heard(net.ranks(), 0);
  std::vector<BlockNetwork::Message> later;  // a fast rank's message for the next call
  for (std::uint32_t missing = net.ranks() - 1; missing > 0;) {
    auto m = inbox.next(WireKind::sums, true);
    if (heard[m->from]) {
      later.push_back(std::move(*m));
      continue;
    }
    heard[m->from] = 1;
    --missing;
    ByteReader in(m->bytes);
    in.get<WireKind>();
    const std::vector<std::int64_t> theirs = in.get_all<std::int64_t>();
    if (theirs.size() != out.size())
      throw std::logic_error("replay over ranks: rank " + std::to_string(m->from) + " combined " +
                             std::to_string(theirs.size()) + " values, this rank " + std::to_string(out.size()));
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = how == Combine::sum ? out[i] + theirs[i] : std::max(out[i], theirs[i]);
  }
  auto& kept = net.kept[static_cast<std::size_t>(WireKind::sums)];
  kept.insert(kept.begin(), std::make_move_iterator(later.begin()), std::make_move_iterator(later.end()));
  return out;
}

std::vector<std::vector<std::byte>> gather_on_first_rank(BlockNetwork& net, std::vector<std::byte> mine) {
  std::vector<std::vector<std::byte>> out(net.ranks());
  if (net.rank() != 0) {
    ByteWriter w;
    w.put(WireKind::sums);
    w.put_all<std::byte>(mine);
    net.send(0, w.take());
    return {};
  }
  out[0] = std::move(mine);
  Inbox inbox(net);
  std::vector<char> heard(net.ranks(), 0);
  std::vector<BlockNetwork::Message> later;  // a rank's message for a later call (combine_over_ranks)
  for (std::uint32_t missing = net.ranks() - 1; missing > 0;) {
    auto m = inbox.next(WireKind::sums, true);
    if (heard[m->from]) {
      later.push_back(std::move(*m));
      continue;
    }
    heard[m->from] = 1;
    --missing;
    ByteReader in(m->bytes);
    in.get<WireKind>();
    out[m->from] = in.get_all<std::byte>();
  }
  auto& kept = net.kept[static_cast<std::size_t>(WireKind::sums)];
  kept.insert(kept.begin(), std::make_move_iterator(later.begin()), std::make_move_iterator(later.end()));
  return out;
}

std::optional<std::uint64_t> median_over_ranks(BlockNetwork& net, std::vector<std::uint64_t> mine) {
  std::sort(mine.begin(), mine.end());
  const std::array<std::int64_t, 1> own{static_cast<std::int64_t>(mine.size())};
  const std::int64_t n = combine_over_ranks(net, own, Combine::sum)[0];
  if (n == 0) return std::nullopt;
  // The smallest value v that more than n/2 values are at or below: lo..hi always holds it.
  std::uint64_t lo = 0, hi = std::numeric_limits<std::uint64_t>::max();
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    const std::array<std::int64_t, 1> at_or_below{
        static_cast<std::int64_t>(std::upper_bound(mine.begin(), mine.end(), mid) - mine.begin())};
    if (combine_over_ranks(net, at_or_below, Combine::sum)[0] > n / 2) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

}  // namespace rr::replay
