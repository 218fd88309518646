// The Legion Prof part build's shared state (private to rr::graph): a class whose steps live in one file each under
// graph/src/prof_part/, following the whole build (graph/src/prof/prof_graph_builder.cpp) step by step. In order,
// with the exchanges between them (docs/scale.md, "The Legion Prof graph built in parts"):
//   1. collect (prof_part_collect.cpp): this rank's files' records in the whole build's order: work, copies and
//      fills; mergers, completion queues and triggers; arrivals; with their waits, inputs and launches.
//   2. first directory (prof_part_layout.cpp): every would-be producer of an event goes to the event's home, which
//      keeps the first in input order (a trigger logged twice is dropped, an arrival logged by both processes kept
//      once) and decides the phases; the same for instances (a profiling response about one).
//   3. layout (prof_part_layout.cpp): every rank tells every other its files' counts, the phases it decided, the
//      function names and its earliest start: every vertex id the whole build gives, and the observed origin.
//   4. second directory (prof_part_directory.cpp): the producers with their ids to the homes, the references
//      asked and answered.
//   5. deliveries (prof_part_deliver.cpp): vertices, edges, launches and waits to their owners.
//   6. actions (prof_part_actions.cpp): each creator's actions in observed order (positions, launch fractions),
//      the waits numbered as the whole build does (one exchange of the waiting tasks), tasks split at their waits.
//   7. fire times (prof_part_fire.cpp): the observed fire times of pass-through vertices, in rounds over the
//      ranks, and each operation's measured delay.
//   8. assembly (prof_part_assemble.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/trace_records.hpp"
#include "graph/prof_graph_part.hpp"
#include "graph/prof_span_work.hpp"
#include "graph/src/finding_log.hpp"
#include "graph/src/part/part_channel.hpp"

