// Stages of a replay over ranks that a replay of the whole graph (network_replay.cpp) and a replay from parts
// (part_replay.cpp) go through alike.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/diagnostics.hpp"
#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/block_network.hpp"
#include "replay/src/block_protocol.hpp"
#include "replay/src/block_result_wire.hpp"
#include "replay/src/engine.hpp"
#include "replay/src/network_pump.hpp"

namespace rr::replay {

struct LocalGraph;

using InitError = std::optional<std::pair<graph::VertexId, core::InputError>>;

// The blocks' uint8 numbers bound the ranks (Partition::of_vertex).
constexpr std::uint32_t kMaxRanks = 255;

// Why `ranks` ranks cannot replay a model of `model_nodes` nodes, or nothing.
std::optional<core::InputError> too_many_ranks(std::uint32_t ranks, std::uint32_t model_nodes);

// Every rank tells every other whether its block could be set up; the error of the lowest task (by the vertex id
// each gives, the whole graph's), as on one engine.
std::optional<core::InputError> agree_on_start(BlockNetwork& net, Inbox& inbox, const InitError& mine,
                                               const machine::MachineModel& model);

// Sends each other rank x the starts in to[x] (copies of x whose first hop this rank ran) and returns the starts
// the other ranks sent this one, which make its copies' records whole. In the same message each rank sends every
// other its own block's processor start-ups (`start_ups`: this rank's in, every rank's out, in the result's order,
// order_start_ups): a few per processor at most, so every rank holds the run's, as one engine's result lists them,
// and the critical path's walk finds on whichever rank it is the start-ups that froze that rank's nodes
// (PathWalk::frozen_within).
std::vector<CopyStart> trade_copy_starts(BlockNetwork& net, Inbox& inbox, std::vector<std::vector<CopyStart>> to,
                                         std::vector<StartUp>& start_ups);

// This rank's block, replayed with the others over the network until no rank has anything left. With `local`, its
// engine numbers vertices locally (part_mail.hpp).
void replay_block(BlockNetwork& net, Inbox& inbox, Blocks& blocks, BlockLink& link, Engine& engine,
                  const LocalGraph* local = nullptr);

}  // namespace rr::replay
