// Numbers every rank of a replay over ranks (block_network.hpp) must agree on once each has counted its own part:
// what the traced machine's fit sums over the waits each rank owns, the estimate each rank's block reached.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "replay/block_network.hpp"

namespace rr::replay {

enum class Combine : std::uint8_t { sum, max };

// Every rank's `mine` combined element by element, on every rank: each sends the others its own and combines
// theirs. Integers, so that every rank gets the same values whatever order the messages come in. Every rank calls
// it with as many values; a rank's message for a later call is kept for that call.
std::vector<std::int64_t> combine_over_ranks(BlockNetwork& net, std::span<const std::int64_t> mine, Combine how);

// The element of rank n/2 in ascending order (after std::nth_element at n/2: the upper median) of every rank's
// `mine` put together, n values in all, on every rank; nothing when n is 0. No rank sends its values: a bisection on
// the value counts, at each step, how many values lie at or below it on every rank (combine_over_ranks), so that
// the answer is one process's exactly in at most 64 steps, whatever the ranks hold.
std::optional<std::uint64_t> median_over_ranks(BlockNetwork& net, std::vector<std::uint64_t> mine);

// Every rank's `mine` on rank 0, by rank (its own at 0); every rank calls it at once, among the calls above, and only
// rank 0 waits. Another rank gets nothing back. What rank 0 writes alone from every rank's part (the timeline's
// observed run of a replay from parts).
std::vector<std::vector<std::byte>> gather_on_first_rank(BlockNetwork& net, std::vector<std::byte> mine);

}  // namespace rr::replay
