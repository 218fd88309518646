// What is left out of the estimate, in a replay from parts (docs/scale.md, "The replay from parts"): tasks without
// Task Time, and everything that waits on them to any depth (ReplayResult::outside_estimate). init_shared marks
// what a rank's view reaches from the tasks it sees; the chains that leave the view and come back are followed over
// the ranks, in rounds, until no rank marks anything new.
#pragma once

#include "replay/replay_result.hpp"
#include "replay/src/local_graph.hpp"
#include "replay/src/part_rounds.hpp"

namespace rr::replay {

// r.outside_estimate by local vertex, as one engine marks the whole graph for this rank's own vertices; and
// r.tasks_without_time and r.after_untimed counted over them, so that added over the ranks they are one engine's.
void spread_outside_estimate(const LocalGraph& local, ReplayResult& r, PartRounds& rounds);

}  // namespace rr::replay
