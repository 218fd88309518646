// How the replays a session runs from parts (the what-ifs, the noisy samples) agree over the ranks after each one:
// a rank that failed must stop every rank alike, and every rank must report the same estimate.
#pragma once

#include <cstdint>
#include <vector>

#include "replay/block_network.hpp"
#include "replay/network_sums.hpp"

namespace rr::session {

// Whether every rank got as far as this rank, and the latest of what they got.
struct OverRanks {
  bool everyone = false;
  std::int64_t latest = 0;
};

// One exchange; every rank calls it at the same point, `value` its own (a makespan: each rank's latest end).
inline OverRanks agree_over_ranks(replay::BlockNetwork& net, bool ok, std::int64_t value) {
  const std::int64_t mine[] = {ok ? 0 : 1, ok ? value : 0};
  const std::vector<std::int64_t> all = replay::combine_over_ranks(net, mine, replay::Combine::max);
  return {all[0] == 0, all[1]};
}

}  // namespace rr::session
