// Global event resolution: producers of every event across files, joins of timing records, program order,
// barrier phases, validation findings, then the CSR freeze and cycle detection.
//
// Work is split by record batch (a chunk of one file). Each batch's vertices get fixed ids up front, so
// batches fill their vertices and resolve their references in parallel; whatever a batch produces (edges,
// actions, findings) is kept per batch and joined in input order, so the graph and the findings are the
// same whatever the thread count. Each part of the producer table is filled by one thread, with prefetching.
//
// Built from a releasable trace (build_event_graph_releasing), the build frees each record array as soon as
// the graph holds what it needs of it, so the records and the graph are never both whole in memory.
#include "graph/graph_builder.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cassert>
#include <memory>
#include <atomic>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <unordered_map>

#include "graph/event_table.hpp"
#include "graph/graph_algorithms.hpp"
#include "platform/huge_pages.hpp"
#include "graph/src/finding_log.hpp"
#include "platform/freed_memory.hpp"

namespace rr::graph {
namespace build_detail {

struct RawEdge {
  VertexId from;
  VertexId to;
  EdgeKind kind;
};

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

// What resolving a Task Request needs once its vertex and TaskInfo are filled in: 28 of its 64 bytes. Kept
// apart so that the Task Requests, the largest records, can be freed before the producer table is built.
struct TaskReferences {
  core::EventKey precondition;
  core::EventKey enclosing;
  std::uint32_t line;
};

// Frees one of a batch's record arrays for good; its records still count in the batch's record_count().
template <class Record>
std::size_t release(core::RecordBatch& batch, std::vector<Record>& records) {
  batch.released_records += records.size();
  return platform::free_array(records);
}

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

  std::vector<TaskReferences> task_references;  // by task request, from fill_vertices to resolve
  Slice<RawEdge> edges;
  Slice<Action> actions;
  std::vector<WaitInfo> waits;  // Action::ref of a wait is an index into this, until the waits are joined
  std::vector<core::EventKey> external_inputs;
  std::vector<VertexId> unproduced_merge_inputs;  // a merge per Event Precondition whose input has no producer
  std::uint64_t external_references = 0;
  std::uint64_t pre_first_phase_references = 0;
  bool repeated_task_time = false;
  bool repeated_copy_size = false;
  FindingLog findings;
};

}  // namespace build_detail

using namespace build_detail;

class GraphBuilder {
 public:
  // `releasable` is the trace itself when its records may be freed as the build goes, else null.
  GraphBuilder(const core::TraceRecords& trace, core::TraceRecords* releasable, const BuildOptions& options)
      : trace_(trace), releasable_(releasable), options_(options), layout_(core::IdLayout::for_width(trace.width)) {}

  BuildResult build() {
    lay_out_batches();
    tbb::parallel_for(std::size_t{0}, work_.size(), [&](std::size_t i) { fill_vertices(work_[i]); });
    place_slabs();
    collect_barriers();
    complete_barriers();
    register_producers();
    tbb::parallel_for(std::size_t{0}, work_.size(), [&](std::size_t i) { resolve(work_[i]); });
    join_batches();
    // The event tables are not needed past this point: free them before the CSR is built.
    producers_ = PartitionedEventTable();
    phases_ = EventTable();
    order_actions();
    split_tasks_at_waits();
    freeze();
    // Checks that read the frozen graph rather than arrays of their own, which would be alive at the peak.
    check_merge_counts();
    check_timing_joins();
    detect_cycles();
    log_.append_to(out_.findings);
    return std::move(out_);
  }

 private:
  EventGraph& g() { return out_.graph; }

  std::uint32_t owner_node(std::uint64_t id) const {
    return trace_.width == core::IdWidth::unknown ? kNoNode : layout_.node_of(id);
  }

