// The infinite-resource lower bound (CriticalPath::lower_bound_ns) of a replay over ranks, as a longest path over the
// graph worked out by every rank on its own operations: each takes its operations in an order their inputs allow,
// and what an edge to another rank's operation carries goes to that rank, in rounds, until a round in which no rank
// sends anything.
#pragma once

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"
#include "replay/src/network_pump.hpp"
#include "replay/src/rank_part.hpp"

namespace rr::replay {

// Runs on every rank; each gets the bound. Reads the records of this rank's operations only, the edges leaving
// them, and the targets' kind and node where an edge's delay depends on them: all in `g`, the whole graph or, from
// parts, the rank's view (its records by local vertex). Messages name operations by whole id.
TimeNs lower_bound_over_ranks(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                              const ReplayResult& r, const RankPart& part, Inbox& inbox);

}  // namespace rr::replay
