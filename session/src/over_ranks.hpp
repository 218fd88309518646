// How the replays a session runs from parts (the what-ifs, the noisy samples) agree over the ranks after each one:
// a rank that failed must stop every rank alike, and every rank must report the same estimate, and the same error.
#pragma once

#include <cstdint>
#include <string>

#include "replay/block_network.hpp"

namespace rr::session {

// Whether every rank got as far as this rank, the latest of what they got, and when some rank did not, the lowest
// such rank's error, named by rank ("rank 2 of 4: ...").
struct OverRanks {
  bool everyone = false;
  std::int64_t latest = 0;
  std::string error;
};

// Every rank calls it at the same point, `value` its own (a makespan: each rank's latest end), `error` why it failed
// when it did. One exchange when every rank got there; three more, on the error's way only, to share the lowest
// failing rank's error (a rank that failed alone would otherwise leave the others saying only that one did).
OverRanks agree_over_ranks(replay::BlockNetwork& net, bool ok, std::int64_t value, const std::string& error = {});

}  // namespace rr::session
