// What every block of one replay shares, and its set-up before any engine runs: the result's per-operation
// arrays, each operation's count of inputs, each barrier phase's arrivals and each copy's plan. Each
// operation's entries are written by the block that owns it at the time (a copy's hop by the block of the
// hop's channel), which mail between blocks orders (docs/replay.md).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "core/diagnostics.hpp"
#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"
#include "replay/task_timing.hpp"
#include "replay/timing_rules.hpp"

namespace rr::replay {

// A copy's route, 16 bytes: its path is the one of its usage slot (one slot per source kind, destination kind and
// scope, so one path), and its size is read from the graph.
struct CopyPlan {
  static constexpr std::uint32_t kRemoved = ~0u;  // a mapping removed the copy: no path
  std::uint32_t src_node = 0;
  std::uint32_t dst_node = 0;
  std::uint32_t path_slot = kRemoved;  // index into CopyPlans::path_names and slot_path, and a block's path usage
  std::uint32_t hop = 0;  // the hop in progress
};
static_assert(sizeof(CopyPlan) == 16);

// Every copy's plan, and the paths they take. Plans are indexed by the copy's payload (EventGraph::copy_count): a
// copy is one vertex in nine, so a slot per vertex would be mostly empty and spread the hot state.
struct CopyPlans {
  std::vector<CopyPlan> plans;
  std::map<std::tuple<core::MemoryKind, core::MemoryKind, bool>, std::uint32_t> slot_of;  // (src, dst, remote)
  std::vector<std::string> path_names;               // by slot
  std::vector<const machine::CopyPath*> slot_path;   // by slot

  const machine::CopyPath& path_of(const CopyPlan& plan) const { return *slot_path[plan.path_slot]; }
  // The node whose instance of the channel a copy's hop holds.
  std::uint32_t hop_node(const machine::MachineModel& model, const CopyPlan& plan, std::uint32_t hop) const {
    const std::uint32_t channel = path_of(plan).hops[hop];
    return model.channels[channel].destination_side ? plan.dst_node : plan.src_node;
  }
};

// How long copy c holds a lane of `channel`, with the run's noise: one rule for the engine and the partition.
inline TimeNs hop_ns(const graph::EventGraph& g, const machine::MachineModel& model, const TaskTiming& timing,
                     std::uint32_t channel, graph::VertexId c) {
  return timing.perturbed(model.transfer_ns(model.channels[channel], copy_bytes(g.copy(c), model)), c);
}

// A barrier phase's arrivals so far, indexed by the phase's payload (a phase is one vertex in two hundred).
struct PhaseState {
  std::int64_t arrived = 0;
  bool previous_done = false;
  bool fired = false;
};

struct SharedState {
  ReplayResult r;
  std::vector<PhaseState> phase;
  CopyPlans copies;
};

// Plans every copy's route (copy_route) and finds its path once per usage slot. Fails when a copy needs a path the
// model does not describe. Writes only `copies` and the result's copy counters, so it may run beside init_shared.
std::optional<core::InputError> plan_copies(const graph::EventGraph& g, const MachineMap& map,
                                            const machine::MachineModel& model, SharedState& s);

// What depends on the operations left out of the estimate (ReplayResult::after_untimed), among the vertices
// `counted` takes: those `outside` marks that are neither left out themselves (a task without Task Time, outside
// work) nor a later segment of a marked task (the same task, counted once). A rule on each vertex and its marked
// inputs, not on the order a search reaches them in, so that ranks that each count their own add up to the whole.
std::uint64_t count_after_untimed(const graph::EventGraph& g, const std::vector<char>& outside,
                                  const std::function<bool(graph::VertexId)>& counted);

// The result's arrays, each operation's count of inputs, the phases, and what is left out of the estimate. On a
// model whose nodes share cores (shares_cores), the issue times too (ReplayResult::issued_at): sized here, before
// the blocks of a split run, each writing the actions its own work issues.
void init_shared(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model, Noise noise,
                 SharedState& s);

}  // namespace rr::replay
