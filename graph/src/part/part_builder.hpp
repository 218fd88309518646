// The part build's shared state (private to rr::graph): a class whose steps live in one file each under
// graph/src/part/. The steps and the exchanges between them, in order (docs/scale.md, "The graph built in parts"):
//   1. layout (part_layout.cpp): every rank tells every other its files' batch counts, barrier creations and the
//      phases its files name; each rank then knows every vertex id the whole build would give, and every phase.
//   2. directory (part_directory.cpp): each producer goes to its event's home rank (the rank of the node that
//      created the event, from the id's bits), with every reference this rank's files make; homes answer.
//   3. deliveries (part_resolve.cpp): each of this rank's records resolved into what the owners of its vertices
//      need: the vertex, edges leaving a producer, a task's actions, waits and Task Time, a copy's Copy Size.
//   4. tasks (part_tasks.cpp): owners put each task's actions in program order, number every Task Wait as the
//      whole build does (one more exchange: how many waits each waiting task has), split tasks at their waits and
//      send back positions and wait edges.
//   5. assembly (part_assemble.cpp): the part's arrays and its out-edges in the whole graph's order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "graph/graph_part.hpp"
#include "graph/src/finding_log.hpp"
#include "graph/src/part/part_channel.hpp"
#include "platform/freed_memory.hpp"

namespace rr::graph::part_detail {

// Edges carry a key that orders them as the whole build's freeze does: its runs (barrier edges, then each batch's in
// input order, then the waits' continuation and wait edges), and within a run the order it pushed them. A run is
// below 2^24 (lay_out refuses more batches) and an order within it below 2^37 (twice the 32-bit vertex ids and
// values, plus a batch's merge inputs), so that a key and an edge's kind share 64 bits (EdgeNote).
inline constexpr std::uint64_t kMaxRuns = std::uint64_t{1} << 24;
inline std::uint64_t edge_key(std::uint64_t run, std::uint64_t seq) { return run << 37 | seq; }
inline constexpr std::uint64_t kBarrierRun = 0;

// One batch of the whole trace: where its vertices and payloads start.
struct BatchPlace {
  std::uint32_t file = 0;        // index in the whole trace
  std::uint32_t global = 0;      // index among every file's batches, in input order
  std::uint32_t node = kNoNode;  // the logging node
  VertexId first_task = 0, first_copy = 0, first_merge = 0, first_trigger = 0, first_alter = 0, first_arrive = 0,
           end = 0;
  std::uint32_t task_info = 0, copy_info = 0, alter_value = 0, arrive_value = 0;
  const core::RecordBatch* batch = nullptr;  // this rank's batches only
  core::RecordBatch* releasable = nullptr;   // the same, when the build may free its records
};

// Where a referenced event is produced: the directory's answer. 20 bytes, as a home holds one per event it keeps and
// a rank one per event its files name, both beside the records.
inline constexpr std::uint32_t kMaxRanks = std::uint32_t{1} << 24;
struct Producer {
  core::EventKey event;
  VertexId vertex = kNoVertex;  // kNoVertex: nothing produces it
  std::uint32_t owner : 24 = 0;  // the rank that owns the producing vertex (below kMaxRanks)
  OpKind kind : 8 = OpKind::task;
};
static_assert(sizeof(Producer) == 20);

// A reference to an event, asked of its home.
struct Query {
  core::EventKey event;
  std::uint32_t general = 0;  // a reference to any producer (a precondition, a merge input, an awaited event)
};

// A vertex, from the rank whose files hold its record to the rank that owns it: 44 bytes, what its kind needs in
// two handles.
struct VertexNote {
  VertexId id = kNoVertex;
  OpKind kind = OpKind::task;
  std::uint8_t unused[3] = {};
  std::uint32_t node = kNoNode;
  core::EventKey event;
  std::uint32_t payload = 0;
  core::Handle first;   // a task's processor; a copy's source memory; an Alter's delta or an Arrive's count
  core::Handle second;  // a task's function (lo) and priority (hi); a copy's destination memory
};
static_assert(sizeof(VertexNote) == 44);

// An edge, to the owner of its source: 16 bytes, its kind in the three lowest bits below its key, so that sorting by
// `order` sorts by key. Edges are the most numerous notes.
struct EdgeNote {
  VertexId from = kNoVertex;
  VertexId to = kNoVertex;
  std::uint64_t order = 0;  // edge_key(...) << 3 | kind

