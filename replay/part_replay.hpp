// One replay over ranks in which each rank holds only its part of the graph (graph::build_graph_part) and replays
// its block from it (docs/scale.md, "The replay from parts"): no rank holds an array over the whole graph's vertices.
// Each rank ends with the records of its own operations, equal field by field to one engine's on the whole graph.
#pragma once

#include "core/result.hpp"
#include "graph/graph_part.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "graph/rank_exchange.hpp"
#include "replay/block_network.hpp"
#include "replay/replay_engine.hpp"
#include "replay/replay_result.hpp"

namespace rr::replay {

// Runs on every rank at once, with the part this rank built, `ranks` the split the parts were built with (its nodes
// the model's), `exchange` for the replay's rounds before its first event, and options.execution.network the
// exchange's network (an exchange that keeps what is not its own for the replay, as NetworkRankExchange does; then
// the replay may run again and again on them, as the what-ifs do). Any placement, without function moves or a node
// map, on a model whose nodes share no cores and whose processors do not start up, without a stop time: anything
// else, or a replay the split cannot serve, is refused by every rank alike. A rank that fails before the replay
// begins stops every rank, naming it.
//
// The result's per-operation arrays (ops, processor_of) are indexed like the part (GraphPart::ids) and name other
// operations (released_by) by their whole-graph ids. The sums are this rank's: its processors' busy time, its
// channel instances (listed by channel and node, timeline tracks numbered over them), its paths, its operations and
// their latest end (makespan_ns), its intervals (whole ids), its stuck operations (counted, no examples).
core::Expected<ReplayResult> run_part_over_network(const graph::GraphPart& part, const graph::NodeRanks& ranks,
                                                   graph::RankExchange& exchange, const MachineMap& map,
                                                   const machine::MachineModel& model, const ReplayOptions& options);

}  // namespace rr::replay
