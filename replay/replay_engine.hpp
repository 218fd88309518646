// The discrete-event replay of an EventGraph on a machine model (docs/replay.md), deterministic in int64 ns.
#pragma once

#include <cstdint>
#include <limits>

#include "graph/event_graph.hpp"
#include "core/result.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/block_network.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"

namespace rr::replay {

// What the replay does with time the trace measured but no record explains: a Task Wait on an event that no
// record produces (a lock grant, an unlogged internal event) lasts its measured duration (`measured`), or ends
// at once (`instant`, as if the event had fired at t=0).
enum class UnloggedTime : std::uint8_t { measured, instant };
const char* unlogged_time_name(UnloggedTime u);

// Which of the segments waiting for a processor goes first (after the trace's task priorities): the one ready
// first (`ready`), or, on traces that record when every operation ran (Legion Prof logs), the one the traced run
// started first (`observed`: Legion gives its meta-tasks priorities the log does not keep; the run's own order
// stands in for them). `observed` falls back to `ready` where the trace has no observed times.
enum class QueueOrder : std::uint8_t { observed, ready };
const char* queue_order_name(QueueOrder o);

// What the replay models beyond the trace and the machine: a change to any of these changes the result.
struct ReplayRules {
  UnloggedTime unlogged = UnloggedTime::measured;
  QueueOrder queue_order = QueueOrder::observed;
  // Multiplicative lognormal noise on every duration (task busy time, copy transfers, measured waits): each
  // operation's factor is exp(sigma·z − sigma²/2), z standard normal drawn from (seed, operation), so its
  // mean is 1 and a run depends only on the seed. sigma 0: no noise.
  Noise noise;
};

// How the replay is run: never what it gives. One replay split by model node into up to `blocks` blocks, each
// replayed by its own engine on oneTBB threads (docs/replay.md): the same result as one engine, byte for byte.
// 1: one engine. One engine too where the split cannot be made (something crosses blocks without delay), or
// would not pay: fewer than min_block_operations operations per block, or a lookahead under min_lookahead_ns
// (ReplayResult::blocks says how many there were).
struct ReplayExecution {
  std::uint32_t blocks = 1;
  std::uint32_t threads = 0;  // workers for the blocks; 0: one per block
  std::uint32_t min_block_operations = 150000;
  std::int64_t min_lookahead_ns = 1000;
  // Not null: the replay runs over processes, one block per rank, this process being the network's rank
  // (docs/scale.md, "One replay over MPI ranks"). blocks, threads and the two limits above are not used then.
  // Rank 0 gets the whole result; what another rank gets holds only its own block's part.
  BlockNetwork* network = nullptr;
};

// What the result keeps beyond the times of every operation.
struct ResultDetail {
  bool record_intervals = false;      // keep every busy interval for a timeline
  std::size_t stuck_examples = 10;    // stuck operations described in the result
};

// No stop time (ReplayOptions::stop_after_ns): the replay runs to its end.
inline constexpr TimeNs kNoStop = std::numeric_limits<TimeNs>::max();

struct ReplayOptions {
  ReplayRules rules;
  ReplayExecution execution;
  ResultDetail detail;
  // A replay that only has to say whether its estimate beats a time (realm-replay tune) stops once its time passes
  // this with operations of the estimate still to finish: its makespan is then known to be more than this, and the
  // result says it was cut off (ReplayResult::cut_off). A replay whose estimate is done by this time is the same
  // with it as without. Such a replay runs on one engine (execution.blocks is not used). kNoStop: none.
  TimeNs stop_after_ns = kNoStop;
};

// Whether `r` is this rank's part of a replay split over ranks (ReplayExecution::network): then what goes on from it
// (its critical path, the what-if replays that follow) runs over every rank. False in one process, and on every
// rank of a replay that ran on rank 0 alone.
bool split_over_ranks(const ReplayResult& r);

// Whether this process counts v's record as its own, so that sums over the ranks take each operation once: in one
// process every record; over ranks the records of this rank's block (rank 0 also holds the others', gathered), or
// of a replay that ran on rank 0 alone, rank 0's.
bool owns_record(const ReplayResult& r, graph::VertexId v);

// Replays `g`. Fails (before replaying) when a copy needs a path the model does not describe.
core::Expected<ReplayResult> run_replay(const graph::EventGraph& g, const MachineMap& map,
                                      const machine::MachineModel& model, const ReplayOptions& options = {});

}  // namespace rr::replay
