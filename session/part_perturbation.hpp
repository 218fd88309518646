// The estimate's distribution under noise (session/perturbation.hpp) over ranks that each hold only their part of
// the graph: each sample is one replay from parts (replay/part_replay.hpp) with the sample's noise, run by every
// rank in turn, its estimate the latest end over the ranks (docs/scale.md, "The replay from parts"). The noise of
// each duration depends only on the sample's seed and the operation's whole-graph id, so each sample gives what one
// process's replay of it gives, and the distribution is one process's.
#pragma once

#include <memory>

#include "core/result.hpp"
#include "graph/graph_part.hpp"
#include "graph/rank_exchange.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/part_replay.hpp"
#include "replay/replay_engine.hpp"
#include "session/perturbation.hpp"

namespace rr::session {

// Runs on every rank at once, on the part prepared for the run (replay::prepare_part) with the run's `map`, `model`
// and `options` (options.execution.network set: the exchange's network). Sample after sample, as one process's
// perturbed_estimates replays them (request.threads unused: each rank's replay is one engine). Every rank gets the
// distribution; a sample that fails on any rank (the replay from parts refusing it, a network failure) ends them
// all with its error on every rank, the rank's own or that it failed on another rank.
core::Expected<EstimateDistribution> perturbed_estimates_from_part(
    const std::shared_ptr<const replay::PreparedPart>& prepared, const graph::NodeRanks& ranks,
    graph::RankExchange& exchange, const replay::MachineMap& map, const machine::MachineModel& model,
    const replay::ReplayOptions& options, const PerturbationRequest& request);

}  // namespace rr::session