  EdgeNote() = default;
  EdgeNote(VertexId source, VertexId target, std::uint64_t key, EdgeKind kind)
      : from(source), to(target), order(key << 3 | static_cast<std::uint64_t>(kind)) {}
  EdgeKind kind() const { return static_cast<EdgeKind>(order & 7); }
};
static_assert(sizeof(EdgeNote) == 16 && kEdgeKindCount <= 8);

// An action of a task, to the task's owner: an operation it issues, or one of its Task Waits (32 bytes: what only
// a wait needs, which few actions are, is in a WaitDetail of its own).
struct ActionNote {
  VertexId task = kNoVertex;
  VertexId op = kNoVertex;       // the issued operation; kNoVertex for a wait
  std::uint64_t where = 0;       // file << 40 | line: program order
  std::uint64_t key = 0;         // the issue edge's key; a wait's: its WaitDetail's index among the owner's
  VertexId awaited = kNoVertex;  // a wait's: the awaited event's producer
  std::uint32_t owner = 0;       // the rank that owns the issued operation, or a wait's awaited producer
};
static_assert(sizeof(ActionNote) == 32);

struct WaitDetail {
  core::EventKey event;  // the awaited event
  std::uint32_t unused = 0;
  std::int64_t wait_ns = 0;
};

// A Task Time or Copy Size, to the owner of the vertex it joins; the first in input order counts.
struct TimingNote {
  VertexId vertex = kNoVertex;
  std::uint32_t unused = 0;
  std::uint64_t order = 0;  // global batch << 32 | index in the batch
  std::uint64_t value = 0;
};

struct MergeCountNote {
  VertexId merge = kNoVertex;
  std::uint32_t found = 0;
};

// What the tasks step sends an issued operation's owner.
struct PositionNote {
  VertexId op = kNoVertex;
  VertexId issuer = kNoVertex;
  std::uint32_t position = 0;
};

// A task's place in program order and among the whole graph's waits, for its TaskInfo.
struct TaskOrder {
  VertexId task = kNoVertex;
  std::uint32_t actions = 0;
  std::uint32_t first_wait = kNoWait;
};

struct WaitCount {
  VertexId task = kNoVertex;
  std::uint32_t waits = 0;
};

// Gives back the whole pages of an array's first `done` elements once they have been read for the last time: an
// array read once front to back then shrinks while what is built from it grows. Acts every 2^16 elements, so that
// it can be called for each one.
template <class T>
void discard_read(const std::vector<T>& array, std::size_t done) {
  if (done % (std::size_t{1} << 16) == 0) platform::discard_pages(array.data(), done * sizeof(T));
}

// Messages to each rank, by destination.
template <class T>
using ByRank = std::vector<std::vector<T>>;

class PartBuilder {
 public:
  PartBuilder(const PartFiles& files, const NodeRanks& ranks, RankExchange& exchange, const BuildOptions& options,
              const std::function<void(const char*)>& after_step)
      : files_(files), ranks_(ranks), exchange_(exchange), options_(options), after_step_(after_step),
        log_(options.examples_per_finding) {}

  GraphPart build();

 private:
  std::uint32_t rank() const { return exchange_.rank(); }
  std::uint32_t owner_of_node(std::uint32_t node) const { return ranks_.rank_of(node); }
  std::uint32_t owner_node(std::uint64_t id) const {
    return width_ == core::IdWidth::unknown ? kNoNode : core::IdLayout::for_width(width_).node_of(id);
  }
  // The rank that keeps an event's producer: the rank of the node that created it.
  std::uint32_t home_of(const core::EventKey& e) const;
  // Sends each rank its message and returns each rank's, checking that no rank failed.
  std::vector<std::vector<std::byte>> exchange(std::vector<std::vector<std::byte>> to_each);

