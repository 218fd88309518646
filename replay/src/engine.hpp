// The discrete-event core of the replay (docs/replay.md, "The replay"): an event queue ordered by (time, vertex,
// kind), processors with priority queues (groups share queues), channel instances with lanes, barrier phases
// counting arrivals, and the cores a node's threads share (core_share.hpp). Contributions to max-joins are applied
// eagerly (max is order-free); only count-based barrier arrivals go through the queue in time order. One engine
// replays the whole graph, or one block of a split replay, talking to the others through its BlockLink
// (block_protocol.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

#include "core/diagnostics.hpp"
#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/event_queue.hpp"
#include "replay/machine_map.hpp"
#include "replay/operation_records.hpp"
#include "replay/replay_engine.hpp"
#include "replay/src/assemble_result.hpp"
#include "replay/src/shared_state.hpp"

namespace rr::replay {

class BlockLink;
struct Deferred;

// What the replay's course (run_replay) and the split protocol (BlockLink) ask of an engine. The engine itself, its
// state and its event handlers, is one class in engine.cpp, known only there, so that the compiler folds the
// handlers into the round loop: with them callable from other files, the replay of a 32-node S3D trace ran 6.6%
// more instructions.
class Engine {
 public:
  virtual ~Engine() = default;

  // This block's own state, and its operations that wait for nothing (or only for an unrecorded event). Fails
  // on the lowest task (the one returned with the error) whose processor kind the model lacks.
  virtual std::optional<std::pair<graph::VertexId, core::InputError>> init_block() = 0;
  // The whole replay on this engine alone.
  virtual void run_alone() = 0;
  // One round: the events of one instant, then idle processors and lanes pick from all that is ready.
  virtual void run_round() = 0;
  virtual BlockOutput take_output() = 0;

  // ---- what the split protocol asks of a block's engine ----
  virtual bool has_events() const = 0;
  // When this block's next round is: the present while the instant goes on, else its earliest queued event.
  virtual TimeNs next_event_time() = 0;
  // Whether (t, round) comes before this block's own next round: (now, round) while the instant goes on.
  virtual bool before_next_round(TimeNs t, std::uint32_t round) = 0;
  virtual bool began() const = 0;
  virtual TimeNs now() const = 0;
  // Applies one input to v, arriving at time t from `from`; schedules v when its last input is in. An input of
  // another block's operation is mailed to that block.
  virtual void contribute(graph::VertexId v, TimeNs t, graph::VertexId from, Release why) = 0;
  // Queues an event at t, no earlier than the present.
  virtual void push(TimeNs t, graph::VertexId v, EventType type, std::uint32_t aux) = 0;
  // The instance of `channel` on `node`, numbered at first use.
  virtual std::uint32_t instance(std::uint32_t channel, std::uint32_t node) = 0;
  // A shared instance's change that waited for the other blocks: a lane freed, or a hop waiting for one.
  virtual void change_lanes(const Deferred& d) = 0;
  // The instance's free lanes start its earliest waiting transfers, at `at`.
  virtual void give_lanes(std::uint32_t inst, TimeNs at) = 0;
};

// An engine on shared state already set up (plan_copies, init_shared): of the whole graph when `link` is null,
// else of the link's block.
std::unique_ptr<Engine> make_engine(const graph::EventGraph& g, const MachineMap& map,
                                    const machine::MachineModel& model, const ReplayOptions& options,
                                    SharedState& shared, BlockLink* link = nullptr);

}  // namespace rr::replay
