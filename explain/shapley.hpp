// Shapley values of a game of at most 8 players (docs/explain.md, Shares): each player's share of
// v(all) − v(none), the mean of its marginal contribution over every order the players could join in.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace rr::explain {

inline constexpr unsigned kMaxPlayers = 8;

// `v` holds v(S) for every subset S of the `players` players, indexed by the bit mask of S (bit i: player i),
// 2^players values in ns. Returns each player's share in whole ns: φ_i = Σ_{S ∌ i} |S|!(k−|S|−1)!/k! ·
// (v(S ∪ {i}) − v(S)), computed exactly as a fraction over k!, then rounded so that the shares add up to
// v(all) − v(none) exactly: each is rounded down, and the ns left over (fewer than k) go one each to the shares
// with the largest remainders (the lower player first among equal ones). Each share is within 1 ns of its
// exact value; throws std::invalid_argument on more than kMaxPlayers players or a wrong count of values.
std::vector<std::int64_t> shapley_values(std::span<const std::int64_t> v, unsigned players);

}  // namespace rr::explain
