// Per-operation facts a table of the replay needs beside its times (the SQL export, the Python module): where
// each operation ran, its function, its bytes. Computed once from the graph, the mapping and the result.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"

namespace rr::replay {

struct OperationColumns {
  // Model node: a task segment's processor's, a copy's destination's, else its issuing task's; -1 when none.
  std::vector<std::int32_t> node;
  std::vector<std::int32_t> processor;  // model processor of a task segment; -1 otherwise
  std::vector<std::int64_t> function;   // task function of a task segment; -1 otherwise
  std::vector<std::int64_t> bytes;      // copies: the Copy Size, else the machine's default; -1 otherwise
  std::vector<std::uint8_t> bytes_known;  // 1 where a copy's bytes come from a Copy Size
};

OperationColumns operation_columns(const graph::EventGraph& g, const MachineMap& map,
                                   const machine::MachineModel& model, const ReplayResult& r);

}  // namespace rr::replay