  // Fixed vertex ids and payload indices for every batch, in input order; the arrays sized to hold them.
  void lay_out_batches() {
    VertexId v = 0;
    std::uint32_t tasks = 0, copies = 0, values = 0, waits = 0;
    for (std::uint32_t fi = 0; fi < trace_.files.size(); ++fi) {
      const auto& f = trace_.files[fi];
      for (std::size_t bi = 0; bi < f.batches.size(); ++bi) {
        const core::RecordBatch& b = f.batches[bi];
        BatchWork& w = work_.emplace_back();
        w.batch = &b;
        if (releasable_) w.releasable = &releasable_->files[fi].batches[bi];
        w.file = fi;
        w.node = f.node < 0 ? kNoNode : static_cast<std::uint32_t>(f.node);
        w.findings = FindingLog(options_.examples_per_finding);
        auto count = [](std::size_t n) { return static_cast<std::uint32_t>(n); };
        w.first_task = v;
        w.first_copy = w.first_task + count(b.task_requests.size());
        w.first_merge = w.first_copy + count(b.copy_requests.size());
        w.first_trigger = w.first_merge + count(b.event_merges.size());
        w.first_alter = w.first_trigger + count(b.event_triggers.size());
        w.first_arrive = w.first_alter + count(b.barrier_alters.size());
        v = w.first_arrive + count(b.barrier_arrives.size());
        w.task_info = tasks;
        w.copy_info = copies;
        w.alter_value = values;
        w.arrive_value = values + count(b.barrier_alters.size());
        tasks += count(b.task_requests.size());
        copies += count(b.copy_requests.size());
        values += count(b.barrier_alters.size() + b.barrier_arrives.size());
        waits += count(b.task_waits.size());
      }
    }
    // Barrier phases (at most one per Alter/Arrive, but for gaps) and task_resume vertices come last.
    EventGraph& graph = g();
    const std::size_t room = std::size_t{v} + values + waits;
    platform::reserve_on_huge_pages(graph.kind_, room);
    platform::reserve_on_huge_pages(graph.node_, room);
    platform::reserve_on_huge_pages(graph.event_, room);
    platform::reserve_on_huge_pages(graph.issuer_, room);
    platform::reserve_on_huge_pages(graph.payload_, room);
    platform::reserve_on_huge_pages(graph.tasks_, tasks);
    platform::reserve_on_huge_pages(graph.copies_, copies);
    graph.kind_.resize(v);
    graph.node_.resize(v);
    graph.event_.resize(v);
    graph.issuer_.assign(v, kNoVertex);
    graph.payload_.resize(v);
    graph.tasks_.resize(tasks);
    graph.copies_.resize(copies);
    graph.barrier_values_.resize(values);
  }

  void set_vertex(VertexId v, OpKind kind, std::uint32_t node, const core::EventKey& event, std::uint32_t payload) {
    EventGraph& graph = g();
    graph.kind_[v] = kind;
    graph.node_[v] = node;
    graph.event_[v] = event;
    graph.payload_[v] = payload;
  }

  VertexId add_vertex(OpKind kind, std::uint32_t node, const core::EventKey& event, std::uint32_t payload) {
    auto v = static_cast<VertexId>(g().kind_.size());
    g().kind_.push_back(kind);
    g().node_.push_back(node);
    g().event_.push_back(event);
    g().issuer_.push_back(kNoVertex);
    g().payload_.push_back(payload);
    return v;
  }

  // One vertex per producing record (a task runs on its processor's node, the rest on the logging node).
  // Also counts the room the batch's edges and actions will take: an edge per precondition and enclosing
  // task that is not NO_EVENT, an action per enclosing task and wait, an edge per merge input.
  void fill_vertices(BatchWork& w) {
    const core::RecordBatch& b = *w.batch;
    EventGraph& graph = g();
    auto room = [&](const core::EventKey& wait_on, const core::EventKey& enclosing) {
      w.edges.capacity += !wait_on.is_none() + !enclosing.is_none();
      w.actions.capacity += !enclosing.is_none();
    };
    w.edges.capacity = b.event_preconditions.size();
    w.actions.capacity = b.task_waits.size();
    w.task_references.reserve(b.task_requests.size());
    for (std::uint32_t i = 0; i < b.task_requests.size(); ++i) {
      const auto& r = b.task_requests[i];
      TaskInfo& t = graph.tasks_[w.task_info + i];
      t.func_id = r.func_id;
      t.priority = r.priority;
      t.processor = r.target;
      set_vertex(w.first_task + i, OpKind::task, owner_node(r.target.value()), r.finish, w.task_info + i);
      w.task_references.push_back({r.precondition, r.enclosing, r.line});
      room(r.precondition, r.enclosing);
    }
    if (w.releasable) freed_.released(release(*w.releasable, w.releasable->task_requests));
    for (std::uint32_t i = 0; i < b.copy_requests.size(); ++i) {
      const auto& r = b.copy_requests[i];
      graph.copies_[w.copy_info + i] = {r.src_memory, r.dst_memory, kNoValue};
      set_vertex(w.first_copy + i, OpKind::copy, w.node, r.copy, w.copy_info + i);
      room(r.wait_on, r.enclosing);
    }
    for (std::uint32_t i = 0; i < b.event_merges.size(); ++i)
      set_vertex(w.first_merge + i, OpKind::merge, w.node, b.event_merges[i].merged, b.event_merges[i].input_count);
    for (std::uint32_t i = 0; i < b.event_triggers.size(); ++i) {
      const auto& r = b.event_triggers[i];
      set_vertex(w.first_trigger + i, OpKind::trigger, w.node, r.event, 0);
      room(r.wait_on, r.enclosing);
    }
    for (std::uint32_t i = 0; i < b.barrier_alters.size(); ++i) {
      const auto& r = b.barrier_alters[i];
      graph.barrier_values_[w.alter_value + i] = r.delta;
      set_vertex(w.first_alter + i, OpKind::barrier_alter, w.node, r.phase, w.alter_value + i);
      room(core::EventKey{}, r.enclosing);
    }
    for (std::uint32_t i = 0; i < b.barrier_arrives.size(); ++i) {
      const auto& r = b.barrier_arrives[i];
      graph.barrier_values_[w.arrive_value + i] = r.count;
      set_vertex(w.first_arrive + i, OpKind::barrier_arrive, w.node, r.phase, w.arrive_value + i);
      room(r.wait_on, r.enclosing);
    }
  }

