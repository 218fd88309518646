// The immutable global event DAG: operations as dense vertices, CSR forward adjacency (the reverse one derived on
// first use), flat attributes.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/ids.hpp"
#include "graph/column.hpp"
#include "graph/function_labels.hpp"

namespace rr::graph {

using VertexId = std::uint32_t;
inline constexpr VertexId kNoVertex = 0xffffffffu;
// Where a vertex's edges start in the CSR arrays: 32 bits (half the memory of 64 per vertex and direction), so a
// graph holds at most 2^32 - 1 edges (about 2.7 G operations at S3D's 1.6 edges each); EventGraph::freeze
// refuses more.
using EdgeOffset = std::uint32_t;
inline constexpr std::uint64_t kMaxEdges = 0xffffffffu;
inline constexpr std::uint32_t kNoNode = 0xffffffffu;
inline constexpr std::uint64_t kNoValue = ~std::uint64_t{0};
inline constexpr std::uint32_t kNoWait = 0xffffffffu;
inline constexpr std::int64_t kNoTime = -1;

// What a vertex is. Every operation except merges and barrier phases is issued by a task.
enum class OpKind : std::uint8_t {
  task,            // Task Request (+ Task Time, Task Waits)
  copy,            // Copy Request (+ Copy Size)
  merge,           // Event Merge (+ Event Preconditions)
  trigger,         // Event Trigger of a user event
  barrier_alter,   // Barrier Alter: changes the arrivals one phase needs
  barrier_arrive,  // Barrier Arrive
  barrier_phase,   // (barrier id, gen): fires when its arrivals are complete, after the previous phase
  task_resume,     // the part of a task after one of its Task Waits: a wait splits a task (docs/replay.md)
  first_of,        // fires when the first of its inputs fires (a Realm completion queue, Legion Prof logs)
  background,      // work of a measured duration on no modelled processor (Realm's dependent partitioning)
};
inline constexpr std::size_t kOpKindCount = 10;
const char* op_kind_name(OpKind kind);

// Why an edge u -> v exists: v cannot happen before u.
enum class EdgeKind : std::uint8_t {
  precondition,  // u produces v's precondition (wait_on)
  issue,         // u is the task that issues v
  merge_input,   // u produces one input of merge v
  wait,          // task v blocks (Task Wait) on the event u produces
  arrival,       // arrive/alter u contributes to barrier phase v
  phase_order,   // phase u is the phase before phase v
  continuation,  // u is the segment of a task that runs just before segment v (a task_resume)
};
inline constexpr std::size_t kEdgeKindCount = 7;
const char* edge_kind_name(EdgeKind kind);

// One per task: 32 bytes, as there is about one task per three records. Few tasks wait (drivers), so the
// number and total of a task's waits are derived from waits() (EventGraph::waits_of, wait_ns), not stored.
struct TaskInfo {
  std::uint32_t func_id = 0;
  std::int32_t priority = 0;
  core::Handle processor;            // target processor or group
  std::int64_t time_ns = kNoTime;  // Task Time in ns (the 2015 logs give whole µs); kNoTime when the trace has none
  std::uint32_t action_count = 0;  // K: operations it issues plus its waits
  std::uint32_t first_wait = kNoWait;  // its first wait in EventGraph::waits(); kNoWait when it has none
};
static_assert(sizeof(TaskInfo) == 32);

struct CopyInfo {
  core::Handle src_memory;
  core::Handle dst_memory;
  std::uint64_t bytes = kNoValue;  // Copy Size; kNoValue when the trace has none
};
static_assert(sizeof(CopyInfo) == 24);  // no padding: a packed trace's bytes are the fields'


// One Task Wait, in its task's program order. The task's segments are its task vertex and
// then one task_resume vertex per wait; edges out of a task's finish event leave its last segment.
struct WaitInfo {
  VertexId task = kNoVertex;
  VertexId resume = kNoVertex;   // the task_resume vertex that runs after this wait
  VertexId awaited = kNoVertex;  // producer of the awaited event; kNoVertex when external
  core::EventKey event;
  std::int64_t wait_ns = 0;  // the Task Wait's measured duration
  std::uint32_t position = 0;  // k among the task's K actions
  float fraction = -1;  // where in the task's busy time it began, as observed (Legion Prof); < 0: not known
};
static_assert(sizeof(WaitInfo) == 40);

struct BarrierPhaseInfo {
  std::int64_t required = 0;  // expected arrivals + Alter deltas of this phase
  std::int64_t arrived = 0;   // sum of Arrive counts
  bool first = false;         // the barrier's first phase
  std::uint8_t unused[7] = {};  // named so that a packed trace holds zeros here, not whatever padding held
};
static_assert(sizeof(BarrierPhaseInfo) == 24);

// An edge u -> v: v cannot happen before u.
struct Edge {
  VertexId from;
  VertexId to;
  EdgeKind kind;
};

// The per-vertex attributes of a graph, filled by whoever builds it (graph_builder) and then frozen with its
// edges into an EventGraph. Parallel arrays indexed by vertex, plus the payload arrays they index.
struct VertexTable {
  std::vector<OpKind> kind;
  std::vector<std::uint32_t> node;  // whole once frozen; a builder may place it last (see append)
  std::vector<core::EventKey> event;
  // May stop short of the last vertices: those past its end have no issuer (freeze gives them kNoVertex), so a
  // builder sizes it only when it has issuers to write, after its own peak.
  std::vector<VertexId> issuer;
  std::vector<std::uint32_t> position;
  std::vector<std::uint32_t> payload;
  std::vector<TaskInfo> tasks;
  std::vector<CopyInfo> copies;
  std::vector<BarrierPhaseInfo> phases;
  std::vector<std::int64_t> barrier_values;
  std::vector<WaitInfo> waits;

