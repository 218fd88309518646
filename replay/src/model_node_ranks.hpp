// The rank that replays each model node of a replay from parts: the rank whose part holds the vertices of the traced
// nodes folded onto it (graph::NodeRanks). The split's blocks of nodes (part_partition.cpp) and the ranks whose
// channel instances a copy's hops hold (local_graph.cpp) both read it, so that they follow the parts, whatever map
// the parts were split by: the run's own fold, or none for the traced machine's fit, which replays the trace unfolded
// on parts split by the run's fold.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph_part.hpp"
#include "replay/machine_map.hpp"

namespace rr::replay {

struct ModelNodeRanks {
  std::vector<std::uint32_t> of_node;  // by model node of the map
  std::string why_not;                 // when two traced nodes that share a model node are on two ranks
};

// A model node takes the rank of the traced nodes `map` folds onto it, which must all be one rank's under `ranks`;
// a model node onto which no traced node folds holds no operation, and goes by the split's rule over model nodes.
ModelNodeRanks model_node_ranks(const graph::NodeRanks& ranks, const MachineMap& map);

}  // namespace rr::replay