  // Every batch writes its edges and actions into its own part of one array each, sized as fill_vertices
  // counted: with huge pages, room reserved and never written would be resident all the same.
  void place_slabs() {
    std::size_t edge_room = 0, action_room = 0;
    for (const BatchWork& w : work_) {
      edge_room += w.edges.capacity;
      action_room += w.actions.capacity;
    }
    edge_slab_.reset(new RawEdge[edge_room]);  // not value-initialised: pages are touched when written
    action_slab_.reset(new Action[action_room]);
    platform::advise_huge_pages(edge_slab_.get(), edge_room * sizeof(RawEdge));
    platform::advise_huge_pages(action_slab_.get(), action_room * sizeof(Action));
    edge_room = action_room = 0;
    for (BatchWork& w : work_) {
      w.edges.data = edge_slab_.get() + edge_room;
      w.actions.data = action_slab_.get() + action_room;
      edge_room += w.edges.capacity;
      action_room += w.actions.capacity;
    }
  }

  VertexId phase_vertex(const core::EventKey& phase, std::uint32_t node) {
    VertexId v = phases_.find(phase);
    if (v != EventTable::kMissing) return v;
    v = add_vertex(OpKind::barrier_phase, node, phase, static_cast<std::uint32_t>(g().phases_.size()));
    g().phases_.push_back({});
    phases_.insert(phase, v);
    phase_list_.push_back(v);
    return v;
  }

  // Barrier creations, and one vertex per (barrier, generation) that Alter/Arrive name, after every
  // record's vertex; arrivals become edges into their phase.
  void collect_barriers() {
    for (const BatchWork& w : work_) {
      const core::RecordBatch& b = *w.batch;
      for (const auto& r : b.barrier_creations) barriers_.try_emplace(r.id.value(), r.expected_arrivals);
      for (std::uint32_t i = 0; i < b.barrier_alters.size(); ++i) {
        const auto& r = b.barrier_alters[i];
        VertexId p = phase_vertex(r.phase, owner_node(r.phase.id()));
        g().phases_[g().payload_[p]].required += r.delta;
        barrier_edges_.push_back({w.first_alter + i, p, EdgeKind::arrival});
      }
      for (std::uint32_t i = 0; i < b.barrier_arrives.size(); ++i) {
        const auto& r = b.barrier_arrives[i];
        VertexId p = phase_vertex(r.phase, owner_node(r.phase.id()));
        g().phases_[g().payload_[p]].arrived += r.count;
        barrier_edges_.push_back({w.first_arrive + i, p, EdgeKind::arrival});
      }
    }
  }

  // Barrier phases: expected arrivals from the creation, order between phases, gaps filled,
  // and phases whose arrivals can never reach the required count (spec §7.5).
  void complete_barriers() {
    std::map<std::uint64_t, std::vector<std::uint32_t>> gens;  // barrier id -> phase gens (ordered by id)
    for (VertexId p : phase_list_) gens[g().event_[p].id()].push_back(g().event_[p].gen);
    for (auto& [id, list] : gens) {
      std::sort(list.begin(), list.end());
      first_phase_.emplace(id, list.front());
      auto created = barriers_.find(id);
      std::int64_t expected = 0;
      if (created == barriers_.end())
        log_.note(FindingKind::barrier_without_creation, core::EventKey::make(id, list.front()));
      else
        expected = created->second;
      VertexId previous = kNoVertex;
      // The first phase is the smallest generation seen in Alter/Arrive; a missing
      // generation in between still has to fire before the next one can.
      for (std::uint32_t gen = list.front(); gen <= list.back(); ++gen) {
        core::EventKey key = core::EventKey::make(id, gen);
        VertexId p = phase_vertex(key, owner_node(id));
        BarrierPhaseInfo& info = g().phases_[g().payload_[p]];
        info.required += expected;
        info.first = previous == kNoVertex;
        if (previous != kNoVertex) barrier_edges_.push_back({previous, p, EdgeKind::phase_order});
        if (info.arrived < info.required)
          log_.note(FindingKind::barrier_phase_incomplete, key, [&] {
            return "needs " + std::to_string(info.required) + " arrivals, gets " + std::to_string(info.arrived);
          });
        previous = p;
        if (gen == 0xffffffffu) break;
      }
    }
  }

