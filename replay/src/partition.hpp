// How one replay splits by model node into blocks, each replayed by its own engine (docs/replay.md, "One replay on
// many threads"): which block owns each operation, and how far ahead of the others a block may run. Every message
// between blocks takes effect at least `lookahead` after the sender's present, except a copy's request for its
// first hop on another block's channel instance, which takes effect at once: such an instance is shared, and its
// block gives out its lanes at an instant only once every other block has gone past it.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"
#include "replay/src/shared_state.hpp"

namespace rr::replay {

struct Partition {
  std::uint32_t count = 1;        // blocks; 1: not split, and why_not says why
  const char* why_not = nullptr;
  std::vector<std::uint8_t> of_vertex;
  std::vector<std::uint8_t> of_node;  // by model node: consecutive nodes together (from parts: as the parts hold them)
  TimeNs lookahead = 0;
  TimeNs least_hop = 0;               // no hop on a shared instance is shorter
  std::vector<char> shared_instance;  // by channel * model nodes + node
};

// When a split would not pay.
struct PartitionLimits {
  std::uint32_t min_block_operations = 0;  // fewer operations per block: fewer blocks
  TimeNs min_lookahead_ns = 0;             // a shorter lookahead: blocks would wait for each other more than they work
};

// Splits the replay of `g` on `map` into up to `blocks` blocks of consecutive model nodes (fewer when there are
// fewer nodes or operations), or says why it cannot: what crosses blocks must do so with a delay. The copies' plans
// give their hops, `noise` the hops' durations. The same partition at any number of oneTBB threads.
Partition partition_by_node(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                            const CopyPlans& copies, Noise noise, std::uint32_t blocks, const PartitionLimits& limits);

}  // namespace rr::replay
