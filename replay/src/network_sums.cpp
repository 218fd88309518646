#include "replay/network_sums.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "replay/byte_wire.hpp"
#include "replay/src/network_pump.hpp"

namespace rr::replay {

namespace {

// One sums message from each other rank, each's bytes after its kind, by sender (this rank's entry empty); a rank's
// second message, for a later call, is kept in the network for that call.
std::vector<std::vector<std::byte>> one_from_each(BlockNetwork& net) {
  std::vector<std::vector<std::byte>> out(net.ranks());
  Inbox inbox(net);
  std::vector<char> heard(net.ranks(), 0);
  std::vector<BlockNetwork::Message> later;
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

std::vector<std::byte> sums_message(std::span<const std::byte> body) {
  ByteWriter w;
  w.put(WireKind::sums);
  w.put_all<std::byte>(body);
  return w.take();
}

}  // namespace

std::vector<std::int64_t> combine_over_ranks(BlockNetwork& net, std::span<const std::int64_t> mine, Combine how) {
  std::vector<std::int64_t> out(mine.begin(), mine.end());
  if (net.ranks() < 2) return out;
  const std::vector<std::byte> bytes = sums_message(std::as_bytes(mine));
  for (std::uint32_t x = 0; x < net.ranks(); ++x)
    if (x != net.rank()) net.send(x, bytes);
  const std::vector<std::vector<std::byte>> came = one_from_each(net);
  for (std::uint32_t from = 0; from < net.ranks(); ++from) {
    if (from == net.rank()) continue;
    if (came[from].size() != mine.size_bytes())
      throw std::logic_error("replay over ranks: rank " + std::to_string(from) + " combined " +
                             std::to_string(came[from].size() / sizeof(std::int64_t)) + " values, this rank " +
                             std::to_string(out.size()));
    for (std::size_t i = 0; i < out.size(); ++i) {
      std::int64_t theirs;
      std::memcpy(&theirs, came[from].data() + i * sizeof theirs, sizeof theirs);
      out[i] = how == Combine::sum ? out[i] + theirs : std::max(out[i], theirs);
    }
  }
  return out;
}

std::vector<std::vector<std::byte>> gather_on_first_rank(BlockNetwork& net, std::vector<std::byte> mine) {
  if (net.rank() != 0) {
    net.send(0, sums_message(mine));
    return {};
  }
  std::vector<std::vector<std::byte>> out = one_from_each(net);
  out[0] = std::move(mine);
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
