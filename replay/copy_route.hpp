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
  bool retargeted = false;     // an end moved with a task whose function runs on another kind (docs/mapping.md)
  bool removed = false;        // retargeted to the memory it comes from: it moves nothing and takes no time
};

// Copies follow the data when a mapping moves task functions (docs/mapping.md): a copy that delivered to the
// home memory (a GPU's framebuffer, else host memory) of a task it feeds, on that task's node, now delivers to
// the home memory of the kind the task runs on; a copy that read a task's output from its home memory reads it
// from the new one. The first such task, in vertex order, decides. A copy whose ends are then the same memory
// kind on the same node is removed.
CopyRoute copy_route(const graph::EventGraph& g, const MachineMap& map, graph::VertexId copy);

// The route its memories give, before any function move: copy_route's when the mapping moves nothing. Needs no
// graph, so a rank can route a copy it holds outside one.
CopyRoute traced_route(const graph::CopyInfo& copy, const MachineMap& map);

// "system -> framebuffer (local)": the name of a copy path in reports.
std::string route_name(const CopyRoute& route);

}  // namespace rr::replay
