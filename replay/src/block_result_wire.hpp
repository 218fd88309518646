// A block's part of the result of a replay over ranks (network_replay.hpp): what its engine wrote into its own
// process's shared state (its operations' records, made whole with the starts of its copies whose first hop
// another block ran: exchange_copy_starts, its processors and phases) and its output but its intervals, which stay
// with the owners of their operations (interval_exchange.hpp). Its rank lays them into bytes; rank 0 lays them into
// its shared state, which then holds what the shared state of a replay on threads holds, but the other ranks'
// intervals.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "graph/event_graph.hpp"
#include "replay/machine_map.hpp"
#include "replay/src/assemble_result.hpp"
#include "replay/src/partition.hpp"
#include "replay/src/shared_state.hpp"

namespace rr::replay {

// A copy's start, kept by the block that ran its first hop, which is not the copy's.
struct CopyStart {
  graph::VertexId copy;
  TimeNs start;
};

std::vector<std::byte> pack_block_result(const graph::EventGraph& g, const MachineMap& map, const Partition& p,
                                         std::uint32_t block, const SharedState& shared, const BlockOutput& out);

// Rank 0: lays block `block`'s result into `shared` and gives its output.
BlockOutput unpack_block_result(const graph::EventGraph& g, const MachineMap& map, const Partition& p,
                                std::uint32_t block, std::span<const std::byte> bytes, SharedState& shared);

// The copies of other blocks whose first hop block `block` started, from its own records.
std::vector<CopyStart> copies_started_for_others(const graph::EventGraph& g, const Partition& p, std::uint32_t block,
                                                 const OperationRecords& ops);

// Each copy's record, which holds what its own block wrote, gets its start from the block of its first hop (on the
// copy's own rank, before its records are used).
void lay_copy_starts(const std::vector<CopyStart>& starts, OperationRecords& ops);

}  // namespace rr::replay
