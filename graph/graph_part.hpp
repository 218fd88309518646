// One rank's part of the event graph, built from its own nodes' files only (docs/scale.md, "The graph built in
// parts"): the vertices it replays, with their ids in the whole graph, their attributes and the edges leaving them,
// and the findings it can decide. Ranks exchange only what crosses: producers of events that others reference, and
// what a reference resolved in one rank's files gives the owner of the vertices it joins.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/node_fold.hpp"
#include "core/trace_records.hpp"
#include "graph/event_graph.hpp"
#include "graph/graph_builder.hpp"
#include "graph/graph_findings.hpp"
#include "graph/rank_exchange.hpp"

namespace rr::graph {

// Which rank replays each vertex: by its model node, consecutive model nodes together, model node m on rank
// m * ranks / nodes, as partition_by_node gives blocks their nodes. A vertex's model node is its graph node
// (EventGraph::node) folded as the replay's MachineMap folds it (`fold`, machine::fold_nodes), or the graph node
// itself without a fold. A model node past the last goes with the last, a vertex without a node to rank 0.
struct NodeRanks {
  std::uint32_t ranks = 1;
  std::uint32_t nodes = 1;  // model nodes
  core::NodeFold fold;      // graph node -> model node; empty (no traced node listed): each node its own
  // The rank of a vertex of graph node `node`.
  std::uint32_t rank_of(std::uint32_t node) const {
    return node == kNoNode ? 0 : rank_of_model(fold.of_traced.empty() ? node : fold(node));
  }
  // The rank of model node `model_node`.
  std::uint32_t rank_of_model(std::uint32_t model_node) const;
};

// This rank's files of a 2015 Realm trace: the traced nodes whose model node is in its range.
struct PartFiles {
  // Its files only, as parser::read_trace reads them with the default chunk size (vertex ids follow the batches, so
  // every rank must cut its files as the whole build's reading does); null: reading failed.
  const core::TraceRecords* records = nullptr;
  // The same records when the build may free each batch's graph records once they are resolved, as
  // build_event_graph_releasing does (machine records, counts and statistics stay); null: they stay whole.
  core::TraceRecords* releasable = nullptr;
  std::string read_error;                       // why reading failed, naming the file (and line)
  std::vector<std::uint32_t> file_index;        // each of its files' index in the whole trace's file order
  std::uint32_t total_files = 0;                // files in the whole trace
};

// What crossed ranks for one rank's part, and what it holds of the whole trace (docs/scale.md, "The graph built in
// parts").
struct PartTraffic {
  std::uint64_t bytes_sent = 0;            // to the other ranks, over every exchange
  std::uint64_t vertices_from_others = 0;  // owned vertices whose record another rank's files hold
  std::uint64_t edges_from_others = 0;     // edges leaving owned vertices that another rank's records gave
  std::uint64_t phases = 0;                // barrier phases, which every rank lists
  std::uint64_t waiting_tasks = 0;         // tasks with Task Waits, which every rank lists
};

// The vertices one rank owns, in ascending id; every array below but the payload contents is indexed alike.
struct GraphPart {
  std::uint32_t rank = 0;
  VertexId whole_vertices = 0;  // vertices of the whole graph
  std::vector<VertexId> ids;
  std::vector<OpKind> kind;
  std::vector<std::uint32_t> node;
  std::vector<core::EventKey> event;
  std::vector<VertexId> issuer;
  std::vector<std::uint32_t> position;
  std::vector<std::uint32_t> payload;  // as the whole graph's payload(v): global indices
  // What a payload names, for the kinds that have one: by local index, the entry of its kind's array.
  std::vector<std::uint32_t> local_payload;
  std::vector<TaskInfo> tasks;
  std::vector<CopyInfo> copies;
  std::vector<BarrierPhaseInfo> phases;
  std::vector<std::int64_t> barrier_values;
  std::vector<WaitInfo> waits;  // a task_resume's wait
  // Out-edges by local index, in the whole graph's order; targets are whole-graph ids.
  std::vector<EdgeOffset> edge_offset;
  std::vector<VertexId> successors;
  std::vector<EdgeKind> successor_kinds;
  // The functions' names, which the reports print (EventGraph::function_name): a 2015 Realm trace's logs name
  // none, so the caller lays here those of the names file the whole trace is read with (names.toml beside it); the
  // replay from parts gives them to the rank's graph. Empty: functions are printed by id.
  FunctionNames function_names;
  // What a Legion Prof log adds (EventGraph's timestamped facts), indexed like ids; empty for a 2015 Realm trace:
  std::vector<float> issue_fraction;         // where in its issuer's busy time it was launched; < 0: not known
  std::vector<std::int64_t> observed_start;  // rebased on observed_origin, as the whole graph's
  std::vector<std::int64_t> observed_end;
  std::vector<std::int64_t> external_delay;  // empty when no vertex of the whole graph has one
  std::int64_t observed_origin = 0;          // the whole trace's, on every rank
  std::vector<VertexId> outside_work;        // its vertices that are outside work, by whole id, ascending
  // What this rank decided: counts and examples. Summed over ranks, the counts are the whole build's for every
  // finding but cycles, which no rank can see alone.
  GraphFindings findings;
  PartTraffic traffic;

  std::size_t size() const { return ids.size(); }
  // What makes a part from outside (a packed trace read rank by rank) unsafe to walk, as far as its own rows tell:
  // array lengths, ids ascending and inside the whole graph, kinds, payloads inside their arrays, the bounds of
  // EventGraph::structure_problem on times and counts, and of each edge its target's range and whether its kind may
  // leave its source (what it may reach is its target's rank's to know); empty when there is none.
  std::string structure_problem() const;
  // The local index of whole-graph vertex v, or size() when this rank does not own it.
  std::size_t local(VertexId v) const;
  std::span<const VertexId> successors_of(std::size_t i) const {
    return {successors.data() + edge_offset[i], successors.data() + edge_offset[i + 1]};
  }
  std::span<const EdgeKind> successor_kinds_of(std::size_t i) const {
    return {successor_kinds.data() + edge_offset[i], successor_kinds.data() + edge_offset[i + 1]};
  }
};

// Builds this rank's part; every rank of `exchange` calls it at once. A rank whose reading failed (files.records
// null) still takes part in the first exchange, so that every rank stops with an error naming that rank and what it
// could not read; std::runtime_error on every rank.
// `after_step`, when given, is called with each step's name as it ends (layout, directory, deliveries, tasks,
// assembly): the benchmark reads each step's peak memory there.
GraphPart build_graph_part(const PartFiles& files, const NodeRanks& ranks, RankExchange& exchange,
                           const BuildOptions& options = {},
                           const std::function<void(const char* step)>& after_step = nullptr);

}  // namespace rr::graph
