// One rank's part of a 2015 Realm trace, read from its own nodes' files only (docs/scale.md, "The graph built in
// parts"): what `realm-replay-mpi replay` starts from when every rank reads only its nodes. The rank of a file is
// its node's, and its node is the number in its name (node_<N>.log), so no rank opens another rank's files; a file
// whose lines turn out to be another node's is an error naming it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "core/trace_records.hpp"
#include "graph/graph_part.hpp"
#include "graph/rank_exchange.hpp"
#include "session/session.hpp"

namespace rr::session {

// The files of a trace read rank by rank, before anything is read: every rank finds the same.
struct TraceFilesByNode {
  std::vector<std::string> paths;        // in the whole trace's reading order
  std::vector<std::uint32_t> node;       // each one's node, from its name
  std::uint32_t nodes = 0;               // one past the largest node a name gives
};

// The trace's files with their nodes when the inputs can be read rank by rank: Realm text logs named node_<N>.log
// (plain or compressed, in folders or given one by one), each node once. Otherwise why not: a packed trace, a tar
// archive, a stream, Legion Prof logs, or a file whose name gives no node.
core::Expected<TraceFilesByNode> files_by_node(const std::vector<std::string>& inputs);

struct TracePart {
  std::string label;              // as LoadedTrace::label
  graph::NodeRanks ranks;         // the split the part was built with: nodes are TraceFilesByNode::nodes
  core::TraceRecords records;     // this rank's files: machine records, counts and statistics (graph records freed)
  std::vector<std::uint32_t> file_index;  // each of them in the whole trace's file order
  std::uint32_t total_files = 0;
  graph::GraphPart part;
  graph::FunctionNames function_names;  // the names file's, when one was read (the trace has none of its own)
  std::optional<NamesSource> names;     // that file; `used` counts only this rank's functions
};

// Every rank of `exchange` calls it at once with the same arguments: reads its files (those whose node
// `ranks.rank_of` gives it), then builds its part with the others (graph::build_graph_part). A rank that cannot
// read one of its files, or finds a file's lines to be another node's, stops every rank with an error naming the
// rank and the file; std::runtime_error on every rank then, as for the build's own failures. A bad names file is
// an error on every rank alike, before any reading.
core::Expected<TracePart> load_trace_part(const std::vector<std::string>& inputs, const TraceFilesByNode& files,
                                          const ReadingOptions& options, std::uint32_t ranks,
                                          graph::RankExchange& exchange);

}  // namespace rr::session