  // The event -> producer table, each part filled by one thread in vertex order, so that of two producers
  // of one event the first one in the input wins and the second is the finding.
  void register_producers() {
    const EventGraph& graph = g();
    const VertexId n = graph.vertex_count();
    using Table = PartitionedEventTable;
    auto produces = [&](VertexId v) {
      return graph.kind_[v] != OpKind::barrier_alter && graph.kind_[v] != OpKind::barrier_arrive &&
             !graph.event_[v].is_none();
    };
    std::array<std::vector<std::pair<VertexId, VertexId>>, Table::kParts> repeats;  // (second, first) producer
    // The producing vertices bucketed by part, each bucket in vertex order: one pass over the events, not
    // one per part.
    constexpr std::uint8_t kNotProducing = 0xff;
    std::vector<std::uint8_t> part_of(n);
    std::array<std::size_t, Table::kParts + 1> start{};
    for (VertexId v = 0; v < n; ++v) {
      part_of[v] = produces(v) ? static_cast<std::uint8_t>(Table::part_of(graph.event_[v])) : kNotProducing;
      if (part_of[v] != kNotProducing) ++start[part_of[v] + 1];
    }
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<VertexId> bucketed(start.back());
    auto cursor = start;
    for (VertexId v = 0; v < n; ++v)
      if (part_of[v] != kNotProducing) bucketed[cursor[part_of[v]]++] = v;
    part_of = {};
    tbb::parallel_for(std::size_t{0}, Table::kParts, [&](std::size_t part) {
      EventTable& table = producers_.part(part);
      const std::size_t end = start[part + 1];
      table.reserve(end - start[part]);
      for (std::size_t i = start[part]; i < end; ++i) {
        if (i + kPrefetchDistance < end) table.prefetch(graph.event_[bucketed[i + kPrefetchDistance]]);
        const VertexId v = bucketed[i];
        const VertexId existing = table.insert(graph.event_[v], v);
        if (existing != v) repeats[part].emplace_back(v, existing);
      }
    });
    // Findings in vertex order, whichever part found them.
    std::vector<std::pair<VertexId, VertexId>> all;
    for (const auto& r : repeats) all.insert(all.end(), r.begin(), r.end());
    std::sort(all.begin(), all.end());
    for (const auto& [second, first] : all)
      log_.note(FindingKind::duplicate_producer, graph.event_[second], [&] {
        return std::string(op_kind_name(graph.kind_[first])) + " and " + op_kind_name(graph.kind_[second]);
      });
  }

  // The producer of an awaited event, or kNoVertex for NO_EVENT and external events.
  VertexId producer_of(BatchWork& w, const core::EventKey& event) const {
    if (event.is_none()) return kNoVertex;
    VertexId v = producers_.find(event);
    if (v != EventTable::kMissing) return v;
    auto first = first_phase_.find(event.id());
    if (first != first_phase_.end() && event.gen < first->second) {
      ++w.pre_first_phase_references;
      return kNoVertex;
    }
    ++w.external_references;
    w.external_inputs.push_back(event);
    return kNoVertex;
  }

  // The vertex of `event` if it is of `kind`, else kNoVertex.
  VertexId producer_of_kind(const core::EventKey& event, OpKind kind) const {
    VertexId v = producers_.find(event);
    return v != EventTable::kMissing && out_.graph.kind_[v] == kind ? v : kNoVertex;
  }

