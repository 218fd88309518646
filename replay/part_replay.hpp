// One replay over ranks in which each rank holds only its part of the graph (graph::build_graph_part) and replays
// its block from it (docs/scale.md, "The replay from parts"): no rank holds an array over the whole graph's vertices.
// Each rank ends with the records of its own operations, equal field by field to one engine's on the whole graph.
#pragma once

#include <memory>

#include "core/result.hpp"
#include "graph/graph_part.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "graph/rank_exchange.hpp"
#include "replay/block_network.hpp"
#include "replay/replay_engine.hpp"
#include "replay/replay_result.hpp"

namespace rr::replay {

// Runs on every rank at once, with the part this rank built, `ranks` the split the parts were built with (the traced
// nodes that share a model node of `map` must be on one rank: a fold or node map splits them by the map's fold),
// `exchange` for the replay's rounds before its first event, and options.execution.network the exchange's network
// (an exchange that keeps what is not its own for the replay, as NetworkRankExchange does; then the replay may run
// again and again on them, as the what-ifs do). Any placement and node map, without function moves, on any model
// (shared cores and start-ups included), without a stop time: anything else, or a replay the split cannot serve, is
// refused by every rank alike. A rank that fails before the replay
// begins stops every rank, naming it.
//
// The result's per-operation arrays (ops, processor_of) are indexed like the part (GraphPart::ids) and name other
// operations (released_by) by their whole-graph ids. The run's estimate and latest end (makespan_ns, last_end_ns)
// are the whole run's on every rank. The other sums are this rank's, so that added over the ranks they are one
// engine's: its processors' busy time, its paths, its operations, its stuck operations (counted, no examples), and
// the counts of its own operations (tasks without time, what depends on them, copies of the model's default size,
// waits measured or clamped). Its channel instances: its own, or,
// when it records intervals, every rank's as one engine lists them (the timeline's tracks); its intervals: those of
// its own operations (whole ids, in the timeline's order), a copy's hops on other ranks' channels included. Its
// start-ups: every rank's, in one engine's order. Its issue times (ReplayResult::issued_at, on shared cores or with
// start-ups): those of the actions its own work issued, by vertex of its view (graph_of_part, ghosts included).
//
// The result's over_ranks keeps the network and the graph this rank replayed on, so that the analyses run over the
// ranks as after a replay of the whole graph: replay::critical_path(graph_of_part(r), map, model, r) on every rank
// at once (rank 0 gets the steps, named by whole id with their events, every rank the sums and the lower bound), and
// the timeline (replay/timeline_stream.hpp) with each interval found by place_of.
core::Expected<ReplayResult> run_part_over_network(const graph::GraphPart& part, const graph::NodeRanks& ranks,
                                                   graph::RankExchange& exchange, const MachineMap& map,
                                                   const machine::MachineModel& model, const ReplayOptions& options);

// A rank's graph for replays from parts, made once from its part: its own vertices and the ghosts it trades with the
// other ranks for them (one round of exchanges, every rank at once). The run and each of its what-ifs replay on it,
// so the part need not stay: it is used up, its arrays freed as the view takes them in (at 4 ranks of a 1,024-node
// S3D trace the part is about a third of a rank's peak). It serves any model whose copies take its model's routes
// (the same copy paths, each channel's instance on the same side): what a what-if changes (lanes, processor counts,
// speeds, placement) leaves them, under `map`'s node fold or, when given, `also`'s (the traced machine's fit
// replays the trace unfolded, on parts split by the run's fold: its map is `map`, the run's `also`).
struct PreparedPart;
core::Expected<std::shared_ptr<const PreparedPart>> prepare_part(graph::GraphPart part,
                                                                 const graph::NodeRanks& ranks,
                                                                 graph::RankExchange& exchange, const MachineMap& map,
                                                                 const machine::MachineModel& model,
                                                                 const ReplayOptions& options,
                                                                 const MachineMap* also = nullptr);
// The replay from a prepared part, as above; a model whose copies take other routes, or a map that folds the nodes
// otherwise than those it was prepared for, is refused by every rank alike.
core::Expected<ReplayResult> run_part_over_network(const std::shared_ptr<const PreparedPart>& prepared,
                                                   const graph::NodeRanks& ranks, graph::RankExchange& exchange,
                                                   const MachineMap& map, const machine::MachineModel& model,
                                                   const ReplayOptions& options);

// Whether `r` is a replay from parts (run_part_over_network).
bool from_parts(const ReplayResult& r);

// The graph a replay from parts ran on, which what reads its result by vertex reads: this rank's own vertices and
// their ghosts, numbered in ascending whole-graph id (EventGraph::whole_id gives each one's). It lives as long as
// the result (or a copy of it). std::logic_error for a result that is not from parts.
const graph::EventGraph& graph_of_part(const ReplayResult& r);

// Where a report finds an operation named by its whole-graph id (an interval's, a step's): its vertex in the graph
// the result was replayed on (graph_of_part from parts, else the whole graph: the id itself) and its record's index
// in r.ops and r.processor_of (kNoVertex when this rank does not hold it). The vertex is kNoVertex when this rank's
// view lacks the operation.
struct OperationPlace {
  graph::VertexId vertex = graph::kNoVertex;
  graph::VertexId record = graph::kNoVertex;
};
OperationPlace place_of(const ReplayResult& r, graph::VertexId whole);

}  // namespace rr::replay
