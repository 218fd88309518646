// A replay's course: the shared state set up, the split into blocks worked out beside it, then one engine or the
// blocks' engines, and the result put together (docs/replay.md).
#include "replay/replay_engine.hpp"

#include <oneapi/tbb/parallel_invoke.h>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "replay/src/assemble_result.hpp"
#include "replay/src/block_mail.hpp"
#include "replay/src/block_protocol.hpp"
#include "replay/src/engine.hpp"
#include "replay/src/network_replay.hpp"
#include "replay/src/partition.hpp"
#include "replay/src/shared_state.hpp"

namespace rr::replay {

const char* unlogged_time_name(UnloggedTime u) { return u == UnloggedTime::measured ? "measured" : "instant"; }
const char* queue_order_name(QueueOrder o) { return o == QueueOrder::observed ? "observed" : "ready"; }

core::Expected<ReplayResult> run_replay(const graph::EventGraph& g, const MachineMap& map,
                                        const machine::MachineModel& model, const ReplayOptions& options) {
  if (options.execution.network) return run_over_network(g, map, model, options);
  SharedState shared;
  const Noise noise = options.rules.noise;
  Partition partition;
  std::optional<core::InputError> copy_error;
  // A stop time (ReplayOptions::stop_after_ns) is one engine's: its rounds are the ones it asks about.
  if (options.execution.blocks < 2 || options.stop_after_ns != kNoStop) {
    copy_error = plan_copies(g, map, model, shared);
    if (!copy_error) init_shared(g, map, model, noise, shared);
  } else {
    // The split reads the graph and the copies' routes: it is worked out while the shared state is set up.
    Handoff handoff;
    handoff.give();
    oneapi::tbb::parallel_invoke(
        [&] {
          handoff.take();
          init_shared(g, map, model, noise, shared);
          handoff.give();
        },
        [&] {
          handoff.take();
          copy_error = plan_copies(g, map, model, shared);
          if (!copy_error)
            partition = partition_by_node(g, map, model, shared.copies, noise, options.execution.blocks,
                                          {options.execution.min_block_operations, options.execution.min_lookahead_ns});
          handoff.give();
        });
    handoff.take();
  }
  if (copy_error) return *copy_error;
  std::vector<BlockOutput> outputs;
  if (partition.count < 2) {
    const std::unique_ptr<Engine> engine = make_engine(g, map, model, options, shared);
    if (auto error = engine->init_block()) return error->second;
    engine->run_alone();
    outputs.push_back(engine->take_output());
  } else {
    shared.r.blocks = partition.count;
    auto split = run_split(g, map, model, options, shared, std::move(partition));
    if (!split) return split.error();
    outputs = std::move(*split);
  }
  shared.r.cut_off = outputs.front().tally.cut_off;
  assemble_result(g, map, options.detail.stuck_examples, shared, outputs);
  return std::move(shared.r);
}

}  // namespace rr::replay