  // Every reference in one batch becomes an edge from its producer; timing records join their request.
  void resolve(BatchWork& w) {
    const core::RecordBatch& b = *w.batch;
    EventGraph& graph = g();
    auto edge = [&](VertexId from, VertexId to, EdgeKind kind) {
      if (from != kNoVertex) w.edges.push_back({from, to, kind});
    };
    auto issued = [&](VertexId v, const core::EventKey& enclosing, std::uint32_t rel_line) {
      if (enclosing.is_none()) return;
      VertexId t = producer_of_kind(enclosing, OpKind::task);
      if (t == kNoVertex) {
        w.findings.note(FindingKind::unknown_issuer, enclosing, [&] {
          return std::string("issues a ") + op_kind_name(graph.kind_[v]) + " producing " + core::to_string(graph.event_[v]);
        });
        return;
      }
      graph.issuer_[v] = t;
      w.edges.push_back({t, v, EdgeKind::issue});
      w.actions.push_back({t, v, Action::at(w.file, b.file_line(rel_line))});
    };
    // Prefetches the slots of the records kPrefetchDistance ahead of i.
    auto ahead = [&](const auto& records, std::size_t i, auto... keys) {
      if (i + kPrefetchDistance < records.size()) {
        const auto& r = records[i + kPrefetchDistance];
        (producers_.prefetch(r.*keys), ...);
      }
    };
    using namespace core;
    for (std::uint32_t i = 0; i < w.task_references.size(); ++i) {
      ahead(w.task_references, i, &TaskReferences::precondition, &TaskReferences::enclosing);
      const TaskReferences& r = w.task_references[i];
      edge(producer_of(w, r.precondition), w.first_task + i, EdgeKind::precondition);
      issued(w.first_task + i, r.enclosing, r.line);
    }
    freed_.released(platform::free_array(w.task_references));
    for (std::uint32_t i = 0; i < b.copy_requests.size(); ++i) {
      ahead(b.copy_requests, i, &CopyRequestRecord::wait_on, &CopyRequestRecord::enclosing);
      const auto& r = b.copy_requests[i];
      edge(producer_of(w, r.wait_on), w.first_copy + i, EdgeKind::precondition);
      issued(w.first_copy + i, r.enclosing, r.line);
    }
    for (std::uint32_t i = 0; i < b.event_triggers.size(); ++i) {
      ahead(b.event_triggers, i, &EventTriggerRecord::wait_on, &EventTriggerRecord::enclosing);
      const auto& r = b.event_triggers[i];
      edge(producer_of(w, r.wait_on), w.first_trigger + i, EdgeKind::precondition);
      issued(w.first_trigger + i, r.enclosing, r.line);
    }
    for (std::uint32_t i = 0; i < b.barrier_alters.size(); ++i)
      issued(w.first_alter + i, b.barrier_alters[i].enclosing, b.barrier_alters[i].line);
    for (std::uint32_t i = 0; i < b.barrier_arrives.size(); ++i) {
      const auto& r = b.barrier_arrives[i];
      edge(producer_of(w, r.wait_on), w.first_arrive + i, EdgeKind::precondition);
      issued(w.first_arrive + i, r.enclosing, r.line);
    }
    for (std::size_t i = 0; i < b.event_preconditions.size(); ++i) {
      ahead(b.event_preconditions, i, &EventPreconditionRecord::merged, &EventPreconditionRecord::input);
      const auto& r = b.event_preconditions[i];
      VertexId m = producer_of_kind(r.merged, OpKind::merge);
      if (m == kNoVertex) {
        w.findings.note(FindingKind::precondition_without_merge, r.merged,
                        [&] { return "input " + core::to_string(r.input); });
        continue;
      }
      const VertexId input = producer_of(w, r.input);
      if (input == kNoVertex)
        w.unproduced_merge_inputs.push_back(m);
      else
        w.edges.push_back({input, m, EdgeKind::merge_input});
    }
    for (std::size_t i = 0; i < b.task_times.size(); ++i) {
      ahead(b.task_times, i, &TaskTimeRecord::finish);
      const auto& r = b.task_times[i];
      VertexId t = producer_of_kind(r.finish, OpKind::task);
      if (t == kNoVertex) {
        w.findings.note(FindingKind::task_time_without_request, r.finish,
                        [&] { return std::to_string(r.micros) + " us"; });
        continue;
      }
      // A second Task Time for one task is settled after the parallel part, in input order.
      std::uint64_t none = kNoValue;
      if (!std::atomic_ref<std::uint64_t>(graph.tasks_[graph.payload_[t]].time_us).compare_exchange_strong(none, r.micros))
        w.repeated_task_time = true;
    }
    for (std::size_t i = 0; i < b.copy_sizes.size(); ++i) {
      ahead(b.copy_sizes, i, &CopySizeRecord::copy);
      const auto& r = b.copy_sizes[i];
      VertexId c = producer_of_kind(r.copy, OpKind::copy);
      if (c == kNoVertex) {
        w.findings.note(r.bytes == 0 ? FindingKind::zero_byte_copy_orphan : FindingKind::copy_size_without_request,
                        r.copy, [&] { return std::to_string(r.bytes) + " bytes"; });
        continue;
      }
      std::uint64_t none = kNoValue;
      if (!std::atomic_ref<std::uint64_t>(graph.copies_[graph.payload_[c]].bytes).compare_exchange_strong(none, r.bytes))
        w.repeated_copy_size = true;
    }
    for (const auto& r : b.task_waits) {
      VertexId t = producer_of_kind(r.waiter, OpKind::task);
      if (t == kNoVertex) {
        w.findings.note(FindingKind::wait_without_task, r.waiter,
                        [&] { return "waits on " + core::to_string(r.awaited); });
        continue;
      }
      VertexId awaited = producer_of(w, r.awaited);
      w.actions.push_back({t, static_cast<std::uint32_t>(w.waits.size()) | Action::kWaitFlag, Action::at(w.file, b.file_line(r.line))});
      w.waits.push_back({t, kNoVertex, awaited, r.awaited, r.micros, 0});
    }
    // Everything but the timing records is in the graph now. Freeing them here, batch by batch, gives
    // back about as much memory as the edges and actions the remaining batches still add.
    if (core::RecordBatch* r = w.releasable)
      freed_.released(release(*r, r->task_waits) + release(*r, r->event_merges) +
                      release(*r, r->event_preconditions) + release(*r, r->event_triggers) +
                      release(*r, r->barrier_creations) + release(*r, r->barrier_alters) +
                      release(*r, r->barrier_arrives) + release(*r, r->copy_requests));
  }

