// The end of a replay: the blocks' outputs put together into the result, and what never completed described.
#pragma once

#include <cstddef>
#include <vector>

#include "graph/event_graph.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"
#include "replay/src/channel_instance.hpp"
#include "replay/src/shared_state.hpp"

namespace rr::replay {

// What one block (or the one engine) leaves for the result beyond the shared arrays.
struct BlockOutput {
  ReplayResult tally;  // counters, sums and intervals (tracks: processors, then this block's instances)
  std::vector<ChannelInstance> instances;
  std::vector<PathUsage> path_usage;  // by CopyPlans slot
};

// The blocks' channel instances listed by (channel, node) into r.channels, and their intervals into r.intervals in
// the timeline's order (replay/timeline_order.hpp), an instance's track being processors().size() + its place in
// that list; the outputs' intervals are emptied.
void list_channels_and_intervals(const MachineMap& map, ReplayResult& r, std::vector<BlockOutput>& outputs);

// Puts the blocks' outputs (in block order: each is the same for any split) into the shared result, and describes
// up to `stuck_examples` operations that never completed.
// Why each of `vertices` (ascending) never completed, as assemble_result describes its examples.
std::vector<StuckExample> describe_stuck(const graph::EventGraph& g, const SharedState& shared,
                                         const std::vector<graph::VertexId>& vertices);

// The processors' start-ups in the result's order (ReplayResult::start_ups): by when each began, then by node and
// processor. One engine asks for them in the order its processors first run, which a split cannot see across its
// blocks.
void order_start_ups(std::vector<StartUp>& start_ups);

void assemble_result(const graph::EventGraph& g, const MachineMap& map, std::size_t stuck_examples,
                     SharedState& shared, std::vector<BlockOutput>& outputs);

}  // namespace rr::replay