namespace rr::graph::prof_part {

using core::ProfEvent;
using core::TimeNs;

// REALM_EVENT_GENERATION_BITS: an event id's generation is its low 20 bits (docs/legion-prof.md, Ids).
inline constexpr std::uint64_t kGenerationMask = (std::uint64_t{1} << 20) - 1;
// Event ids as the whole build keys them: the generation in the low 20 bits, so a barrier's phases are (id, g).
inline core::EventKey key_of(ProfEvent e) {
  return core::EventKey::make(e.id & ~kGenerationMask, static_cast<std::uint32_t>(e.id & kGenerationMask));
}

// The order of records in the whole build: a stage (for producers: work, copies and fills 0, mergers and triggers
// 1; for launches: waits 0, then launches by the stage that pushed them, 1 to 3), then the file, then the record's
// place in its file's block of that stage. Ties of a creator's actions at one time break by it.
inline std::uint64_t order_key(std::uint64_t stage, std::uint64_t file, std::uint64_t seq) {
  return stage << 62 | file << 40 | seq;
}

// The runs of the whole build's edges (EventGraph::freeze keeps a vertex's out-edges in this order): arrivals and
// phase order, preconditions by target, merge inputs, launches, then the waits' continuation and wait edges.
enum class EdgeRun : std::uint8_t { barrier = 0, precondition = 1, merge_input = 2, issue = 3, wait_split = 4 };

// An edge, to the owner of its source (and, without its issue edges, to the owner of its target, for fire times).
struct EdgeNote {
  VertexId from = kNoVertex;
  VertexId to = kNoVertex;
  std::uint32_t from_owner = 0;
  std::uint32_t to_owner = 0;
  EdgeKind kind = EdgeKind::precondition;
  EdgeRun run = EdgeRun::barrier;
  std::uint8_t unused[6] = {};
  std::uint64_t seq = 0;  // the order within its run
};

// A vertex, from the rank whose file holds its record to the rank that owns it. Times are the log's, not rebased.
struct VertexNote {
  VertexId id = kNoVertex;
  OpKind kind = OpKind::task;
  std::uint8_t external_input = 0;  // it waits on something no record explains (an unrecorded event, launch)
  std::uint8_t outside = 0;         // outside work (the program's own thread, profiling responses)
  std::uint8_t unused = 0;
  std::uint32_t node = kNoNode;
  core::EventKey event;
  std::uint32_t payload = 0;  // the whole graph's
  TimeNs start = kNoTime, end = kNoTime, ready = kNoTime, issued = kNoTime;
  TaskInfo task;  // tasks and background work
  CopyInfo copy;  // copies and fills
};

// An action of a creator, to the creator's owner: an operation it launched (op), or one of its waits.
struct ActionNote {
  VertexId creator = kNoVertex;
  VertexId op = kNoVertex;  // kNoVertex for a wait
  std::uint32_t op_owner = 0;
  std::uint32_t awaited_owner = 0;
  TimeNs at = 0;        // the launch, or the wait's start
  TimeNs wait_end = 0;  // a wait's
  std::uint64_t key = 0;  // order_key: ties at one time
  core::EventKey event;   // a wait's awaited event
  VertexId awaited = kNoVertex;
  std::int64_t wait_ns = 0;
};

// What the actions step sends an issued operation's owner.
struct PositionNote {
  VertexId op = kNoVertex;
  VertexId issuer = kNoVertex;
  std::uint32_t position = 0;
  float fraction = -1;
};

// Where an event is produced: the directory's answer.
struct Producer {
  std::uint64_t event = 0;
  VertexId vertex = kNoVertex;  // kNoVertex: nothing produces it
  std::uint32_t owner = 0;
  OpKind kind = OpKind::task;
  std::uint8_t unused[7] = {};
};

// An observed fire time (a pass-through vertex's or a phase's), or an operation's end, for the owners of what
// follows it.
struct FireNote {
  VertexId vertex = kNoVertex;
  std::uint8_t passes = 0;   // a pass-through vertex, a phase or an arrival: its time is when it fired
  std::uint8_t reaches = 0;  // it waits, through pass-through vertices, on an unrecorded event
  std::uint8_t unused[2] = {};
  TimeNs time = kNoTime;
};

// A record of this rank's files that becomes a vertex (or, for triggers and arrivals, may).
struct LocalOp {
  OpKind kind = OpKind::task;
  std::uint8_t stage = 0;  // 0 work, copies and fills; 1 mergers, completion queues, triggers; 2 arrivals
  bool kept = true;        // false: a trigger or arrival another record already gave
  bool fresh = true;       // the first producer of its event: its waits, inputs and launch follow only then
  bool trigger = false;    // a trigger, poison, acquire, instance-ready or redistrict: kept only when first
  bool profiler = false;   // a profiling response about no instance: its critical is its creator
  bool outside = false;
  bool external_input = false;
  std::uint32_t file = 0;  // into this rank's files
  std::uint32_t seq = 0;   // its place in its file's block of its stage, before duplicates are dropped
  std::uint32_t node = kNoNode;
  ProfEvent event, critical, creator;  // creator none: no launch
  TimeNs start = kNoTime, end = kNoTime, ready = kNoTime, launched = kNoTime;
  std::uint32_t detail = 0;   // tasks_/copies_ index; a merger's input count
  VertexId id = kNoVertex;    // once laid out
  std::uint32_t payload = 0;  // the whole graph's, once laid out
};

struct LocalWait {
  std::uint32_t op = 0;  // into ops_
  ProfEvent event;
  TimeNs start = 0, end = 0;
  std::uint64_t key = 0;
};

struct LocalInput {
  std::uint32_t op = 0;
  ProfEvent event;
  std::uint64_t seq = 0;  // file << 40 | place among its file's inputs: the whole build's order
};

// An instance's creation, for profiling responses about it (the first record of an instance in input order).
struct InstanceNote {
  std::uint64_t uid = 0;
  std::uint64_t creator = 0;
  TimeNs create = 0;
  std::uint64_t key = 0;  // file << 40 | index
};

// One file's counts, which every rank lists: the vertex ids follow from them.
struct FileCounts {
  std::uint32_t file = 0;  // in the whole trace
  std::int32_t node = -1;
  std::uint32_t num_nodes = 0;  // processes the run had, as its MachineDesc says
  std::uint32_t work = 0, copies = 0, passing = 0, arrivals = 0;
  std::uint8_t event_graph_records = 0;
  std::uint8_t unused[3] = {};
};

struct PhaseCount {
  std::uint64_t id = 0;  // the barrier generation
  std::int64_t arrivals = 0;
};

// A function's name as one file gives it; kind 0 a task (overwritten: by a record with `overwrite`), 1 a meta-task
// or message, 2 a partition operation (named by number). The names' bytes follow, one after another.
struct NameNote {
  std::uint32_t file = 0;
  std::uint32_t id = 0;
  std::uint8_t kind = 0;
  std::uint8_t overwritten = 0;
  std::uint8_t unused[2] = {};
  std::uint32_t length = 0;
};

struct WaitCount {
  VertexId task = kNoVertex;
  std::uint32_t waits = 0;
};

template <class T>
using ByRank = std::vector<std::vector<T>>;

class ProfPartBuilder {
 public:
  ProfPartBuilder(const PartFiles& files, const NodeRanks& ranks, RankExchange& exchange, const BuildOptions& options)
      : files_(files), ranks_(ranks), channel_(exchange), options_(options), log_(options.examples_per_finding) {}
  GraphPart build();

