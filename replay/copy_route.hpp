// Where a copy goes on the model: its source and destination memories, their model nodes, and whether it
// crosses nodes. One rule for the engine, the critical path and the reports.
#pragma once

#include <string>

#include "graph/event_graph.hpp"
#include "replay/machine_map.hpp"

namespace rr::replay {

struct CopyRoute {
  MemoryPlace src;
  MemoryPlace dst;
  std::uint32_t src_node = 0;  // model node the transfer leaves from (GASNet global memory: the other end's)
  std::uint32_t dst_node = 0;
  bool remote = false;         // between model nodes, or through GASNet global memory (which spans nodes)
};

CopyRoute copy_route(const graph::EventGraph& g, const MachineMap& map, graph::VertexId copy);

// "system -> framebuffer (local)": the name of a copy path in reports.
std::string route_name(const CopyRoute& route);

}  // namespace rr::replay
