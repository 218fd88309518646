// The delay rule of DESIGN §3 ("Distance"), shared by the engine and the critical-path analysis.
#pragma once

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"

namespace rr::replay {

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

}  // namespace rr::replay
