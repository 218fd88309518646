// A replay over ranks that records intervals (ResultDetail::record_intervals) hands each interval to the rank that
// owns its operation: the timeline shows an interval with its operation's ready time, release and releaser, which
// only the owner's records hold (a copy's hop may run on another rank's channel instance). Every rank tells every
// other its channel instances too, so that each numbers the instances' tracks as one engine does.
#pragma once

#include "replay/block_network.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"
#include "replay/src/assemble_result.hpp"
#include "replay/src/network_pump.hpp"
#include "replay/src/partition.hpp"

namespace rr::replay {

// What a rank lists once the exchange is done.
struct RankIntervals {
  std::vector<ChannelUsage> channels;  // every rank's channel instances, as one engine lists them
  std::vector<Interval> own;           // the intervals of this rank's operations, in the timeline's order
};

// Takes `out`'s intervals (tracks: processors, then out's instances) and gives this rank's list.
RankIntervals exchange_intervals(const MachineMap& map, const Partition& p, BlockNetwork& net, Inbox& inbox,
                                 BlockOutput& out);

}  // namespace rr::replay