  // Joins what the batches found, in input order.
  void join_batches() {
    EventTable externals;
    std::size_t waits = 0;
    for (const BatchWork& w : work_) waits += w.waits.size();
    g().waits_.reserve(waits);
    // The batches' actions move down to one run at the start of their array (never onto a later batch's).
    actions_ = {action_slab_.get(), 0, 0};
    bool repeated_times = false, repeated_sizes = false;
    for (BatchWork& w : work_) {
      w.findings.append_to(out_.findings);
      out_.findings.external_references += w.external_references;
      out_.findings.pre_first_phase_references += w.pre_first_phase_references;
      unproduced_merge_inputs_.insert(unproduced_merge_inputs_.end(), w.unproduced_merge_inputs.begin(),
                                      w.unproduced_merge_inputs.end());
      w.unproduced_merge_inputs = {};
      for (const core::EventKey& e : w.external_inputs) {
        const std::size_t before = externals.size();
        externals.insert(e, 0);
        if (externals.size() > before) log_.note(FindingKind::external_event, e);
      }
      const auto wait_base = static_cast<std::uint32_t>(g().waits_.size());
      g().waits_.insert(g().waits_.end(), w.waits.begin(), w.waits.end());
      for (Action a : w.actions) {
        if (a.is_wait()) a.ref += wait_base;
        actions_.data[actions_.size++] = a;
      }
      repeated_times |= w.repeated_task_time;
      repeated_sizes |= w.repeated_copy_size;
      w.external_inputs = {};
      w.waits = {};
      w.actions = {};
    }
    if (repeated_times || repeated_sizes) settle_repeated_timings(repeated_times, repeated_sizes);
    for (BatchWork& w : work_)
      if (core::RecordBatch* r = w.releasable) freed_.released(release(*r, r->task_times) + release(*r, r->copy_sizes));
  }

  // When a task has two Task Times (or a copy two Copy Sizes), the first in input order counts and the
  // others are findings: joined again here in order, which only a damaged trace pays for.
  void settle_repeated_timings(bool times, bool sizes) {
    EventGraph& graph = g();
    if (times)
      for (TaskInfo& t : graph.tasks_) t.time_us = kNoValue;
    if (sizes)
      for (CopyInfo& c : graph.copies_) c.bytes = kNoValue;
    for (const BatchWork& w : work_) {
      for (const auto& r : w.batch->task_times) {
        VertexId t = times ? producer_of_kind(r.finish, OpKind::task) : kNoVertex;
        if (t == kNoVertex) continue;
        std::uint64_t& time = graph.tasks_[graph.payload_[t]].time_us;
        if (time != kNoValue)
          log_.note(FindingKind::duplicate_task_time, r.finish);
        else
          time = r.micros;
      }
      for (const auto& r : w.batch->copy_sizes) {
        VertexId c = sizes ? producer_of_kind(r.copy, OpKind::copy) : kNoVertex;
        if (c == kNoVertex) continue;
        std::uint64_t& bytes = graph.copies_[graph.payload_[c]].bytes;
        if (bytes != kNoValue)
          log_.note(FindingKind::duplicate_copy_size, r.copy);
        else
          bytes = r.bytes;
      }
    }
  }

  // The Event Preconditions found for a merge are its merge_input edges plus those whose input nothing
  // produces (NO_EVENT, external, before a barrier's first phase).
  void check_merge_counts() {
    const EventGraph& graph = g();
    std::sort(unproduced_merge_inputs_.begin(), unproduced_merge_inputs_.end());
    auto unproduced = unproduced_merge_inputs_.cbegin();
    for (VertexId m = 0; m < graph.vertex_count(); ++m) {
      if (graph.kind_[m] != OpKind::merge) continue;
      std::uint64_t found = 0;
      for (EdgeKind k : graph.predecessor_kinds(m)) found += k == EdgeKind::merge_input;
      for (; unproduced != unproduced_merge_inputs_.cend() && *unproduced == m; ++unproduced) ++found;
      if (found != graph.payload_[m])
        log_.note(FindingKind::merge_count_mismatch, graph.event_[m], [&] {
          return "announced " + std::to_string(graph.payload_[m]) + ", found " + std::to_string(found);
        });
    }
    unproduced_merge_inputs_ = {};
  }

  // Program order of each task's actions: by file and line (one thread logs them all, spec §6).
  // Every (issuer, file, line) is distinct, so the parallel sort gives one order.
  void order_actions() {
    tbb::parallel_sort(actions_.begin(), actions_.end(), [](const Action& a, const Action& b) {
      return a.issuer != b.issuer ? a.issuer < b.issuer : a.where < b.where;
    });
    // Positions are stored only now, when the records are no longer held: that keeps them off the peak.
    // Vertices added later (task_resume) get theirs in freeze().
    platform::assign_on_huge_pages(g().position_, std::size_t{g().vertex_count()}, std::uint32_t{0});
    for (std::size_t i = 0; i < actions_.size;) {
      std::size_t j = i;
      while (j < actions_.size && actions_.data[j].issuer == actions_.data[i].issuer) ++j;
      TaskInfo& task = g().tasks_[g().payload_[actions_.data[i].issuer]];
      task.action_count = static_cast<std::uint32_t>(j - i);
      for (std::size_t k = i; k < j; ++k) {
        const Action& a = actions_.data[k];
        if (a.is_wait())
          g().waits_[a.index()].position = static_cast<std::uint32_t>(k - i);
        else
          g().position_[a.index()] = static_cast<std::uint32_t>(k - i);
      }
      i = j;
    }
    actions_ = {};
    action_slab_.reset();
    // Waits grouped by task, in program order, so each task owns a contiguous range.
    std::stable_sort(g().waits_.begin(), g().waits_.end(), [](const WaitInfo& a, const WaitInfo& b) {
      return a.task != b.task ? a.task < b.task : a.position < b.position;
    });
    for (std::uint32_t i = 0; i < g().waits_.size(); ++i) {
      const WaitInfo& w = g().waits_[i];
      TaskInfo& t = g().tasks_[g().payload_[w.task]];
      if (t.first_wait == kNoWait) t.first_wait = i;
    }
  }

