// Numbers every rank of a replay over ranks (block_network.hpp) must agree on once each has counted its own part:
// what the traced machine's fit sums over the waits each rank owns, the estimate each rank's block reached.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "replay/block_network.hpp"

namespace rr::replay {

enum class Combine : std::uint8_t { sum, max };

// Every rank's `mine` combined element by element, on every rank: each sends the others its own and combines
// theirs. Integers, so that every rank gets the same values whatever order the messages come in. Every rank calls
// it with as many values; a rank's message for a later call is kept for that call.
std::vector<std::int64_t> combine_over_ranks(BlockNetwork& net, std::span<const std::int64_t> mine, Combine how);

}  // namespace rr::replay
