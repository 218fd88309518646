// One rank's part of a Legion Prof trace's event graph, built from the logs of its own processes only
// (docs/scale.md, "The Legion Prof graph built in parts"): the part of the graph build_profile_graph gives the
// whole trace, with the vertices of the rank's model nodes, their whole-graph ids, attributes, the timestamped
// facts the prof build keeps (observed times, launch fractions, measured delays) and the edges leaving them, and
// the findings it can decide. Ranks exchange only what crosses processes: producers of events that other
// processes' records name, launches and waits of another process's work, and the observed fire times that reach
// across.
#pragma once

#include "graph/graph_part.hpp"

namespace rr::graph {

// Builds this rank's part; every rank of `exchange` calls it at once, each with its own Legion Prof files
// (files.records holds the logs of the processes whose model node is in its range, in the whole trace's order).
// A rank whose reading failed (files.records null) still takes part in the first exchange, so that every rank
// stops with an error naming that rank and what it could not read; std::runtime_error on every rank.
// options.traced_cores is the whole build's: spans then hold only their own work.
GraphPart build_prof_graph_part(const PartFiles& files, const NodeRanks& ranks, RankExchange& exchange,
                                const BuildOptions& options = {});

}  // namespace rr::graph
