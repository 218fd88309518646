#include "replay/part_replay.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "replay/copy_route.hpp"
#include "replay/network_sums.hpp"
#include "replay/src/assemble_result.hpp"
#include "replay/src/block_protocol.hpp"
#include "replay/src/block_result_wire.hpp"
#include "replay/byte_wire.hpp"
#include "replay/src/engine.hpp"
#include "replay/src/interval_exchange.hpp"
#include "replay/src/local_graph.hpp"
#include "replay/src/model_node_ranks.hpp"
#include "replay/src/network_stages.hpp"
#include "replay/src/part_estimate.hpp"
#include "replay/src/part_partition.hpp"
#include "replay/src/part_rounds.hpp"
#include "replay/src/rank_part.hpp"
#include "replay/src/shared_state.hpp"

namespace rr::replay {

namespace {

using graph::OpKind;
using graph::VertexId;
using graph::kNoVertex;

core::InputError refusal(std::string message) {
  core::InputError error;  // (filled in place: GCC 12 warns, wrongly, of a braced one's uninitialised string)
  error.where.file = "replay from parts";
  error.message = std::move(message);
  return error;
}

// What a replay from parts does not serve yet. Every rank has the same arguments, so every rank decides alike.
std::optional<std::string> unsupported(std::uint32_t part_rank, const graph::NodeRanks& ranks,
                                       const ModelNodeRanks& node_ranks, const graph::RankExchange& exchange,
                                       const MachineMap& map, const machine::MachineModel& model,
                                       const ReplayOptions& options) {
  const BlockNetwork* net = options.execution.network;
  if (!net || net->ranks() != exchange.ranks() || net->rank() != exchange.rank() || part_rank != exchange.rank() ||
      ranks.ranks != exchange.ranks())
    return "the part, its split and the network name different ranks";
  // A model node's operations, processors and channel instances are one block's: the traced nodes folded onto it
  // must be one rank's.
  if (!node_ranks.why_not.empty()) return "the parts do not follow the model's nodes: " + node_ranks.why_not;
  // Under every placement a task runs on processors of its traced processor's model node (MachineMap::targets,
  // candidates), which the split checks is its part's rank. A moved function's copies instead follow their data
  // through merges to the first task they reach (copy_route.cpp): a walk over vertices that need not be this rank's
  // or its ghosts.
  if (!map.mapping().moves.empty())
    return "function moves do not run from parts: a moved function's copies follow their data through merges to the "
           "tasks they reach, which may be another rank's";
  // Any model: shared cores and start-ups are served, each node's clock and start-ups its own rank's, and what the
  // critical path reads of them is sent where it is read (docs/scale.md, "Shared cores and start-ups").
  static_cast<void>(model);
  if (options.stop_after_ns != kNoStop) return "a stop time is one engine's (its rounds are the ones it asks about)";
  return std::nullopt;
}

// Each copy's record gets its start from the rank that ran its first hop, when that is another one: by whole id on
// the wire. `start_ups`: this rank's, then every rank's (they name model nodes and processors, not vertices).
void exchange_copy_starts(const LocalGraph& local, BlockNetwork& net, Inbox& inbox, OperationRecords& ops,
                          std::vector<StartUp>& start_ups) {
  const std::uint32_t me = net.rank();
  std::vector<std::vector<CopyStart>> to(net.ranks());
  for (VertexId v = 0; v < local.g.vertex_count(); ++v)
    if (local.owner[v] != me && local.g.kind(v) == OpKind::copy && ops.started(v))
      to[local.owner[v]].push_back({local.whole(v), ops.start(v)});
  std::vector<CopyStart> starts = trade_copy_starts(net, inbox, std::move(to), start_ups);
  for (CopyStart& s : starts) s.copy = local.local(s.copy);
  lay_copy_starts(starts, ops);
}

// Up to `count` of this rank's own operations that never completed, the lowest whole ids first, described before
// the records are cut down (the description reads its inputs' records), naming them by whole id.
void describe_own_stuck(const LocalGraph& local, std::uint32_t me, std::size_t count, SharedState& shared) {
  if (shared.r.cut_off || count == 0) return;
  std::vector<VertexId> stuck;
  for (VertexId v = 0; v < local.g.vertex_count() && stuck.size() < count; ++v)
    if (local.owner[v] == me && !shared.r.ops.ended(v)) stuck.push_back(v);
  shared.r.stuck_examples = describe_stuck(local.g, shared, stuck);
  for (StuckExample& s : shared.r.stuck_examples) s.vertex = local.whole(s.vertex);
}

// The per-operation arrays cut down to this rank's own operations, by the part's index, naming others by whole id.
// The issue times (ReplayResult::issued_at, on shared cores or with start-ups) stay by the vertex of this rank's
// view: they are those of the actions its own work issued, its own or ghosts, which only the lower bound reads, on
// this rank, when it weighs its issuers' out-edges (records_by_local_vertex). The start-ups are every rank's already
// (exchange_copy_starts).
void keep_own(const LocalGraph& local, std::uint32_t me, ReplayResult& r) {
  OperationRecords ops;
  ops.reset(local.own);
  std::vector<std::uint32_t> processor_of(local.own);
  std::vector<char> outside;
  if (!r.outside_estimate.empty()) outside.resize(local.own);
  r.stuck = 0;
  VertexId i = 0;
  for (VertexId v = 0; v < local.g.vertex_count(); ++v) {
    if (local.owner[v] != me) continue;
    ops.set_ready(i, r.ops.ready(v));
    if (r.ops.started(v)) ops.start_at(i, r.ops.start(v));
    if (r.ops.ended(v)) ops.end_at(i, r.ops.end(v));
    else ++r.stuck;
    const VertexId by = r.ops.released_by(v);
    ops.set_release(i, by == kNoVertex ? kNoVertex : local.whole(by), r.ops.release(v));
    processor_of[i] = r.processor_of[v];
    if (!outside.empty()) outside[i] = r.outside_estimate[v];
    ++i;
  }
  r.ops = std::move(ops);
  r.processor_of = std::move(processor_of);
  r.outside_estimate = std::move(outside);
  for (Interval& in : r.intervals) in.vertex = local.whole(in.vertex);
}

// plan_copies counts the copies of the whole view, ghosts included; the result counts this rank's own, so that the
// counts add up over the ranks.
void count_own_copies(const LocalGraph& local, const MachineMap& map, std::uint32_t me, ReplayResult& r) {
  r.copies_retargeted = r.copies_removed = r.copies_default_size = 0;
  for (VertexId v = 0; v < local.g.vertex_count(); ++v) {
    if (local.owner[v] != me || local.g.kind(v) != OpKind::copy) continue;
    const CopyRoute route = copy_route(local.g, map, v);
    r.copies_retargeted += route.retargeted;
    if (route.removed) ++r.copies_removed;
    else if (local.g.copy(v).bytes == graph::kNoValue) ++r.copies_default_size;
  }
}

// What the analyses after the replay need of it (critical_path, the timeline): the network, and the graph this rank
// replayed on, which no one else holds.
std::shared_ptr<const RankPart> keep_for_analyses(BlockNetwork& net, std::shared_ptr<const LocalGraph> local,
                                                  VertexId whole_vertices) {
  auto part = std::make_shared<RankPart>();
  part->net = &net;
  part->from_parts = true;
  part->whole_vertices = whole_vertices;
  for (VertexId v = 0; v < local->g.vertex_count(); ++v)
    if (local->owner[v] == net.rank()) part->own_vertices.push_back(v);
  part->local = std::move(local);
  return part;
}

// What of a model decides which ranks' channel instances a copy's hops hold, and so the ghosts of a local graph:
// its copy paths and the side of each channel whose instance a hop uses.
bool same_routes(const machine::MachineModel& a, const machine::MachineModel& b) {
  if (a.paths.size() != b.paths.size() || a.channels.size() != b.channels.size()) return false;
  for (std::size_t i = 0; i < a.paths.size(); ++i)
    if (a.paths[i].src != b.paths[i].src || a.paths[i].dst != b.paths[i].dst || a.paths[i].remote != b.paths[i].remote ||
        a.paths[i].hops != b.paths[i].hops)
      return false;
  for (std::size_t c = 0; c < a.channels.size(); ++c)
    if (a.channels[c].destination_side != b.channels[c].destination_side) return false;
  return true;
}

}  // namespace

struct PreparedPart {
  std::shared_ptr<const LocalGraph> local;
  std::uint32_t rank = 0;
  VertexId whole_vertices = 0;
  machine::MachineModel routes;       // the model it was prepared for: its copy paths and channels' sides
  std::vector<core::NodeFold> folds;  // the node folds of the maps it was prepared for
};

core::Expected<std::shared_ptr<const PreparedPart>> prepare_part(graph::GraphPart part,
                                                                 const graph::NodeRanks& ranks,
                                                                 graph::RankExchange& exchange, const MachineMap& map,
                                                                 const machine::MachineModel& model,
                                                                 const ReplayOptions& options, const MachineMap* also) {
  std::vector<ServedMap> maps{{&map, model_node_ranks(ranks, map)}};
  if (also) maps.push_back({also, model_node_ranks(ranks, *also)});
  for (const ServedMap& served : maps) {
    if (auto why = unsupported(part.rank, ranks, served.ranks, exchange, *served.map, model, options))
      return refusal(*why);
    if (auto error = too_many_ranks(exchange.ranks(), served.map->model_nodes())) return *error;
  }
  PartRounds rounds(exchange);
  auto prepared = std::make_shared<PreparedPart>();
  prepared->rank = part.rank;
  prepared->whole_vertices = part.whole_vertices;
  try {
    prepared->local =
        std::make_shared<const LocalGraph>(build_local_graph(std::move(part), ranks.ranks, maps, model, rounds));
  } catch (const std::exception& e) {
    rounds.fail(e.what());  // the others stop at their next round instead of waiting for this rank
    return refusal(e.what());
  }
  prepared->routes = model;
  for (const ServedMap& served : maps) prepared->folds.push_back(served.map->node_fold());
  return std::shared_ptr<const PreparedPart>(std::move(prepared));
}

core::Expected<ReplayResult> run_part_over_network(const graph::GraphPart& part, const graph::NodeRanks& ranks,
                                                   graph::RankExchange& exchange, const MachineMap& map,
                                                   const machine::MachineModel& model, const ReplayOptions& options) {
  auto prepared = prepare_part(part, ranks, exchange, map, model, options);
  if (!prepared) return prepared.error();
  return run_part_over_network(*prepared, ranks, exchange, map, model, options);
}

core::Expected<ReplayResult> run_part_over_network(const std::shared_ptr<const PreparedPart>& prepared,
                                                   const graph::NodeRanks& ranks, graph::RankExchange& exchange,
                                                   const MachineMap& map, const machine::MachineModel& model,
                                                   const ReplayOptions& options) {
  const ModelNodeRanks node_ranks = model_node_ranks(ranks, map);
  if (auto why = unsupported(prepared->rank, ranks, node_ranks, exchange, map, model, options)) return refusal(*why);
  if (!same_routes(prepared->routes, model))
    return refusal("the model's copies take other routes than those of the model the part was prepared for");
  if (std::find(prepared->folds.begin(), prepared->folds.end(), map.node_fold()) == prepared->folds.end())
    return refusal("the map folds the nodes otherwise than the maps the part was prepared for");
  if (auto error = too_many_ranks(exchange.ranks(), map.model_nodes())) return *error;
  BlockNetwork& net = *options.execution.network;
  const std::uint32_t me = exchange.rank(), count = exchange.ranks();
  const LocalGraph& local = *prepared->local;
  PartRounds rounds(exchange);
  SharedState shared;
  Partition partition;
  std::string why_not;
  try {
    if (auto error = plan_copies(local.g, map, model, shared)) throw std::runtime_error(error->to_string());
    count_own_copies(local, map, me, shared.r);
    init_shared(local.g, map, model, options.rules.noise, shared);
    spread_outside_estimate(local, shared.r, rounds);
    if (count > 1)
      partition = partition_from_parts(local, map, node_ranks, model, shared.copies, options.rules.noise, rounds, why_not);
  } catch (const std::exception& e) {
    rounds.fail(e.what());  // the others stop at their next round instead of waiting for this rank
    return refusal(e.what());
  }
  if (count > 1 && partition.count < 2) return refusal("the split cannot serve this replay: " + why_not);

  std::vector<BlockOutput> outputs;
  RankIntervals intervals;  // split with intervals: every rank's channel instances, and its own operations' intervals
  if (count == 1) {
    const std::unique_ptr<Engine> engine = make_engine(local.g, map, model, options, shared);
    if (auto error = engine->init_block()) return error->second;
    engine->run_alone();
    outputs.push_back(engine->take_output());
  } else {
    Blocks blocks(std::move(partition), me);
    BlockLink link(blocks, me);
    const std::unique_ptr<Engine> engine = make_engine(local.g, map, model, options, shared, &link);
    Inbox inbox(net);
    InitError mine = engine->init_block();
    if (mine) mine->first = local.whole(mine->first);  // the lowest task over the ranks is the whole graph's
    if (auto error = agree_on_start(net, inbox, mine, model)) return *error;
    replay_block(net, inbox, blocks, link, *engine, &local);
    outputs.push_back(engine->take_output());
    // Every rank's start-ups on every rank, as a replay of the whole graph over ranks trades them.
    exchange_copy_starts(local, net, inbox, shared.r.ops, outputs.back().tally.start_ups);
    if (options.detail.record_intervals)
      intervals = exchange_intervals(local.g, map, local.owner, net, inbox, outputs.back());
  }
  assemble_result(local.g, map, 0, shared, outputs);
  describe_own_stuck(local, me, options.detail.stuck_examples, shared);
  keep_own(local, me, shared.r);
  if (count > 1 && options.detail.record_intervals) {
    shared.r.channels = std::move(intervals.channels);
    shared.r.intervals = std::move(intervals.own);
  }
  shared.r.blocks = count;
  // The run's ends on every rank: the estimate the reports and the critical path's length read.
  const std::int64_t ends[] = {shared.r.makespan_ns, shared.r.last_end_ns};
  const std::vector<std::int64_t> run_ends = combine_over_ranks(net, ends, Combine::max);
  shared.r.makespan_ns = run_ends[0];
  shared.r.last_end_ns = run_ends[1];
  shared.r.over_ranks = keep_for_analyses(net, prepared->local, prepared->whole_vertices);
  return std::move(shared.r);
}

}  // namespace rr::replay
