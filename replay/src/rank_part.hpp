// What a rank keeps of a replay over ranks (ReplayResult::over_ranks) for the analyses that go on over the ranks
// once the replay is done: the network, which rank owns each operation, and, for a replay from parts, the graph the
// rank replayed on (its own vertices and their ghosts), since it holds no other.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "replay/block_network.hpp"
#include "replay/replay_result.hpp"
#include "replay/src/local_graph.hpp"
#include "replay/src/partition.hpp"

namespace rr::replay {

// The analyses name an operation by its vertex in the graph they walk: the whole graph for a replay of it, the
// local view for a replay from parts. What crosses ranks names it by its whole-graph id (whole() at the sender,
// local() at the receiver: the identity for a whole graph).
struct RankPart {
  BlockNetwork* net = nullptr;
  Partition partition;          // a replay of the whole graph: its split, one block per rank (empty when holds_nothing)
  bool holds_nothing = false;   // the replay ran on rank 0 alone: this rank (not 0) holds none of its records
  bool from_parts = false;      // a replay from parts: `local` is the graph, the records are by the part's index
  // From parts: this rank's view, kept for the analyses (graph_of_part); shared with the prepared part the run and
  // its what-ifs replayed on (PreparedPart).
  std::shared_ptr<const LocalGraph> local;
  std::vector<graph::VertexId> own_vertices;  // from parts: the local vertex of each own one, in the part's order
  graph::VertexId whole_vertices = 0;         // from parts: the whole graph's vertex count (GraphPart)

  std::uint32_t owner(graph::VertexId v) const { return from_parts ? local->owner[v] : partition.of_vertex[v]; }
  bool mine(graph::VertexId v) const { return owner(v) == net->rank(); }
  graph::VertexId whole(graph::VertexId v) const {
    return from_parts && v != graph::kNoVertex ? local->whole(v) : v;
  }
  // The vertex of whole-graph id w in the graph walked; kNoVertex when this rank's view lacks it.
  graph::VertexId local_of(graph::VertexId w) const {
    return from_parts && w != graph::kNoVertex ? local->local(w) : w;
  }
  // From parts: the index of own vertex v's record in the result (GraphPart::ids order).
  graph::VertexId record_of(graph::VertexId v) const {
    return static_cast<graph::VertexId>(std::lower_bound(own_vertices.begin(), own_vertices.end(), v) -
                                        own_vertices.begin());
  }
};

}  // namespace rr::replay