  // What a trace with timestamps (Legion Prof) adds, empty otherwise; per vertex, sized when frozen:
  std::vector<float> issue_fraction;         // where in its issuer's busy time an action happened; < 0: not known
  std::vector<std::int64_t> observed_start;  // when the operation started in the traced run; kNoTime: not known
  std::vector<std::int64_t> observed_end;
  // The traced run's clock at observed time 0 (its first operation other than the program's own thread); the
  // observed times above are relative to it.
  std::int64_t observed_origin = 0;
  // The operation waits on an event no record produces, which fired this long after its recorded inputs and
  // its launch in the traced run: it is ready that long after them (Legion Prof logs); 0: none.
  std::vector<std::int64_t> external_delay;
  // Work that is not the application's: the thread that ran the program (Legion Prof's implicit top-level
  // task, on an external thread: its time is the whole program's, start-up and shutdown included) and the
  // profiler's own responses. Replayed (they hold processors as in the run) but left out of the estimate.
  std::vector<VertexId> outside_work;
  // Names of task functions where the trace gives them (Legion Prof: task, meta-task and message kinds).
  std::vector<std::pair<std::uint32_t, std::string>> function_names;

  std::uint32_t size() const { return static_cast<std::uint32_t>(kind.size()); }
  // A task's waits in program order: a contiguous run of `waits` from TaskInfo::first_wait.
  std::span<const WaitInfo> waits_of(VertexId task_vertex) const;
  // Appends a vertex with no issuer (`issuer` is left as it is); returns its id. Positions are placed by program
  // order, which sizes `position` for the vertices it knows; later ones get position 0 when the table is frozen.
  VertexId add(OpKind k, std::uint32_t on_node, const core::EventKey& e, std::uint32_t payload_index);
  // The same without its node (`node` is left as it is), for a builder that places every vertex's node at once
  // before freezing.
  VertexId append(OpKind k, const core::EventKey& e, std::uint32_t payload_index);
};

class EventGraph {
 public:
  EventGraph() = default;
  // Freezes `vertices` and the edges of `edge_runs` (each run a contiguous array, read in order) into a forward
  // CSR. Within a vertex, edges keep the order of the runs: the same input gives the same graph.
  static EventGraph freeze(VertexTable vertices, std::span<const std::span<const Edge>> edge_runs);
  // Throws std::length_error when `edges` is more than a graph holds (kMaxEdges): freeze checks it first.
  static void check_edge_count(std::uint64_t edges);

  std::uint32_t vertex_count() const { return static_cast<std::uint32_t>(kind_.size()); }
  // The id v has in the whole graph: v itself, unless this graph is one rank's local view of a larger one (a part
  // with the vertices it touches, numbered in the whole graph's order), where what depends on an operation's
  // identity (its noise) must follow the whole id.
  VertexId whole_id(VertexId v) const { return whole_ids_.empty() ? v : whole_ids_[v]; }
  // Ascending, one per vertex; empty for a whole graph.
  void set_whole_ids(std::vector<VertexId> ids) { whole_ids_ = std::move(ids); }
  std::span<const VertexId> whole_ids() const { return whole_ids_; }
  std::uint64_t edge_count() const { return succ_.size(); }

