#include "replay/src/network_replay.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "replay/src/assemble_result.hpp"
#include "replay/src/block_protocol.hpp"
#include "replay/src/block_result_wire.hpp"
#include "replay/byte_wire.hpp"
#include "replay/src/engine.hpp"
#include "replay/src/interval_exchange.hpp"
#include "replay/src/network_pump.hpp"
#include "replay/src/network_stages.hpp"
#include "replay/src/partition.hpp"
#include "replay/src/rank_part.hpp"
#include "replay/src/shared_state.hpp"

namespace rr::replay {

namespace {

// Why the split cannot serve this replay, or null.
const char* why_alone(const ReplayOptions& options, const Partition& p) {
  if (options.stop_after_ns != kNoStop) return "a stop time is one engine's (its rounds are the ones it asks about)";
  return p.count < 2 ? p.why_not : nullptr;
}

// Each block's records of its own operations made whole: a copy's start comes from the block that ran its first
// hop, when that is another one. `start_ups`: this block's, then every block's.
void exchange_copy_starts(const graph::EventGraph& g, const Partition& p, BlockNetwork& net, Inbox& inbox,
                          OperationRecords& ops, std::vector<StartUp>& start_ups) {
  std::vector<std::vector<CopyStart>> to(net.ranks());
  for (const CopyStart& s : copies_started_for_others(g, p, net.rank(), ops)) to[p.of_vertex[s.copy]].push_back(s);
  lay_copy_starts(trade_copy_starts(net, inbox, std::move(to), start_ups), ops);
}

// Rank 0: every other block's part laid into `shared` beside its own; their outputs in block order.
std::vector<BlockOutput> gather(const graph::EventGraph& g, const MachineMap& map, const Partition& p,
                                BlockNetwork& net, Inbox& inbox, SharedState& shared, BlockOutput own) {
  std::vector<BlockOutput> outputs(net.ranks());
  for (std::uint32_t heard = 1; heard < net.ranks(); ++heard) {
    const auto m = inbox.next(WireKind::result, true);
    outputs[m->from] = unpack_block_result(g, map, p, m->from, m->bytes, shared);
  }
  outputs[0] = std::move(own);
  return outputs;
}

std::shared_ptr<const RankPart> rank_part(BlockNetwork& net, Partition partition, bool holds_nothing) {
  auto part = std::make_shared<RankPart>();
  part->net = &net;
  part->partition = std::move(partition);
  part->holds_nothing = holds_nothing;
  return part;
}

}  // namespace

std::optional<core::InputError> too_many_ranks(std::uint32_t ranks, std::uint32_t model_nodes) {
  const std::uint32_t usable = std::min(model_nodes, kMaxRanks);
  if (ranks <= usable) return std::nullopt;
  const std::string why = model_nodes <= kMaxRanks ? "the model has " + std::to_string(model_nodes) + " node(s)"
                                                   : "a replay splits into at most that many blocks";
  core::InputError error;  // (filled in place: GCC 12 warns, wrongly, of a braced one's uninitialised string)
  error.where.file = std::to_string(ranks) + " ranks";
  error.message = "each rank replays the blocks of its own model nodes, and this replay can use at most " +
                  std::to_string(usable) + " rank(s): " + why;
  return error;
}

std::vector<CopyStart> trade_copy_starts(BlockNetwork& net, Inbox& inbox, std::vector<std::vector<CopyStart>> to,
                                         std::vector<StartUp>& start_ups) {
  for (std::uint32_t x = 0; x < net.ranks(); ++x) {
    if (x == net.rank()) continue;
    ByteWriter w;
    w.put(WireKind::copy_starts);
    w.put_all<CopyStart>(to[x]);
    w.put_all<StartUp>(start_ups);
    net.send(x, w.take());
  }
  std::vector<CopyStart> came;
  for (std::uint32_t heard = 1; heard < net.ranks(); ++heard) {
    const auto m = inbox.next(WireKind::copy_starts, true);
    ByteReader in(m->bytes);
    in.get<WireKind>();
    const std::vector<CopyStart> starts = in.get_all<CopyStart>();
    came.insert(came.end(), starts.begin(), starts.end());
    const std::vector<StartUp> theirs = in.get_all<StartUp>();
    start_ups.insert(start_ups.end(), theirs.begin(), theirs.end());
  }
  order_start_ups(start_ups);
  return came;
}

std::optional<core::InputError> agree_on_start(BlockNetwork& net, Inbox& inbox, const InitError& mine,
                                               const machine::MachineModel& model) {
  ByteWriter w;
  w.put(WireKind::start);
  w.put<std::uint8_t>(mine.has_value());
  w.put<graph::VertexId>(mine ? mine->first : 0);
  w.put_text(mine ? std::string_view(mine->second.message) : std::string_view());
  const std::vector<std::byte> status = w.take();
  for (std::uint32_t x = 0; x < net.ranks(); ++x)
    if (x != net.rank()) net.send(x, status);
  InitError lowest = mine;
  for (std::uint32_t heard = 1; heard < net.ranks(); ++heard) {
    const auto m = inbox.next(WireKind::start, true);
    ByteReader in(m->bytes);
    in.get<WireKind>();
    const bool failed = in.get<std::uint8_t>() != 0;
    const auto v = in.get<graph::VertexId>();
    std::string message = in.get_text();
    if (failed && (!lowest || v < lowest->first)) {
      lowest.emplace(v, core::InputError{});
      lowest->second.where.file = model.source;
      lowest->second.message = std::move(message);
    }
  }
  if (!lowest) return std::nullopt;
  return lowest->second;
}

void replay_block(BlockNetwork& net, Inbox& inbox, Blocks& blocks, BlockLink& link, Engine& engine,
                  const LocalGraph* local) {
  link.publish(engine);
  NetworkPump pump(net, inbox, blocks, local);
  pump.send();
  for (;;) {
    const bool came = pump.receive(false);
    const bool did = link.step(engine);
    pump.send();
    if (came || did) continue;
    if (pump.finished()) break;
    pump.receive(true);  // nothing to do until another rank says something
  }
  pump.farewell();
}

bool split_over_ranks(const ReplayResult& r) { return r.over_ranks && !r.over_ranks->holds_nothing; }

bool owns_record(const ReplayResult& r, graph::VertexId v) {
  if (!r.over_ranks) return true;  // one process, or rank 0 of a replay it ran alone
  return !r.over_ranks->holds_nothing && r.over_ranks->mine(v);
}

core::Expected<ReplayResult> run_over_network(const graph::EventGraph& g, const MachineMap& map,
                                              const machine::MachineModel& model, const ReplayOptions& options) {
  BlockNetwork& net = *options.execution.network;
  const std::uint32_t ranks = net.ranks(), me = net.rank();
  SharedState shared;
  auto refuse = [&](core::InputError error) -> core::Expected<ReplayResult> {
    net.part_done();
    return error;
  };
  if (auto error = too_many_ranks(ranks, map.model_nodes())) return refuse(*error);
  if (auto error = plan_copies(g, map, model, shared)) return refuse(*error);
  init_shared(g, map, model, options.rules.noise, shared);
  Partition partition;
  if (ranks > 1 && !why_alone(options, partition))  // (not split yet: only what precedes the partition)
    partition = partition_by_node(g, map, model, shared.copies, options.rules.noise, ranks, {0, 0});
  if (const char* why = why_alone(options, partition); why || ranks == 1) {
    if (me != 0) {  // rank 0 replays it all
      shared.r.over_ranks = rank_part(net, {}, true);
      return std::move(shared.r);
    }
    if (why && ranks > 1) net.note(std::string("the replay runs on rank 0 alone: ") + why);
    const std::unique_ptr<Engine> engine = make_engine(g, map, model, options, shared);
    if (auto error = engine->init_block()) return refuse(error->second);
    engine->run_alone();
    std::vector<BlockOutput> outputs;
    outputs.push_back(engine->take_output());
    shared.r.cut_off = outputs.front().tally.cut_off;  // (as run_replay: what a stop time cut off is not stuck)
    assemble_result(g, map, options.detail.stuck_examples, shared, outputs);
    return std::move(shared.r);
  }
  Blocks blocks(std::move(partition), me);
  const Partition& p = blocks.partition;
  BlockLink link(blocks, me);
  const std::unique_ptr<Engine> engine = make_engine(g, map, model, options, shared, &link);
  Inbox inbox(net);
  if (auto error = agree_on_start(net, inbox, engine->init_block(), model)) return refuse(*error);
  replay_block(net, inbox, blocks, link, *engine);
  BlockOutput output = engine->take_output();
  // Every rank's start-ups on every rank (the walk reads its own nodes'; rank 0's result lists them all). The issue
  // times stay where the engine wrote them: on the rank of the work that issued them, whose out-edges the lower
  // bound weighs there (ReplayedEdges); no other rank reads them (docs/scale.md).
  exchange_copy_starts(g, p, net, inbox, shared.r.ops, output.tally.start_ups);
  // Each rank keeps the intervals of its own operations (the timeline streams them to rank 0), and lists every
  // rank's channel instances, which number the tracks.
  RankIntervals intervals;
  if (options.detail.record_intervals) intervals = exchange_intervals(g, map, p.of_vertex, net, inbox, output);
  if (me != 0) {
    net.send(0, pack_block_result(g, map, p, me, shared, output));
    shared.r.start_ups = std::move(output.tally.start_ups);
    shared.r.channels = std::move(intervals.channels);
    shared.r.intervals = std::move(intervals.own);
    shared.r.over_ranks = rank_part(net, std::move(blocks.partition), false);
    return std::move(shared.r);  // this block's part only
  }
  std::vector<BlockOutput> outputs = gather(g, map, p, net, inbox, shared, std::move(output));
  shared.r.blocks = ranks;
  assemble_result(g, map, options.detail.stuck_examples, shared, outputs);
  shared.r.intervals = std::move(intervals.own);
  shared.r.over_ranks = rank_part(net, std::move(blocks.partition), false);
  return std::move(shared.r);
}

}  // namespace rr::replay
