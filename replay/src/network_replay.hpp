// One replay over processes (docs/scale.md, "One replay over MPI ranks"): each rank replays the block of its
// model nodes, the partition of a replay on threads with one block per rank, exchanging the same mail over the
// network (network_pump.hpp); rank 0 gathers the blocks' parts into the one engine's result.
#pragma once

#include "core/result.hpp"
#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_engine.hpp"

namespace rr::replay {

// Runs on every rank with the same arguments (options.execution.network not null). Every rank holds the whole
// graph today, so what depends only on the graph and the model (the partition, a missing path, too many ranks)
// each decides alike without a word. A replay the split cannot serve (a stop time, something that
// crosses blocks without delay) runs on rank 0 alone, which says so (BlockNetwork::note).
core::Expected<ReplayResult> run_over_network(const graph::EventGraph& g, const MachineMap& map,
                                              const machine::MachineModel& model, const ReplayOptions& options);

}  // namespace rr::replay
