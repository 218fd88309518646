// Vertex ids and payload slots for every record batch, filled in parallel; the slabs batches write edges to.
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>

#include "platform/huge_pages.hpp"

#include "graph/src/builder/graph_builder_impl.hpp"

namespace rr::graph::build_detail {

// Fixed vertex ids and payload indices for every batch, in input order; the arrays sized to hold them.
void GraphBuilder::lay_out_batches() {
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
  // Barrier phases (at most one per Alter/Arrive, but for gaps) and task_resume vertices come last, on small pages:
  // they are few.
  VertexTable& vertices = v_;
  const std::size_t room = std::size_t{v} + values + waits;
  platform::reserve_on_huge_pages(vertices.kind, room, v);
  platform::reserve_on_huge_pages(vertices.node, room, v);
  platform::reserve_on_huge_pages(vertices.event, room, v);
  platform::reserve_on_huge_pages(vertices.issuer, room, v);
  platform::reserve_on_huge_pages(vertices.payload, room, v);
  platform::reserve_on_huge_pages(vertices.tasks, tasks);
  platform::reserve_on_huge_pages(vertices.copies, copies);
  vertices.barrier_values.reserve(values);
  laid_out_ = {v, tasks, copies, values};
}

// Fills every batch's vertices. The arrays grow a group of batches at a time, just before the group fills them,
// and each batch frees its requests, merges and triggers once it has written them: sized all at once, the
// arrays' 170 MB (on a 7.6 M-record trace) would be resident next to every record, the build's memory peak.
void GraphBuilder::fill_all_vertices() {
  const std::size_t group = 4 * static_cast<std::size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
  for (std::size_t first = 0; first < work_.size(); first += group) {
    const std::size_t last = std::min(work_.size(), first + group);
    const LaidOut through = last == work_.size() ? laid_out_
                                                 : LaidOut{work_[last].first_task, work_[last].task_info,
                                                           work_[last].copy_info, work_[last].alter_value};
    VertexTable& vertices = v_;
    vertices.kind.resize(through.vertices);
    vertices.event.resize(through.vertices);
    vertices.payload.resize(through.vertices);
    vertices.tasks.resize(through.tasks);
    vertices.copies.resize(through.copies);
    vertices.barrier_values.resize(through.values);
    tbb::parallel_for(first, last, [&](std::size_t i) { fill_vertices(work_[i]); });
  }
}

// One vertex per producing record; its node is placed later (place_nodes).
// Also counts the room the batch's edges and actions will take: an edge per precondition and enclosing
// task that is not NO_EVENT, an action per enclosing task and wait, an edge per merge input.
void GraphBuilder::fill_vertices(BatchWork& w) {
  const core::RecordBatch& b = *w.batch;
  VertexTable& vertices = v_;
  auto room = [&](const core::EventKey& wait_on, const core::EventKey& enclosing) {
    w.edges.capacity += !wait_on.is_none() + !enclosing.is_none();
    w.actions.capacity += !enclosing.is_none();
  };
  w.edges.capacity = b.event_preconditions.size();
  w.actions.capacity = b.task_waits.size();
  auto with_precondition = [](const auto& records, auto precondition) {
    return static_cast<std::size_t>(std::count_if(records.begin(), records.end(),
                                                  [&](const auto& r) { return !(r.*precondition).is_none(); }));
  };
  w.task_references.reserve(b.task_requests.size(),
                            with_precondition(b.task_requests, &core::TaskRequestRecord::precondition));
  for (std::uint32_t i = 0; i < b.task_requests.size(); ++i) {
    const auto& r = b.task_requests[i];
    TaskInfo& t = vertices.tasks[w.task_info + i];
    t.func_id = r.func_id;
    t.priority = r.priority;
    t.processor = r.target;
    set_vertex(w.first_task + i, OpKind::task, r.finish, w.task_info + i);
    w.task_references.add(r.precondition, r.enclosing, r.line);
    room(r.precondition, r.enclosing);
  }
  w.copy_references.reserve(b.copy_requests.size(),
                            with_precondition(b.copy_requests, &core::CopyRequestRecord::wait_on));
  for (std::uint32_t i = 0; i < b.copy_requests.size(); ++i) {
    const auto& r = b.copy_requests[i];
    vertices.copies[w.copy_info + i] = {r.src_memory, r.dst_memory, kNoValue};
    set_vertex(w.first_copy + i, OpKind::copy, r.copy, w.copy_info + i);
    w.copy_references.add(r.wait_on, r.enclosing, r.line);
    room(r.wait_on, r.enclosing);
  }
  for (std::uint32_t i = 0; i < b.event_merges.size(); ++i)
    set_vertex(w.first_merge + i, OpKind::merge, b.event_merges[i].merged, b.event_merges[i].input_count);
  w.trigger_references.reserve(b.event_triggers.size(),
                               with_precondition(b.event_triggers, &core::EventTriggerRecord::wait_on));
  for (std::uint32_t i = 0; i < b.event_triggers.size(); ++i) {
    const auto& r = b.event_triggers[i];
    set_vertex(w.first_trigger + i, OpKind::trigger, r.event, 0);
    w.trigger_references.add(r.wait_on, r.enclosing, r.line);
    room(r.wait_on, r.enclosing);
  }
  if (core::RecordBatch* r = w.releasable)
    freed_.released(release(*r, r->task_requests) + release(*r, r->copy_requests) + release(*r, r->event_merges) +
                    release(*r, r->event_triggers));
  for (std::uint32_t i = 0; i < b.barrier_alters.size(); ++i) {
    const auto& r = b.barrier_alters[i];
    vertices.barrier_values[w.alter_value + i] = r.delta;
    set_vertex(w.first_alter + i, OpKind::barrier_alter, r.phase, w.alter_value + i);
    room(core::EventKey{}, r.enclosing);
  }
  for (std::uint32_t i = 0; i < b.barrier_arrives.size(); ++i) {
    const auto& r = b.barrier_arrives[i];
    vertices.barrier_values[w.arrive_value + i] = r.count;
    set_vertex(w.first_arrive + i, OpKind::barrier_arrive, r.phase, w.arrive_value + i);
    room(r.wait_on, r.enclosing);
  }
}

// Every vertex's node: a task runs on its processor's node, a barrier phase on its barrier's owner, any other
// record's vertex on the node that logged it. Placed once the references are resolved, so that the array (4 bytes
// a vertex) is not alive at the producer table, the build's memory peak.
void GraphBuilder::place_nodes() {
  VertexTable& vertices = v_;
  vertices.node.resize(vertices.size());
  tbb::parallel_for(std::size_t{0}, work_.size(), [&](std::size_t i) {
    const BatchWork& w = work_[i];
    const VertexId end = i + 1 < work_.size() ? work_[i + 1].first_task : laid_out_.vertices;
    for (VertexId v = w.first_task; v < w.first_copy; ++v)
      vertices.node[v] = owner_node(vertices.tasks[vertices.payload[v]].processor.value());
    std::fill(vertices.node.begin() + w.first_copy, vertices.node.begin() + end, w.node);
  });
  for (VertexId p : phase_list_) vertices.node[p] = owner_node(vertices.event[p].id());
}

// Every batch writes its edges and actions into its own part of one array each, sized as fill_vertices
// counted: with huge pages, room reserved and never written would be resident all the same.
void GraphBuilder::place_slabs() {
  std::size_t edge_room = 0, action_room = 0;
  for (const BatchWork& w : work_) {
    edge_room += w.edges.capacity;
    action_room += w.actions.capacity;
  }
  edge_slab_.reset(new Edge[edge_room]);  // not value-initialised: pages are touched when written
  action_slab_.reset(new Action[action_room]);
  platform::advise_huge_pages(edge_slab_.get(), edge_room * sizeof(Edge));
  platform::advise_huge_pages(action_slab_.get(), action_room * sizeof(Action));
  edge_room = action_room = 0;
  for (BatchWork& w : work_) {
    w.edges.data = edge_slab_.get() + edge_room;
    w.actions.data = action_slab_.get() + action_room;
    edge_room += w.edges.capacity;
    action_room += w.actions.capacity;
  }
}

}  // namespace rr::graph::build_detail
