// Per-operation facts for tables of the replay (operation_columns.hpp).
#include "replay/operation_columns.hpp"

#include "replay/copy_route.hpp"
#include "replay/timing_rules.hpp"

namespace rr::replay {

OperationColumns operation_columns(const graph::EventGraph& g, const MachineMap& map,
                                   const machine::MachineModel& model, const ReplayResult& r) {
  const std::size_t n = g.vertex_count();
  const auto& procs = map.processors();
  OperationColumns c;
  c.node.assign(n, -1);
  c.processor.assign(n, -1);
  c.function.assign(n, -1);
  c.bytes.assign(n, -1);
  c.bytes_known.assign(n, 0);
  auto processor_node = [&](graph::VertexId v) -> std::int32_t {
    return v < r.processor_of.size() && r.processor_of[v] != ~0u ? static_cast<std::int32_t>(procs[r.processor_of[v]].node)
                                                                  : -1;
  };
  for (graph::VertexId v = 0; v < n; ++v) {
    const graph::OpKind kind = g.kind(v);
    if (kind == graph::OpKind::task || kind == graph::OpKind::task_resume) {
      const graph::VertexId task = g.task_of(v);
      c.function[v] = g.task(task).func_id;
      if (r.processor_of[v] != ~0u) c.processor[v] = static_cast<std::int32_t>(r.processor_of[v]);
      c.node[v] = processor_node(v);
    } else if (kind == graph::OpKind::copy) {
      const graph::CopyInfo& info = g.copy(v);
      c.bytes_known[v] = info.bytes != graph::kNoValue;
      c.bytes[v] = static_cast<std::int64_t>(copy_bytes(info, model));
      c.node[v] = static_cast<std::int32_t>(copy_route(g, map, v).dst_node);
    }
    // Runtime operations (merges, triggers, arrivals, phases) run where their issuing task ran.
    if (c.node[v] < 0 && g.issuer(v) != graph::kNoVertex) c.node[v] = processor_node(g.issuer(v));
  }
  return c;
}

}  // namespace rr::replay
