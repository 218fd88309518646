// What a rank keeps of a replay over ranks (ReplayResult::over_ranks) for the analyses that go on over the ranks
// once the replay is done: the network, and which block, that is which rank, owns each operation.
#pragma once

#include <cstdint>

#include "replay/block_network.hpp"
#include "replay/replay_result.hpp"
#include "replay/src/partition.hpp"

namespace rr::replay {

struct RankPart {
  BlockNetwork* net = nullptr;
  Partition partition;          // the replay's split, one block per rank (empty when holds_nothing)
  bool holds_nothing = false;   // the replay ran on rank 0 alone: this rank (not 0) holds none of its records
  bool mine(graph::VertexId v) const { return partition.of_vertex[v] == net->rank(); }
};

}  // namespace rr::replay