 private:
  std::uint32_t rank() const { return channel_.rank(); }
  std::uint32_t ranks() const { return channel_.ranks(); }
  std::uint32_t owner_of(std::uint32_t node) const { return ranks_.rank_of(node); }
  std::uint32_t home_of(std::uint64_t event) const;
  const core::FileRecords& file(std::uint32_t i) const { return files_.records->files[i]; }
  std::uint32_t whole_file(std::uint32_t i) const { return files_.file_index[i]; }

  // prof_part_collect.cpp
  void collect();
  void collect_work(std::uint32_t fi);
  void collect_passing(std::uint32_t fi);
  // prof_part_layout.cpp
  void first_directory();
  std::vector<std::vector<std::byte>> decide_as_home(const std::vector<std::vector<std::byte>>& from_each);
  void lay_out();
  void lay_out_names(const std::vector<std::vector<NameNote>>& names, const std::vector<std::vector<char>>& text);
  // prof_part_directory.cpp
  void second_directory();
  std::vector<std::vector<std::byte>> answer_as_home(const std::vector<std::vector<std::byte>>& from_each);
  const Producer* producer(ProfEvent e) const;  // null: nothing produces it
  // prof_part_deliver.cpp
  void deliver();
  // prof_part_actions.cpp
  void order_actions();
  void number_waits(const std::vector<WaitCount>& mine);
  // prof_part_fire.cpp
  void fire_times();
  void external_delays();
  // prof_part_assemble.cpp
  GraphPart assemble();
  void add_notes(GraphPart& part) const;

  const PartFiles& files_;
  const NodeRanks ranks_;
  part_detail::PartChannel channel_;
  const BuildOptions& options_;
  FindingLog log_;

  // collect
  std::vector<LocalOp> ops_;
  std::vector<TaskInfo> tasks_;
  std::vector<CopyInfo> copies_;
  std::vector<LocalWait> waits_;
  std::vector<LocalInput> inputs_;
  std::vector<InstanceNote> instances_;
  std::map<std::uint32_t, std::vector<SilentWindow>> silences_;  // by node, with --traced-cores
  TimeNs earliest_start_ = kNoTime;  // of this rank's vertices that are not outside work

  // layout, the same on every rank
  std::vector<FileCounts> files_counts_;  // every file's, in the whole trace's order
  std::vector<VertexId> first_work_, first_passing_, first_arrival_;  // by whole file
  std::vector<std::uint32_t> first_task_, first_copy_, first_value_;   // payload indices, by whole file
  std::vector<PhaseCount> phases_;  // every phase, by id: vertex first_phase_ + i
  std::unordered_map<std::uint64_t, std::uint32_t> phase_index_;
  VertexId first_phase_ = 0, first_resume_ = 0;
  std::vector<PhaseCount> own_phases_;  // those this rank decided as their home
  std::vector<std::pair<std::uint64_t, OpKind>> produced_here_;  // events homed here with a producer before the
                                                                // phases, and its kind (by event)
  FunctionNames names_;
  TimeNs origin_ = kNoTime;
  bool event_graph_records_ = false;

  // the directories
  std::vector<Producer> directory_;  // the producers of the events homed here, by event
  std::vector<Producer> answers_;    // of the events this rank's records name, by event
  std::uint64_t external_references_ = 0;

  // what this rank owns
  std::vector<VertexNote> vertices_;
  std::vector<EdgeNote> out_edges_;  // by source
  std::vector<EdgeNote> in_edges_;   // by target, without launches: what its fire time and delay read
  std::vector<std::pair<VertexId, std::uint32_t>> fire_out_;  // (own vertex, another rank that reads its time)
  std::vector<ActionNote> actions_;
  std::vector<PositionNote> positions_;
  std::vector<WaitInfo> waits_owned_;          // of its tasks, in the whole graph's order
  std::vector<TimeNs> wait_ends_;              // each one's end, rebased
  std::uint64_t total_waits_ = 0, waiting_tasks_ = 0;
  std::vector<std::int64_t> delay_;            // by vertex note
  bool any_delay_ = false;
  std::vector<FireNote> fired_;                // by vertex note: its observed fire time (or end)
  std::unordered_map<VertexId, FireNote> fired_elsewhere_;  // the times of other ranks' vertices it reads
  bool stuck_ = false;  // a pass-through vertex whose inputs never all fired: a cycle
  std::uint64_t vertices_from_others_ = 0, edges_from_others_ = 0;
};

}  // namespace rr::graph::prof_part
