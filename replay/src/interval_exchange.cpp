#include "replay/src/interval_exchange.hpp"

#include <utility>
#include <vector>

#include "replay/byte_wire.hpp"

namespace rr::replay {

namespace {

// The channel instance a rank names, with what it carried (the sums stay with the one rank that used it).
ChannelInstance instance_of(const ChannelUsage& c) {
  return {c.channel, c.node, 0, false, {}, c.busy_ns, c.transfers, c.bytes};
}

}  // namespace

RankIntervals exchange_intervals(const graph::EventGraph& g, const MachineMap& map, std::span<const std::uint8_t> owner,
                                 BlockNetwork& net, Inbox& inbox, BlockOutput& out) {
  const std::uint32_t ranks = net.ranks(), me = net.rank();
  std::vector<ChannelUsage> mine;
  for (const ChannelInstance& ci : out.instances) mine.push_back({ci.channel, ci.node, ci.busy_ns, ci.transfers, ci.bytes});
  // Each rank's intervals as the sender numbered their tracks, and its instances: list_channels_and_intervals
  // renumbers them as one engine's.
  std::vector<BlockOutput> by_rank(ranks);
  std::vector<std::vector<Interval>> to(ranks);
  for (const Interval& in : out.tally.intervals)
    to[owner[in.vertex]].push_back({in.track, g.whole_id(in.vertex), in.start, in.end});
  out.tally.intervals = {};
  for (std::uint32_t x = 0; x < ranks; ++x) {
    if (x == me) continue;
    ByteWriter w;
    w.put(WireKind::intervals);
    w.put_all<ChannelUsage>(mine);
    w.put_all<Interval>(to[x]);
    net.send(x, w.take());
    to[x] = {};
  }
  for (const ChannelUsage& c : mine) by_rank[me].instances.push_back(instance_of(c));
  by_rank[me].tally.intervals = std::move(to[me]);
  for (std::uint32_t heard = 1; heard < ranks; ++heard) {
    const auto m = inbox.next(WireKind::intervals, true);
    ByteReader in(m->bytes);
    in.get<WireKind>();
    for (const ChannelUsage& c : in.get_all<ChannelUsage>()) by_rank[m->from].instances.push_back(instance_of(c));
    by_rank[m->from].tally.intervals = in.get_all<Interval>();
  }
  ReplayResult listed;
  list_channels_and_intervals(map, listed, by_rank);
  return {std::move(listed.channels), std::move(listed.intervals)};
}

}  // namespace rr::replay
