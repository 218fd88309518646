// One rank's part of a 2015 Realm trace or of Legion Prof logs, read from its own nodes' files only (docs/scale.md,
// "The graph built in parts"): what `realm-replay-mpi replay` starts from when every rank reads only its nodes. The
// rank of a file is its node's, and its node is the number in its name (node_<N>.log; a Legion Prof log's last
// number, prof_<N>.gz), so no rank opens another rank's files; a file whose lines (or MachineDesc) turn out to be
// another node's is an error naming it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "core/trace_records.hpp"
#include "graph/graph_part.hpp"
#include "graph/rank_exchange.hpp"
#include "machine_models/traced_machine.hpp"
#include "session/session.hpp"

namespace rr::session {

// The files of a trace read rank by rank, before anything is read: every rank finds the same.
struct TraceFilesByNode {
  std::vector<std::string> paths;        // in the whole trace's reading order
  std::vector<std::uint32_t> node;       // each one's node, from its name
  std::uint32_t nodes = 0;               // one past the largest node a name gives
  core::TraceFormat format = core::TraceFormat::realm_text;  // every file's
};

// The trace's files with their nodes when the inputs can be read rank by rank: Realm text logs named node_<N>.log,
// or Legion Prof logs whose names end in their process's number (prof_<N>.gz), plain or compressed, in folders or
// given one by one, each node once. Otherwise why not: a packed trace, a tar archive, a stream, or a file whose
// name gives no node.
core::Expected<TraceFilesByNode> files_by_node(const std::vector<std::string>& inputs);

// How the parts of a trace of `nodes` nodes are split over `ranks` ranks: by the model node `fold` gives each traced
// node, when it lists them, else by node.
graph::NodeRanks split_by(std::uint32_t ranks, std::uint32_t nodes, const core::NodeFold& fold);

struct TracePart {
  std::string label;              // as LoadedTrace::label
  graph::NodeRanks ranks;         // the split the part was built with: its nodes the fold's model nodes, or without
                                  // a fold TraceFilesByNode::nodes (a packed trace's graph nodes)
  core::TraceRecords records;     // this rank's files: machine records, counts and statistics (graph records freed)
  std::vector<std::uint32_t> file_index;  // each of them in the whole trace's file order
  std::uint32_t total_files = 0;
  graph::GraphPart part;
  graph::FunctionNames function_names;  // the functions' names: a packed trace's own, with a names file's over them
  std::optional<NamesSource> names;     // the names file (`used` 0: the reading summary counts it over every rank)
  std::vector<std::uint32_t> named;     // the functions that file names (a packed trace's own names aside)
  bool whole_records = false;           // a packed trace's: every rank's records are every file's
  std::uint32_t traced_cores = 0;       // --traced-cores (ReadingOptions::build), as LoadedTrace::traced_cores
  // A packed trace's traced machine as it was packed (packed::PackedTraceContext): its traced nodes, measured facts,
  // and the machine itself when it was packed fitted. Logs: none; the ranks put it together (traced_part_machine.hpp).
  std::uint32_t packed_nodes = 0;
  std::optional<machine::TracedFacts> packed_facts;
  std::optional<std::string> packed_machine;
  // Legion Prof logs: every file's machine descriptions, which each process's log gives for its own processors and
  // memories only (session/src/prof_machine_view.hpp); the machine map is built on them. None for Realm logs.
  std::optional<core::TraceRecords> machine_files;
  // The records a machine map (replay::MachineMap::build) is built on: every file's machine, as the whole trace's.
  const core::TraceRecords& map_records() const { return machine_files ? *machine_files : records; }
};

// Every rank of `exchange` calls it at once with the same arguments: reads its files (those whose node
// `ranks.rank_of` gives it: by the model node `fold` gives it, when it lists the traced nodes, else by the node
// itself), then builds its part with the others (graph::build_graph_part, or for Legion Prof logs
// graph::build_prof_graph_part, and then shares the machine's descriptions: TracePart::machine_files). A rank that cannot
// read one of its files, or finds a file's lines to be another node's, stops every rank with an error naming the
// rank and the file; std::runtime_error on every rank then, as for the build's own failures. A bad names file is
// an error on every rank alike, before any reading.
core::Expected<TracePart> load_trace_part(const std::vector<std::string>& inputs, const TraceFilesByNode& files,
                                          const ReadingOptions& options, std::uint32_t ranks,
                                          graph::RankExchange& exchange, const core::NodeFold& fold = {});

// The same from one packed trace of 2015 Realm logs (`path`, which packed::is_packed_trace says it is): each rank
// maps the file and reads its part (packed::read_graph_part, its vertices those of the nodes `ranks.rank_of` gives
// it, folded by `fold` as above: runs of the node index, which need not be consecutive) and the small parts (every
// file's records, rank 0 the findings, the functions' names) without any exchange. An InputError names the file: damaged,
// packed from Legion Prof logs, or packed with other --traced-cores than asked.
core::Expected<TracePart> load_packed_part(const std::string& path, const ReadingOptions& options, std::uint32_t ranks,
                                           std::uint32_t rank, const core::NodeFold& fold = {});

}  // namespace rr::session
