// A replay from parts keeps its records by the part's index (GraphPart::ids); the walks over its result (the critical
// path, its lower bound) read records by vertex of the graph they walk, the rank's local view. This lays them out so.
#pragma once

#include "replay/replay_result.hpp"
#include "replay/src/rank_part.hpp"

namespace rr::replay {

// `r`'s records laid out by local vertex of part.local (a replay from parts): each own vertex's record, its releaser
// named by local vertex; a ghost has none (never ready). With the sums and facts the walks read (makespan, noise,
// start-ups, what counts in the estimate) and the issue times of the actions its own work issued (by local vertex
// already). A copy for the walk's while: the result itself stays by the part's index.
ReplayResult records_by_local_vertex(const RankPart& part, const ReplayResult& r);

}  // namespace rr::replay
