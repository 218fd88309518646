// Slack: how much later each operation could end without moving the end of the run, from one backward pass over
// the replayed schedule (docs/replay.md, "Slack").
#pragma once

#include <vector>

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"

namespace rr::replay {

// No bound: the operation never ran, or nothing the estimate counts comes after it.
inline constexpr TimeNs kUnboundedSlack = -1;

// Per vertex: the most its end could move later, with every edge's replayed delay, every issue at its place in
// its issuer's work, and each processor's and copy lane's order as replayed, without moving the estimate. An
// operation moved later moves whole: its issues move with it. A copy keeps its place on the lane of its first
// hop (the lanes are worked out again from the copies' times: the replay does not keep them).
std::vector<TimeNs> operation_slack(const graph::EventGraph& g, const MachineMap& map,
                                    const machine::MachineModel& model, const ReplayResult& r);

// Operations with slack under 1% of the estimate (and bounded): the critical path and those nearly on it.
inline TimeNs near_critical_slack(TimeNs estimate_ns) { return estimate_ns / 100; }

}  // namespace rr::replay