  OpKind kind(VertexId v) const { return kind_[v]; }
  // Starts loading v's kind and where its out-edges are, ahead of a use that would miss the cache.
  void prefetch_vertex(VertexId v) const {
    __builtin_prefetch(&kind_[v]);
    __builtin_prefetch(&succ_offset_[v]);
  }
  // The node the operation happens on: a task's processor node, a phase's owner, else the logging node.
  std::uint32_t node(VertexId v) const { return node_[v]; }
  // The event the operation produces (a task's finish event, a phase's (barrier, gen), ...).
  const core::EventKey& event(VertexId v) const { return event_[v]; }
  // The issuing task's first segment, or kNoVertex for operations issued outside any task (at
  // t=0) and for merges/phases. The issue edge itself leaves the segment the action happens in.
  VertexId issuer(VertexId v) const { return issuer_[v]; }
  // k: the operation's place among its issuer's K actions (program order), 0-based.
  std::uint32_t position(VertexId v) const { return position_[v]; }
  // Index into tasks()/copies()/phases()/barrier_values() by kind; merges: announced input
  // count; task_resume: index of its wait in waits().
  std::uint32_t payload(VertexId v) const { return payload_[v]; }

  std::span<const VertexId> successors(VertexId v) const {
    return {succ_.data() + succ_offset_[v], succ_.data() + succ_offset_[v + 1]};
  }
  std::span<const EdgeKind> successor_kinds(VertexId v) const {
    return {succ_kind_.data() + succ_offset_[v], succ_kind_.data() + succ_offset_[v + 1]};
  }
  // In-edges, in order of their sources and then as the sources list them. The reverse CSR they come from is
  // built from the forward one on the first call (about 5.6 bytes per record of a Realm trace, which building,
  // validation, statistics and a replay without moved functions never ask for); calls from several threads
  // build it once.
  std::span<const VertexId> predecessors(VertexId v) const {
    const ReverseCsr& r = reverse();
    return {r.from.data() + r.offset[v], r.from.data() + r.offset[v + 1]};
  }
  std::span<const EdgeKind> predecessor_kinds(VertexId v) const {
    const ReverseCsr& r = reverse();
    return {r.kind.data() + r.offset[v], r.kind.data() + r.offset[v + 1]};
  }
  // Whether the reverse CSR has been built (predecessors() was called on this graph or a copy of it): what the
  // commands that never need it are tested for.
  bool reverse_built() const { return reverse_ && reverse_->built.load(std::memory_order_acquire); }
  // Index of the first out-edge of v in the global edge numbering (edges are numbered by source).
  std::uint64_t first_edge(VertexId v) const { return succ_offset_[v]; }

  const TaskInfo& task(VertexId v) const { return tasks_[payload_[v]]; }
  // The attributes at a task's payload index (payload(task)), without loading the payload.
  const TaskInfo& task_at(std::uint32_t payload_index) const { return tasks_[payload_index]; }
  const WaitInfo& resume_wait(VertexId v) const { return waits_[payload_[v]]; }
  // The task whose work segment v runs: a resume's task, else v itself (a task, or background work).
  VertexId task_of(VertexId v) const { return kind_[v] == OpKind::task_resume ? resume_wait(v).task : v; }
  // The task whose segment v is, or kNoVertex when v is not a task segment.
  VertexId task_of_segment(VertexId v) const {
    return kind_[v] == OpKind::task || kind_[v] == OpKind::task_resume ? task_of(v) : kNoVertex;
  }
  const CopyInfo& copy(VertexId v) const { return copies_[payload_[v]]; }
  const BarrierPhaseInfo& phase(VertexId v) const { return phases_[payload_[v]]; }
  // How many copies, tasks and barrier phases there are: payload() of a copy (a task, a phase) is below this,
  // and no two copies (phases) share one, so per-copy state can live in arrays of this size instead of one per
  // vertex. A packed file could make two tasks share one: state kept per task must follow from TaskInfo alone.
  std::uint32_t copy_count() const { return static_cast<std::uint32_t>(copies_.size()); }
  std::uint32_t task_count() const { return static_cast<std::uint32_t>(tasks_.size()); }  // tasks and background work
  std::uint32_t phase_count() const { return static_cast<std::uint32_t>(phases_.size()); }
  // Arrive count or Alter delta.
  std::int64_t barrier_value(VertexId v) const { return barrier_values_[payload_[v]]; }
  std::span<const WaitInfo> waits() const { return waits_; }
  // A task's waits in program order: a contiguous run of waits() from TaskInfo::first_wait.
  std::span<const WaitInfo> waits_of(VertexId task_vertex) const;
  // The segment wait i resumes after (its continuation edge leaves it): the task itself for the task's first
  // wait, else the resume of the wait before (a task's waits are one run of waits()).
  VertexId segment_before_wait(std::size_t i) const {
    return i == 0 || waits_[i - 1].task != waits_[i].task ? waits_[i].task : waits_[i - 1].resume;
  }
  // The sum of a task's Task Waits, in ns.
  std::int64_t wait_ns(VertexId task_vertex) const;

