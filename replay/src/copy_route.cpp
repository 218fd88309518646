// The copy-route rule: memories mapped to model nodes, global memory counted as remote.
#include "replay/copy_route.hpp"

namespace rr::replay {

CopyRoute copy_route(const graph::EventGraph& g, const MachineMap& map, graph::VertexId copy) {
  const graph::CopyInfo& c = g.copy(copy);
  CopyRoute r;
  r.src = map.memory(c.src_memory.value());
  r.dst = map.memory(c.dst_memory.value());
  r.src_node = r.src.spans_nodes ? r.dst.node : r.src.node;
  r.dst_node = r.dst.spans_nodes ? r.src.node : r.dst.node;
  r.remote = r.src.spans_nodes || r.dst.spans_nodes || r.src_node != r.dst_node;
  return r;
}

std::string route_name(const CopyRoute& route) {
  return std::string(core::memory_kind_name(route.src.kind)) + " -> " +
         std::string(core::memory_kind_name(route.dst.kind)) + (route.remote ? " (remote)" : " (local)");
}

}  // namespace rr::replay
