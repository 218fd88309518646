// Test helper: a replay from parts (replay/part_replay.hpp) with the ranks as threads on an in-process network that
// shuffles messages from different ranks: every rank reads its own files, builds its part and replays from it, then
// runs what the test asks of its result while the network is still there (the analyses that go on over the ranks).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/graph_part.hpp"
#include "machine_models/mapping.hpp"
#include "replay/machine_map.hpp"
#include "replay/part_exchange.hpp"
#include "replay/part_replay.hpp"
#include "session/session.hpp"
#include "support/failing_exchange.hpp"
#include "support/graph_part_text.hpp"
#include "support/in_process_network.hpp"
#include "support/ranks_as_threads.hpp"

namespace rr::testing {

// What one rank ends with: its part's ids and its result, or why it stopped.
struct PartRun {
  std::vector<graph::VertexId> ids;
  std::optional<replay::ReplayResult> result;
  std::string error;
};

// Called on each rank whose replay succeeded, on that rank's thread, with its machine map and its result.
using AfterPartReplay =
    std::function<void(std::uint32_t rank, const replay::MachineMap& map, const replay::ReplayResult& result)>;

// How the parts are split at `count` ranks: by node (`model_nodes` of them), or, when the settings' mapping folds or
// maps nodes, by the model node it gives each traced node (machine::fold_nodes, as MachineMap folds).
inline graph::NodeRanks split_for(const session::LoadedTrace& trace, const session::ReplaySettings& settings,
                                  std::uint32_t count, std::uint32_t model_nodes) {
  const machine::MappingSpec& mapping = settings.mapping;
  if (mapping.fold == 0 && mapping.nodes.rule == machine::NodeMapRule::cyclic) return {count, model_nodes, {}};
  auto fold = machine::fold_nodes(mapping, replay::MachineMap::traced_node_count(trace.records));
  if (!fold) throw std::invalid_argument(fold.error().to_string());
  return {count, fold->model_nodes, std::move(*fold)};
}

// `count` ranks on a network shuffled by `seed`, the parts built for `model_nodes` nodes (split_for). `failing` fails
// its exchange number `fail_at` (FailingExchange): the part build's six exchanges come first, then the replay's own.
inline std::vector<PartRun> run_parts(const session::LoadedTrace& trace, const machine::MachineModel& model,
                                      const session::ReplaySettings& settings, std::uint32_t count, std::uint64_t seed,
                                      std::uint32_t model_nodes, const AfterPartReplay& after = {},
                                      std::uint32_t failing = ~0u, std::uint32_t fail_at = 0) {
  const graph::NodeRanks ranks = split_for(trace, settings, count, model_nodes);
  std::vector<RankFiles> by_rank = read_by_rank(trace.records, ranks);
  InProcessNetwork net(count, seed);
  return on_ranks(net, count, [&](std::uint32_t r, replay::BlockNetwork& end) {
    PartRun out;
    auto map = replay::MachineMap::build(*by_rank[r].records, model, settings.mapping);
    if (!map) {
      out.error = map.error().to_string();
      return out;
    }
    replay::NetworkRankExchange network_exchange(end);
    FailingExchange failing_exchange(network_exchange, r == failing ? fail_at : 0);
    try {
      graph::GraphPart part = graph::build_graph_part(by_rank[r].files, ranks, failing_exchange);
      part.function_names = trace.graph().function_names();  // (as a names file gives every rank them)
      out.ids = part.ids;
      replay::ReplayOptions options = settings.engine;
      options.execution.network = &end;
      auto run = replay::run_part_over_network(part, ranks, failing_exchange, *map, model, options);
      if (!run) {
        out.error = run.error().to_string();
        return out;
      }
      out.result = std::move(*run);
      if (after) after(r, *map, *out.result);
    } catch (const std::exception& e) {
      out.error = e.what();
    }
    return out;
  });
}

}  // namespace rr::testing