  // Timestamped traces (Legion Prof), see VertexTable.
  bool has_observed() const { return !observed_start_.empty(); }
  std::int64_t observed_start(VertexId v) const { return observed_start_.empty() ? kNoTime : observed_start_[v]; }
  std::int64_t observed_end(VertexId v) const { return observed_end_.empty() ? kNoTime : observed_end_[v]; }
  std::int64_t observed_origin() const { return observed_origin_; }
  float issue_fraction(VertexId v) const { return issue_fraction_.empty() ? -1.0f : issue_fraction_[v]; }
  std::int64_t external_delay(VertexId v) const { return external_delay_.empty() ? 0 : external_delay_[v]; }
  bool has_external_delays() const { return !external_delay_.empty(); }  // else external_delay() is 0 everywhere
  std::span<const VertexId> outside_work() const { return outside_work_; }
  // How every output prints a function (graph/function_labels.hpp): its name where the trace or a names file
  // gives one ("calc_new_currents"), escaped, "name#id" where two functions share a name; else "f5".
  std::string function_name(std::uint32_t func) const;
  // The names as given, sorted by function id.
  const FunctionNames& function_names() const { return function_names_; }
  // Replaces the names (a names file laid over the trace's own) and labels them again.
  void set_function_names(FunctionNames names);

  // Every part of the graph in one fixed order, for the packed trace format (packed/packed_trace): calls
  // `parts.column(c)` on each array and `parts.value(x)` on each other member. Loading a packed trace replaces
  // them all, then checks them with structure_problem().
  template <class Parts>
  void visit_parts(Parts& parts) {
    parts.column(kind_); parts.column(node_); parts.column(event_); parts.column(issuer_); parts.column(position_);
    parts.column(payload_); parts.column(tasks_); parts.column(copies_); parts.column(phases_);
    parts.column(barrier_values_); parts.column(waits_); parts.column(issue_fraction_);
    parts.column(observed_start_); parts.column(observed_end_); parts.column(external_delay_);
    parts.column(outside_work_); parts.column(succ_offset_); parts.column(succ_); parts.column(succ_kind_);
    parts.value(observed_origin_);
    parts.value(function_names_);
  }
  template <class Parts>
  void visit_parts(Parts& parts) const {
    const_cast<EventGraph&>(*this).visit_parts(parts);  // the writer's Parts only reads
  }
  // What makes a graph unsafe to walk, where its arrays come from outside (a packed trace file): an index out
  // of its array, a CSR that does not add up, a kind that does not exist; empty when there is none. Checks what
  // freeze() guarantees by construction, in one pass over the arrays.
  std::string structure_problem() const;

 private:
  // The three passes of structure_problem(): one vertex alone, one vertex's edges and issuer, one wait.
  std::string vertex_problem(std::uint64_t v) const;
  std::string edges_problem(std::uint64_t v) const;
  std::string wait_problem(std::uint64_t i) const;

  Column<OpKind> kind_;
  Column<std::uint32_t> node_;
  Column<core::EventKey> event_;
  Column<VertexId> issuer_;
  Column<std::uint32_t> position_;
  Column<std::uint32_t> payload_;
  Column<TaskInfo> tasks_;
  Column<CopyInfo> copies_;
  Column<BarrierPhaseInfo> phases_;
  Column<std::int64_t> barrier_values_;
  Column<WaitInfo> waits_;
  Column<float> issue_fraction_;
  Column<std::int64_t> observed_start_;
  Column<std::int64_t> observed_end_;
  Column<std::int64_t> external_delay_;
  Column<VertexId> outside_work_;
  std::int64_t observed_origin_ = 0;
  FunctionNames function_names_;
  FunctionNames function_labels_;  // derived from function_names_, never stored in a packed trace
  std::vector<VertexId> whole_ids_;  // a local view's whole ids (whole_id); never stored in a packed trace
  Column<EdgeOffset> succ_offset_;
  Column<VertexId> succ_;
  Column<EdgeKind> succ_kind_;

  struct ReverseCsr {
    std::once_flag once;
    std::atomic<bool> built{false};  // read first, so that a built one costs a load, not a call_once
    std::vector<EdgeOffset> offset;
    std::vector<VertexId> from;
    std::vector<EdgeKind> kind;
  };
  const ReverseCsr& reverse() const {
    // A graph moved from has no edges, and no in-edges to ask for.
    if (!reverse_) throw std::logic_error("the in-edges of a graph that was moved from");
    if (!reverse_->built.load(std::memory_order_acquire))
      std::call_once(reverse_->once, [this] {
        build_reverse(*reverse_);
        reverse_->built.store(true, std::memory_order_release);
      });
    return *reverse_;
  }
  void build_reverse(ReverseCsr& r) const;
  // Shared by copies of the graph, whose edges are the same; a fresh one per graph built or loaded (visit_parts
  // fills a graph just made: it never replaces the edges of one whose reverse may be built).
  std::shared_ptr<ReverseCsr> reverse_ = std::make_shared<ReverseCsr>();
};

}  // namespace rr::graph
