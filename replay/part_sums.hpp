// A replay from parts (replay/part_replay.hpp) leaves each rank the sums of its own operations. What rank 0 reports
// is the whole run's: this gathers every rank's sums there, in one message from each (docs/scale.md, "The replay
// from parts").
#pragma once

#include "replay/block_network.hpp"
#include "replay/replay_result.hpp"

namespace rr::replay {

// Every rank calls it once, after run_part_over_network, with its result. On rank 0 the sums become the whole
// run's, as one engine on the whole graph gives them: the makespans and last ends the latest, the counts and busy
// times added, every rank's channel instances listed by (channel, node) (each once: a rank that recorded intervals
// lists them all already), the copy paths added by name, and the stuck operations' first `stuck_examples` by whole
// id. The other ranks send theirs and keep them. The per-operation arrays stay each rank's own.
void gather_part_sums(ReplayResult& r, BlockNetwork& net, std::size_t stuck_examples);

}  // namespace rr::replay
