// A replay over ranks that records intervals (ResultDetail::record_intervals) hands each interval to the rank that
// owns its operation: the timeline shows an interval with its operation's ready time, release and releaser, which
// only the owner's records hold (a copy's hop may run on another rank's channel instance). Every rank tells every
// other its channel instances too, so that each numbers the instances' tracks as one engine does.
#pragma once

#include <cstdint>
#include <span>

#include "replay/block_network.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"
#include "replay/src/assemble_result.hpp"
#include "replay/src/network_pump.hpp"

namespace rr::replay {

// What a rank lists once the exchange is done.
struct RankIntervals {
  std::vector<ChannelUsage> channels;  // every rank's channel instances, as one engine lists them
  std::vector<Interval> own;           // the intervals of this rank's operations, in the timeline's order
};

// Takes `out`'s intervals (tracks: processors, then out's instances; vertices of `g`) and gives this rank's list,
// naming vertices by whole-graph id (EventGraph::whole_id: a local view's ids mean nothing to another rank, and the
// timeline's order breaks ties by whole id). `owner`: the rank of each vertex of g.
RankIntervals exchange_intervals(const graph::EventGraph& g, const MachineMap& map, std::span<const std::uint8_t> owner,
                                 BlockNetwork& net, Inbox& inbox, BlockOutput& out);

}  // namespace rr::replay
