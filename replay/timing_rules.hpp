// The delay rule (docs/replay.md, Replay rules: Distance), shared by the engine and the critical-path analysis.
#pragma once

#include "core/saturating.hpp"
#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"

namespace rr::replay {

// What a copy moves on the model: its Copy Size, or the model's default_copy_bytes when the trace has none.
inline std::uint64_t copy_bytes(const graph::CopyInfo& copy, const machine::MachineModel& model) {
  return copy.bytes == graph::kNoValue ? model.default_copy_bytes : copy.bytes;
}

// Time between u's event (or u issuing v) and v seeing it: the network latency (plus the remote trigger
// cost) across nodes, the local trigger cost on one node; nothing along a task's own segments or phases.
inline machine::TimeNs edge_delay_ns(const graph::EventGraph& g, const MachineMap& map,
                                     const machine::MachineModel& model, graph::VertexId u, graph::VertexId v,
                                     graph::EdgeKind kind) {
  if (kind == graph::EdgeKind::continuation || kind == graph::EdgeKind::phase_order) return 0;
  const std::uint32_t nu = g.node(u) == graph::kNoNode ? graph::kNoNode : map.fold(g.node(u));
  const std::uint32_t nv = g.node(v) == graph::kNoNode ? graph::kNoNode : map.fold(g.node(v));
  const bool remote = nu != graph::kNoNode && nv != graph::kNoNode && nu != nv;
  if (kind == graph::EdgeKind::issue) return remote ? model.network_latency_ns : 0;
  return remote ? model.network_latency_ns + model.runtime.trigger_remote_ns : model.runtime.trigger_local_ns;
}

// An implied copy (docs/mapping.md, rule 3): task u's finish event is task v's precondition, the two lived in
// the same memory as traced, so the trace logged no copy between them, and a moved function now puts them in
// different memories (a GPU's framebuffer, host memory). The data then has to move: runtime.default_copy_bytes
// (the trace does not say how much), over the model's path between the two, for its transfer time; no channel
// lane is held. u's kind is the one it ran on, v's the one its function is mapped to. 0 when nothing moved.
// Utility processors run the runtime's own work (meta-tasks): their dependencies carry no application data.
inline machine::TimeNs implied_copy_ns(const graph::EventGraph& g, const MachineMap& map,
                                       const machine::MachineModel& model, const ReplayResult& r, graph::VertexId u,
                                       graph::VertexId v) {
  if (map.mapping().moves.empty() || g.kind(v) != graph::OpKind::task) return 0;
  if (g.kind(u) != graph::OpKind::task && g.kind(u) != graph::OpKind::task_resume) return 0;
  const graph::VertexId ut = g.task_of(u);
  const graph::TaskInfo& a = g.task(ut);
  const graph::TaskInfo& b = g.task(v);
  const auto traced_a = map.traced_kind(a.processor.value()), traced_b = map.traced_kind(b.processor.value());
  if (traced_a == core::ProcessorKind::utility || traced_b == core::ProcessorKind::utility) return 0;
  if (home_memory(traced_a) != home_memory(traced_b)) return 0;  // the trace's own copies carry this one
  const std::uint32_t p = r.processor_of[u];
  const auto ran_a = p < map.processors().size() ? map.processors()[p].kind : map.task_kind(a.func_id, a.processor.value());
  const auto runs_b = map.task_kind(b.func_id, b.processor.value());
  if (home_memory(ran_a) == home_memory(runs_b)) return 0;
  const bool remote = map.fold(g.node(ut)) != map.fold(g.node(v));
  const machine::CopyPath* path = model.path(home_memory(ran_a), home_memory(runs_b), remote);
  if (!path) return 0;
  machine::TimeNs total = 0;
  for (auto hop : path->hops) total = core::saturating_add(total, model.transfer_ns(model.channels[hop], model.default_copy_bytes));
  return total;
}

}  // namespace rr::replay
