// The graph build's shared state (private to rr::graph): a class whose phases live in one file each under
// graph/src/builder/. Work is split by record batch (a chunk of one file): each batch's vertices get fixed ids up
// front, so batches fill their vertices and resolve their references in parallel; whatever a batch produces
// (edges, actions, findings) is kept per batch and joined in input order, so the graph and the findings are the
// same whatever the thread count. Built from a releasable trace, the build frees each record array as soon as the
// graph holds what it needs of it, so the records and the graph are never both whole in memory.
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/timing_tally.hpp"
#include "graph/event_graph.hpp"
#include "graph/event_table.hpp"
#include "graph/graph_builder.hpp"
#include "graph/src/builder/producer_table.hpp"
#include "graph/src/finding_log.hpp"
#include "platform/freed_memory.hpp"

namespace rr::graph::build_detail {

// One action of a task, for program order: issued operations and waits.
struct Action {
  VertexId issuer;
  std::uint32_t ref;    // vertex, or wait index (with kWaitFlag)
  std::uint64_t where;  // file index << 40 | line: input order
  static constexpr std::uint32_t kWaitFlag = 0x80000000u;
  static std::uint64_t at(std::uint32_t file, std::uint64_t line) { return std::uint64_t{file} << 40 | line; }
  bool is_wait() const { return (ref & kWaitFlag) != 0; }
  std::uint32_t index() const { return ref & ~kWaitFlag; }
};
static_assert(sizeof(Action) == 16);

// A batch's share of one large array, sized by an upper bound computed from the batch's records.
template <class T>
struct Slice {
  T* data = nullptr;
  std::size_t size = 0;
  std::size_t capacity = 0;
  void push_back(const T& x) {
    assert(size < capacity);
    data[size++] = x;
  }
  T* begin() const { return data; }
  T* end() const { return data + size; }
};

// What resolving a batch's requests of one kind (Task Requests, Copy Requests or Event Triggers) needs once their
// vertices are filled in, kept apart so that the records can be freed as their vertices are filled, before the
// producer table is built. Most requests of an S3D-like trace have no precondition (NO_EVENT), so preconditions
// are kept only where there is one: 16 bytes and a bit a request, and 12 more per precondition, instead of 28.
struct RequestReferences {
  struct Issue {
    core::EventKey enclosing;
    std::uint32_t line;
  };
  std::vector<Issue> issues;                  // by request
  std::vector<bool> has_precondition;         // by request
  std::vector<core::EventKey> preconditions;  // those that are not NO_EVENT, in request order

  // Room for `requests` requests, `with_precondition` of them with a precondition.
  void reserve(std::size_t requests, std::size_t with_precondition) {
    issues.reserve(requests);
    has_precondition.reserve(requests);
    preconditions.reserve(with_precondition);
  }
  void add(const core::EventKey& precondition, const core::EventKey& enclosing, std::uint32_t line) {
    issues.push_back({enclosing, line});
    has_precondition.push_back(!precondition.is_none());
    if (!precondition.is_none()) preconditions.push_back(precondition);
  }
  // Frees everything; returns the bytes it held.
  std::size_t release() {
    const std::size_t bits = has_precondition.capacity() / 8;
    std::vector<bool>().swap(has_precondition);
    return platform::free_array(issues) + platform::free_array(preconditions) + bits;
  }
};

// Frees one of a batch's record arrays for good; its records still count in the batch's record_count().
template <class Record>
std::size_t release(core::RecordBatch& batch, std::vector<Record>& records) {
  batch.released_records += records.size();
  return platform::free_array(records);
}

// The logs' microseconds as the graph's nanoseconds. The parser bounds them (core::kMaxLoggedMicros), so this
// cannot overflow.
inline std::int64_t micros_to_ns(std::uint64_t micros) { return static_cast<std::int64_t>(micros) * 1000; }

// How many keys ahead of the current one lookups prefetch their slot.
constexpr std::size_t kPrefetchDistance = 12;

// One record batch: where its vertices are, and what resolving it produced.
struct BatchWork {
  const core::RecordBatch* batch = nullptr;
  core::RecordBatch* releasable = nullptr;  // the same batch, when the build may free its records
  std::uint32_t file = 0;
  std::uint32_t node = kNoNode;  // the logging node
  // Its vertices, kind by kind: tasks, copies, merges, triggers, alters, arrives.
  VertexId first_task = 0, first_copy = 0, first_merge = 0, first_trigger = 0, first_alter = 0, first_arrive = 0;
  std::uint32_t task_info = 0, copy_info = 0, alter_value = 0, arrive_value = 0;  // first payload indices

