// The copy-route rule: memories mapped to model nodes, global memory counted as remote.
#include "replay/copy_route.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace rr::replay {

namespace {

using graph::EdgeKind;
using graph::OpKind;
using graph::VertexId;

// Dependencies pass through merges: at most this many vertices are visited looking for the tasks a copy feeds
// or drains, which bounds the cost on wide merge trees.
constexpr std::size_t kWalkLimit = 256;

// The first task (vertex order) reached from `from` forward (or backward) through merges whose function is moved
// and whose traced home memory on its node is `place`; returns the home memory of the kind it runs on.
std::optional<core::MemoryKind> moved_home(const graph::EventGraph& g, const MachineMap& map, VertexId from,
                                           bool forward, core::MemoryKind kind, std::uint32_t node) {
  std::vector<VertexId> todo{from}, tasks;
  std::size_t visited = 0;
  while (!todo.empty() && visited++ < kWalkLimit) {
    const VertexId v = todo.back();
    todo.pop_back();
    auto next = forward ? g.successors(v) : g.predecessors(v);
    auto kinds = forward ? g.successor_kinds(v) : g.predecessor_kinds(v);
    for (std::size_t i = 0; i < next.size(); ++i) {
      if (kinds[i] != EdgeKind::precondition && kinds[i] != EdgeKind::merge_input) continue;
      if (g.kind(next[i]) == OpKind::merge) todo.push_back(next[i]);
      else if (VertexId t = g.task_of_segment(next[i]); t != graph::kNoVertex) tasks.push_back(t);
    }
  }
  std::sort(tasks.begin(), tasks.end());
  for (VertexId t : tasks) {
    const graph::TaskInfo& info = g.task(t);
    const core::ProcessorKind traced = map.traced_kind(info.processor.value());
    const core::ProcessorKind runs = map.task_kind(info.func_id, info.processor.value());
    if (runs != traced && home_memory(traced) == kind && map.fold(g.node(t)) == node) return home_memory(runs);
  }
  return std::nullopt;
}

}  // namespace

CopyRoute traced_route(const graph::CopyInfo& c, const MachineMap& map) {
  CopyRoute r;
  r.src = map.memory(c.src_memory.value());
  r.dst = map.memory(c.dst_memory.value());
  r.src_node = r.src.spans_nodes ? r.dst.node : r.src.node;
  r.dst_node = r.dst.spans_nodes ? r.src.node : r.dst.node;
  r.remote = r.src.spans_nodes || r.dst.spans_nodes || r.src_node != r.dst_node;
  return r;
}

CopyRoute copy_route(const graph::EventGraph& g, const MachineMap& map, graph::VertexId copy) {
  CopyRoute r = traced_route(g.copy(copy), map);
  if (map.mapping().moves.empty()) return r;
  if (!r.dst.spans_nodes)
    if (auto home = moved_home(g, map, copy, true, r.dst.kind, r.dst_node)) {
      r.dst.kind = *home;
      r.retargeted = true;
    }
  if (!r.src.spans_nodes)
    if (auto home = moved_home(g, map, copy, false, r.src.kind, r.src_node)) {
      r.src.kind = *home;
      r.retargeted = true;
    }
  r.removed = r.retargeted && r.src.kind == r.dst.kind && !r.remote;
  return r;
}

std::string route_name(const CopyRoute& route) {
  return std::string(core::memory_kind_name(route.src.kind)) + " -> " +
         std::string(core::memory_kind_name(route.dst.kind)) + (route.remote ? " (remote)" : " (local)");
}

}  // namespace rr::replay
