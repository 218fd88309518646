// The discrete-event replay of an EventGraph on a machine model (DESIGN §3), deterministic in int64 ns.
#pragma once

#include <cstdint>

#include "graph/event_graph.hpp"
#include "core/result.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"

namespace rr::replay {

struct ReplayOptions {
  bool record_intervals = false;      // keep every busy interval for a timeline
  std::size_t stuck_examples = 10;    // stuck operations described in the result
};

// Replays `g`. Fails (before replaying) when a copy needs a path the model does not describe.
core::Expected<ReplayResult> run_replay(const graph::EventGraph& g, const MachineMap& map,
                                      const machine::MachineModel& model, const ReplayOptions& options = {});

}  // namespace rr::replay