  // A Task Wait splits its task: each wait gets a task_resume vertex that follows the
  // previous segment and the awaited event. Issue edges leave the segment their action
  // is in; edges from the task's finish event leave its last segment. Without this split,
  // a task that issues work and then waits for it would look like a cycle.
  void split_tasks_at_waits() {
    if (g().waits_.empty()) return;
    const VertexId first_resume = g().vertex_count();
    for (std::uint32_t i = 0; i < g().waits_.size(); ++i) {
      WaitInfo& w = g().waits_[i];
      w.resume = add_vertex(OpKind::task_resume, g().node_[w.task], g().event_[w.task], i);
    }
    std::vector<VertexId> last_segment(first_resume, kNoVertex);  // by task vertex, for tasks that wait
    for (std::uint32_t i = 0; i < g().waits_.size(); ++i) {
      const WaitInfo& w = g().waits_[i];
      const TaskInfo& t = g().tasks_[g().payload_[w.task]];
      VertexId previous = i == t.first_wait ? w.task : g().waits_[i - 1].resume;
      tail_edges_.push_back({previous, w.resume, EdgeKind::continuation});
      if (w.awaited != kNoVertex) tail_edges_.push_back({w.awaited, w.resume, EdgeKind::wait});
      last_segment[w.task] = w.resume;
    }
    auto move_source = [&](auto& edges) {
      for (RawEdge& e : edges) {
        if (e.from >= first_resume || g().kind_[e.from] != OpKind::task || last_segment[e.from] == kNoVertex) continue;
        if (e.kind == EdgeKind::issue) {
          // Segment of the action at position k: the resume after the last wait before k.
          const std::uint32_t k = g().position_[e.to];
          VertexId segment = e.from;
          for (const WaitInfo& wait : g().waits_of(e.from)) {
            if (wait.position >= k) break;
            segment = wait.resume;
          }
          e.from = segment;
        } else if (e.kind != EdgeKind::continuation) {
          e.from = last_segment[e.from];  // the finish event fires when the last segment ends
        }
      }
    };
    move_source(barrier_edges_);
    tbb::parallel_for(std::size_t{0}, work_.size(), [&](std::size_t i) { move_source(work_[i].edges); });
  }

  void check_timing_joins() {
    const EventGraph& graph = g();
    for (VertexId v = 0; v < graph.vertex_count(); ++v) {
      if (graph.kind_[v] == OpKind::task && graph.tasks_[graph.payload_[v]].time_us == kNoValue)
        log_.note(FindingKind::task_without_time, graph.event_[v]);
      else if (graph.kind_[v] == OpKind::copy && graph.copies_[graph.payload_[v]].bytes == kNoValue)
        log_.note(FindingKind::copy_without_size, graph.event_[v]);
    }
  }

  // Every edge in input order: barrier arrivals and phase order, each batch's, then the waits'.
  template <class Visit>
  void for_each_edge(Visit&& visit) const {
    for (const RawEdge& e : barrier_edges_) visit(e);
    for (const BatchWork& w : work_)
      for (const RawEdge& e : w.edges) visit(e);
    for (const RawEdge& e : tail_edges_) visit(e);
  }

  // Counting sort of the edges into forward (by source) and reverse (by target) CSR, one per thread.
  // Within a vertex, edges keep the order they were found in, which is deterministic.
  void freeze() {
    const std::size_t n = g().vertex_count();
    g().position_.resize(n, 0);  // task_resume vertices: a segment is no action of its task
    std::uint64_t m = barrier_edges_.size() + tail_edges_.size();
    for (const BatchWork& w : work_) m += w.edges.size;
    auto build = [&](bool forward, std::vector<std::uint64_t>& offset, std::vector<VertexId>& ends,
                     std::vector<EdgeKind>& kinds) {
      platform::reserve_on_huge_pages(offset, n + 1);
      platform::reserve_on_huge_pages(ends, m);
      platform::reserve_on_huge_pages(kinds, m);
      offset.assign(n + 1, 0);
      for_each_edge([&](const RawEdge& e) { ++offset[(forward ? e.from : e.to) + 1]; });
      std::partial_sum(offset.begin(), offset.end(), offset.begin());
      ends.resize(m);
      kinds.resize(m);
      // offset[v] serves as v's cursor while placing, and ends up as offset[v + 1]: shifted back after.
      for_each_edge([&](const RawEdge& e) {
        auto at = offset[forward ? e.from : e.to]++;
        ends[at] = forward ? e.to : e.from;
        kinds[at] = e.kind;
      });
      std::copy_backward(offset.begin(), offset.end() - 1, offset.end());
      offset[0] = 0;
    };
    tbb::parallel_invoke([&] { build(true, g().succ_offset_, g().succ_, g().succ_kind_); },
                         [&] { build(false, g().pred_offset_, g().pred_, g().pred_kind_); });
    barrier_edges_ = {};
    tail_edges_ = {};
    work_ = {};
    edge_slab_.reset();
  }

