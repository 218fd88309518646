// One rank's view of the event graph for a replay from its part (docs/scale.md, "The replay from parts"): its own
// vertices and their ghosts, the vertices of other ranks that its replay touches, as an EventGraph the engine runs
// on unchanged. Vertices are numbered in ascending whole-graph id, so that every order the engine breaks ties with
// (time, vertex, kind) is the whole graph's restricted to them; the graph's whole_id() gives each one's whole id,
// and with it the noise one engine draws for it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "graph/event_graph.hpp"
#include "graph/graph_part.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/src/model_node_ranks.hpp"
#include "replay/src/part_rounds.hpp"

namespace rr::replay {

// Ghosts are: the targets of the rank's edges and the issuers of its vertices that other ranks own (an input sent,
// an issue's position read, an issuer compared), the
// sources of other ranks' edges into its vertices with those edges (its inputs counted, a releaser named, an
// arrival's count read), and the copies of other ranks whose hops run on its channel instances (their sizes and
// memories). A ghost's attributes are its owner's, a Legion Prof log's facts among them (observed times, launch
// fraction, measured delay); its own edges elsewhere are not here. The view lists its own outside work only.
struct LocalGraph {
  graph::EventGraph g;
  std::vector<std::uint8_t> owner;  // by local vertex: the rank that replays it
  std::uint32_t own = 0;            // vertices this rank owns

  graph::VertexId whole(graph::VertexId v) const { return g.whole_id(v); }
  // The local vertex of whole-graph vertex w, or kNoVertex when this rank's view lacks it.
  graph::VertexId local(graph::VertexId w) const;
};

// A map the view serves, with the rank of each of its model nodes (model_node_ranks): a copy's hops under it hold
// channel instances of those ranks, which get the copy as a ghost.
struct ServedMap {
  const MachineMap* map = nullptr;
  ModelNodeRanks ranks;
};

// Builds this rank's view from its part, in two rounds: each rank sends the owners of its edges' targets its
// crossing edges with their sources and asks for the targets, and sends its copies to the ranks whose channel
// instances their hops hold under any of `maps` (the replays it serves may fold the nodes differently: the traced
// machine's fit and the run); then each answers what it was asked. Without function moves (routes follow the
// copies' memories alone). The part is used up: its arrays go as the view takes them, before the view's graph is
// frozen, the build's peak. std::runtime_error on every rank when one stops.
LocalGraph build_local_graph(graph::GraphPart&& part, std::uint32_t ranks, std::span<const ServedMap> maps,
                             const machine::MachineModel& model, PartRounds& rounds);

}  // namespace rr::replay