  // By request, from fill_vertices to resolve.
  RequestReferences task_references, copy_references, trigger_references;
  Slice<Edge> edges;
  Slice<Action> actions;
  std::vector<WaitInfo> waits;  // Action::ref of a wait is an index into this, until the waits are joined
  std::vector<core::EventKey> external_inputs;
  std::vector<VertexId> unproduced_merge_inputs;  // a merge per Event Precondition whose input has no producer
  std::uint64_t external_references = 0;
  std::uint64_t pre_first_phase_references = 0;
  bool repeated_task_time = false;
  bool repeated_copy_size = false;
  FindingLog findings;
  core::FileTimingTally timing;  // this batch's timing records, added into its file's at the join
};

class GraphBuilder {
 public:
  // `releasable` is the trace itself when its records may be freed as the build goes, else null.
  GraphBuilder(const core::TraceRecords& trace, core::TraceRecords* releasable, const BuildOptions& options)
      : trace_(trace), releasable_(releasable), options_(options), layout_(core::IdLayout::for_width(trace.width)) {}

  BuildResult build();

 private:
  std::uint32_t owner_node(std::uint64_t id) const {
    return trace_.width == core::IdWidth::unknown ? kNoNode : layout_.node_of(id);
  }
  void set_vertex(VertexId v, OpKind kind, const core::EventKey& event, std::uint32_t payload);

  // lay_out.cpp
  void lay_out_batches();
  void fill_all_vertices();
  void fill_vertices(BatchWork& w);
  void place_slabs();
  // barrier_phases.cpp
  VertexId phase_vertex(const core::EventKey& phase);
  void collect_barriers();
  void complete_barriers();
  // producers.cpp
  void register_producers();
  VertexId producer_of(BatchWork& w, const core::EventKey& event) const;
  VertexId producer_of_kind(const core::EventKey& event, OpKind kind) const;
  void join_timings(BatchWork& w);
  void join_all_timings();
  void resolve(BatchWork& w);
  void join_batches();
  void place_nodes();
  void settle_repeated_timings(bool times, bool sizes);
  // program_order.cpp
  void order_actions();
  void split_tasks_at_waits();
  // graph_builder.cpp
  void freeze();
  // checks.cpp: checks that read the frozen graph rather than arrays of their own, which would be alive at the peak
  void check_merge_counts();
  void check_timing_joins();
  void check_cycles();

  const core::TraceRecords& trace_;
  core::TraceRecords* releasable_;
  const BuildOptions& options_;
  core::IdLayout layout_;
  VertexTable v_;    // the vertices, until frozen into out_.graph
  // How many vertices, tasks, copies and barrier values the records' batches need (lay_out_batches).
  struct LaidOut {
    VertexId vertices = 0;
    std::uint32_t tasks = 0, copies = 0, values = 0;
  };
  LaidOut laid_out_;
  BuildResult out_;
  FindingLog log_{options_.examples_per_finding};  // findings of the serial steps
  std::vector<BatchWork> work_;
  PartitionedProducerTable producers_{v_.event};
  // Events another kind of record produced before a Task Request did (duplicate producers): the first such
  // task, which the timing tally counts a Task Time of the event for (core::FileTimingTally).
  EventTable first_task_of_shared_event_;
  EventTable phases_;
  std::vector<VertexId> unproduced_merge_inputs_;  // every batch's, joined
  platform::FreedMemory freed_;  // what releasing the records freed, given back as it goes
  std::unordered_map<std::uint64_t, std::uint32_t> barriers_;     // barrier id -> expected arrivals
  std::unordered_map<std::uint64_t, std::uint32_t> first_phase_;  // barrier id -> first phase gen
  std::vector<VertexId> phase_list_;
  std::vector<Edge> barrier_edges_;
  std::vector<Edge> tail_edges_;
  Slice<Action> actions_;  // every batch's, joined in the action slab
  std::unique_ptr<Edge[]> edge_slab_;
  std::unique_ptr<Action[]> action_slab_;
};

}  // namespace rr::graph::build_detail