  // Kahn's algorithm settles the usual case (no cycle) in one pass over the CSR. Only a graph with a cycle
  // pays for strongly connected components, and only on what Kahn's algorithm could not order and that
  // still leads somewhere: every cycle lies in that part.
  void detect_cycles() {
    const EventGraph& graph = out_.graph;
    const VertexId n = graph.vertex_count();
    std::vector<std::uint32_t> pending;
    platform::reserve_on_huge_pages(pending, n);
    pending.resize(n);
    std::vector<VertexId> ready;
    platform::reserve_on_huge_pages(ready, n);
    for (VertexId v = 0; v < n; ++v) {
      pending[v] = static_cast<std::uint32_t>(graph.predecessors(v).size());
      if (pending[v] == 0) ready.push_back(v);
    }
    std::uint64_t ordered = 0;
    auto peel = [&](auto next_of) {
      while (!ready.empty()) {
        VertexId v = ready.back();
        ready.pop_back();
        ++ordered;
        for (VertexId w : next_of(v))
          if (--pending[w] == 0) ready.push_back(w);
      }
    };
    peel([&](VertexId v) { return graph.successors(v); });
    if (ordered == n) return;
    // Peel the rest from the other end: vertices none of whose successors is left.
    std::vector<char> left(n, 0);
    for (VertexId v = 0; v < n; ++v) left[v] = pending[v] != 0;
    for (VertexId v = 0; v < n; ++v) {
      if (!left[v]) continue;
      pending[v] = 0;
      for (VertexId w : graph.successors(v)) pending[v] += left[w];
      if (pending[v] == 0) ready.push_back(v);
    }
    std::vector<VertexId> removed;
    while (!ready.empty()) {
      VertexId v = ready.back();
      ready.pop_back();
      removed.push_back(v);
      for (VertexId w : graph.predecessors(v))
        if (left[w] && --pending[w] == 0) ready.push_back(w);
    }
    for (VertexId v : removed) left[v] = 0;
    out_.findings.cycle = find_cycle(graph, left);
    if (out_.findings.cycle.empty()) return;
    log_.note(FindingKind::cycle, graph.event_[out_.findings.cycle.front()], [&] {
      std::string detail;
      for (VertexId v : out_.findings.cycle)
        detail += (detail.empty() ? "" : " -> ") + std::string(op_kind_name(graph.kind_[v])) + " " +
                  core::to_string(graph.event_[v]);
      return detail;
    });
  }

  const core::TraceRecords& trace_;
  core::TraceRecords* releasable_;
  const BuildOptions& options_;
  core::IdLayout layout_;
  BuildResult out_;
  FindingLog log_{options_.examples_per_finding};  // findings of the serial steps
  std::vector<BatchWork> work_;
  PartitionedEventTable producers_;
  EventTable phases_;
  std::vector<VertexId> unproduced_merge_inputs_;  // every batch's, joined
  platform::FreedMemory freed_;  // what releasing the records freed, given back as it goes
  std::unordered_map<std::uint64_t, std::uint32_t> barriers_;     // barrier id -> expected arrivals
  std::unordered_map<std::uint64_t, std::uint32_t> first_phase_;  // barrier id -> first phase gen
  std::vector<VertexId> phase_list_;
  std::vector<RawEdge> barrier_edges_;
  std::vector<RawEdge> tail_edges_;
  Slice<Action> actions_;  // every batch's, joined in the action slab
  std::unique_ptr<RawEdge[]> edge_slab_;
  std::unique_ptr<Action[]> action_slab_;
};

namespace {
BuildResult build_in_arena(const core::TraceRecords& trace, core::TraceRecords* releasable, const BuildOptions& options) {
  if (options.threads == 0) return GraphBuilder(trace, releasable, options).build();
  tbb::task_arena arena(static_cast<int>(options.threads));
  return arena.execute([&] { return GraphBuilder(trace, releasable, options).build(); });
}
}  // namespace

BuildResult build_event_graph(const core::TraceRecords& trace, const BuildOptions& options) {
  return build_in_arena(trace, nullptr, options);
}

BuildResult build_event_graph_releasing(core::TraceRecords& trace, const BuildOptions& options) {
  return build_in_arena(trace, &trace, options);
}

}  // namespace rr::graph