  // part_layout.cpp
  void lay_out();
  void lay_out_phases(const std::vector<std::vector<std::byte>>& from_each);
  void note_phase_findings(const std::unordered_map<std::uint64_t, std::uint32_t>& created);
  // part_directory.cpp
  void resolve_references();
  void reserve_producers(ByRank<Producer>& producers) const;
  std::vector<std::vector<std::byte>> answer_as_home(std::vector<std::vector<std::byte>> from_each,
                                                     std::vector<Producer> directory, std::vector<Query> own_questions);
  const Producer& producer(const core::EventKey& e) const;
  // part_resolve.cpp
  void deliver();
  void resolve_batch(const BatchPlace& b);
  void release_records(const BatchPlace& b);
  // Frees an array for good, its pages given back.
  template <class T>
  void release(std::vector<T>& array) {
    freed_.released(platform::free_array(array));
  }
  const Producer* general_reference(const core::EventKey& e);
  // part_tasks.cpp
  void order_tasks();
  void count_waits(const std::vector<WaitCount>& mine);
  // part_assemble.cpp
  GraphPart assemble();
  void place_edges(GraphPart& part);

  const PartFiles& files_;
  const NodeRanks ranks_;
  RankExchange& exchange_;
  const BuildOptions& options_;
  const std::function<void(const char*)>& after_step_;
  FindingLog log_;
  PartChannel channel_{exchange_};
  PartTraffic traffic_;
  platform::FreedMemory freed_;  // what freeing records and notes gave back, handed to the system as it goes

  // Layout, the same on every rank.
  core::IdWidth width_ = core::IdWidth::unknown;
  std::vector<BatchPlace> own_batches_;  // this rank's, in input order
  std::uint32_t total_batches_ = 0;
  VertexId record_vertices_ = 0;
  std::uint32_t total_values_ = 0;
  std::vector<core::EventKey> phase_keys_;  // phase i is vertex record_vertices_ + i
  std::vector<BarrierPhaseInfo> phase_info_;
  std::unordered_map<core::EventKey, std::uint32_t> phase_index_;
  std::unordered_map<std::uint64_t, std::uint32_t> first_phase_;  // barrier id -> first phase gen
  std::vector<EdgeNote> phase_order_;  // every phase-order edge, whoever owns it

  // The directory's answers for the events this rank's files name, sorted by event.
  std::vector<Producer> resolved_;
  std::uint64_t external_references_ = 0, pre_first_phase_references_ = 0;

  // What this rank's records give the owners, by owner.
  ByRank<VertexNote> vertex_out_;
  ByRank<EdgeNote> edge_out_;
  ByRank<ActionNote> action_out_;
  ByRank<WaitDetail> wait_out_;
  ByRank<TimingNote> time_out_, size_out_;
  ByRank<MergeCountNote> merge_out_;

  // What this rank owns: received.
  std::vector<VertexNote> vertices_;
  std::vector<EdgeNote> edges_;
  std::vector<ActionNote> actions_;
  std::vector<WaitDetail> wait_details_;
  std::vector<TimingNote> times_, sizes_;
  std::vector<MergeCountNote> merge_counts_;
  std::vector<PositionNote> positions_;
  std::vector<TaskOrder> task_order_;     // of its tasks that have actions, by task
  std::vector<WaitCount> waits_before_;   // every waiting task's, by task: how many waits tasks before it have
  std::vector<WaitInfo> waits_;           // of its tasks, in the whole graph's order
  std::vector<std::uint32_t> wait_index_;  // each wait's index in the whole graph's waits
  VertexId first_resume_ = 0;
  std::uint64_t total_waits_ = 0;
};

// Sorting and finding by event: ids, then generations.
inline bool event_less(const core::EventKey& a, const core::EventKey& b) {
  return a.id() != b.id() ? a.id() < b.id() : a.gen < b.gen;
}

}  // namespace rr::graph::part_detail
