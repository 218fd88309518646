// Exact Shapley values (explain/shapley.hpp), in 128-bit integers: k! · φ_i is an integer.
#include "explain/shapley.hpp"

#include <algorithm>
#include <bit>
#include <numeric>
#include <stdexcept>

namespace rr::explain {

namespace {
__extension__ typedef __int128 Wide;  // k! · (v(S ∪ {i}) − v(S)) summed over 128 subsets overflows 64 bits
}  // namespace

std::vector<std::int64_t> shapley_values(std::span<const std::int64_t> v, unsigned players) {
  if (players > kMaxPlayers) throw std::invalid_argument("Shapley values of more than 8 classes");
  const std::uint32_t subsets = 1u << players;
  if (v.size() != subsets) throw std::invalid_argument("Shapley values need one value per subset");
  if (players == 0) return {};
  std::int64_t factorial[kMaxPlayers + 1] = {1};
  for (unsigned i = 1; i <= kMaxPlayers; ++i) factorial[i] = factorial[i - 1] * i;
  const Wide whole = factorial[players];
  std::vector<Wide> numerator(players, 0);
  for (unsigned i = 0; i < players; ++i)
    for (std::uint32_t s = 0; s < subsets; ++s) {
      if (s & (1u << i)) continue;
      const unsigned size = static_cast<unsigned>(std::popcount(s));
      const Wide weight = factorial[size] * factorial[players - size - 1];
      numerator[i] += weight * (static_cast<Wide>(v[s | (1u << i)]) - v[s]);
    }
  std::vector<std::int64_t> share(players);
  std::vector<Wide> remainder(players);
  Wide total = 0;
  for (unsigned i = 0; i < players; ++i) {
    Wide q = numerator[i] / whole, r = numerator[i] % whole;
    if (r < 0) { --q; r += whole; }  // floor, so that every remainder is in [0, k!)
    share[i] = static_cast<std::int64_t>(q);
    remainder[i] = r;
    total += q;
  }
  // The exact shares add up to v(all) − v(none); the remainders to a whole number of ns below k.
  const Wide left = static_cast<Wide>(v[subsets - 1]) - v[0] - total;
  std::vector<unsigned> order(players);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](unsigned x, unsigned y) { return remainder[x] > remainder[y]; });
  for (Wide k = 0; k < left; ++k) ++share[order[static_cast<std::size_t>(k)]];
  return share;
}

}  // namespace rr::explain
