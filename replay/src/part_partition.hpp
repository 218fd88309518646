// The split of a replay from parts (docs/scale.md, "The replay from parts"): what partition_by_node decides over the
// whole graph, each rank decides over its own vertices, the edges leaving them and its copies' hops, and the ranks
// agree in one round on the least lookahead, the least hop on a shared channel instance, which instances are shared
// and whether to split at all, so that every rank decides alike.
#pragma once

#include <string>

#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"
#include "replay/src/local_graph.hpp"
#include "replay/src/model_node_ranks.hpp"
#include "replay/src/part_rounds.hpp"
#include "replay/src/partition.hpp"
#include "replay/src/shared_state.hpp"

namespace rr::replay {

// One block per rank, each owning its part's vertices and the model nodes `node_ranks` gives it (graph::NodeRanks
// over the map's model nodes, which is partition_by_node's split into blocks of consecutive nodes when the parts were
// split by the map's own fold); of_vertex by local vertex. When the split cannot serve, count 1 and `why` says why,
// alike on every rank (the lowest rank's reason).
Partition partition_from_parts(const LocalGraph& local, const MachineMap& map, const ModelNodeRanks& node_ranks,
                               const machine::MachineModel& model, const CopyPlans& copies, Noise noise,
                               PartRounds& rounds, std::string& why);

}  // namespace rr::replay
