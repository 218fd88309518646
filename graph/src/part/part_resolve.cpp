// Step 3 of the part build: this rank's records, each reference resolved by the directory, become what the owners of
// the vertices they join need (part_builder.hpp). The rank whose files hold a record decides the findings about it
// (references without producer, records with nothing to join); the notes go to the owners in one exchange.
#include <algorithm>
#include <string>

#include "graph/src/part/part_builder.hpp"
#include "graph/src/part/part_wire.hpp"

namespace rr::graph::part_detail {

namespace {

std::int64_t micros_to_ns(std::uint64_t micros) { return static_cast<std::int64_t>(micros) * 1000; }
std::uint64_t program_point(std::uint32_t file, std::uint64_t line) { return std::uint64_t{file} << 40 | line; }

}  // namespace

// A reference to any producer (a precondition, a merge input, an awaited event): its producer, or null for NO_EVENT,
// an event before its barrier's first phase (fired at creation) and an external one, which are counted.
const Producer* PartBuilder::general_reference(const core::EventKey& e) {
  if (e.is_none()) return nullptr;
  const Producer& p = producer(e);
  if (p.vertex != kNoVertex) return &p;
  const auto first = first_phase_.find(e.id());
  if (first != first_phase_.end() && e.gen < first->second)
    ++pre_first_phase_references_;
  else
    ++external_references_;
  return nullptr;
}

// over 120 lines because it follows the whole build's resolve (producers.cpp) record kind by record kind, in its
// order, so that the two are read side by side.
void PartBuilder::resolve_batch(const BatchPlace& place) {
  const core::RecordBatch& b = *place.batch;
  const std::uint64_t run = 1 + std::uint64_t{place.global};
  const std::uint32_t here = owner_of_node(place.node);
  auto seq = [&](VertexId v, bool issue) { return edge_key(run, 2 * std::uint64_t{v - place.first_task} + issue); };
  auto edge = [&](const Producer* from, VertexId to, EdgeKind kind, std::uint64_t key) {
    if (from != nullptr) edge_out_[from->owner].push_back({from->vertex, to, key, kind});
  };
  auto vertex = [&](VertexNote note) { vertex_out_[owner_of_node(note.node)].push_back(note); };
  auto issued = [&](VertexId v, OpKind kind, const core::EventKey& event, std::uint32_t node,
                    const core::EventKey& enclosing, std::uint32_t line) {
    if (enclosing.is_none()) return;
    const Producer& t = producer(enclosing);
    if (t.vertex == kNoVertex || t.kind != OpKind::task) {
      log_.note(core::Stat::unknown_issuer, enclosing, [&] {
        return std::string("issues a ") + op_kind_name(kind) + " producing " + core::to_string(event);
      });
      return;
    }
    ActionNote a;
    a.task = t.vertex;
    a.op = v;
    a.where = program_point(place.file, b.file_line(line));
    a.key = seq(v, true);
    a.owner = owner_of_node(node);
    action_out_[t.owner].push_back(a);
  };
  for (std::uint32_t i = 0; i < b.task_requests.size(); ++i) {
    const auto& r = b.task_requests[i];
    const VertexId v = place.first_task + i;
    vertex({v, OpKind::task, {}, owner_node(r.target.value()), r.finish, place.task_info + i, r.target,
            core::Handle{r.func_id, static_cast<std::uint32_t>(r.priority)}});
    edge(general_reference(r.precondition), v, EdgeKind::precondition, seq(v, false));
    issued(v, OpKind::task, r.finish, owner_node(r.target.value()), r.enclosing, r.line);
  }
  for (std::uint32_t i = 0; i < b.copy_requests.size(); ++i) {
    const auto& r = b.copy_requests[i];
    const VertexId v = place.first_copy + i;
    vertex({v, OpKind::copy, {}, place.node, r.copy, place.copy_info + i, r.src_memory, r.dst_memory});
    edge(general_reference(r.wait_on), v, EdgeKind::precondition, seq(v, false));
    issued(v, OpKind::copy, r.copy, place.node, r.enclosing, r.line);
  }
  for (std::uint32_t i = 0; i < b.event_merges.size(); ++i) {
    const auto& r = b.event_merges[i];
    vertex({place.first_merge + i, OpKind::merge, {}, place.node, r.merged, r.input_count, {}, {}});
  }
  for (std::uint32_t i = 0; i < b.event_triggers.size(); ++i) {
    const auto& r = b.event_triggers[i];
    const VertexId v = place.first_trigger + i;
    vertex({v, OpKind::trigger, {}, place.node, r.event, 0, {}, {}});
    edge(general_reference(r.wait_on), v, EdgeKind::precondition, seq(v, false));
    issued(v, OpKind::trigger, r.event, place.node, r.enclosing, r.line);
  }
  auto arrival = [&](VertexId v, const core::EventKey& phase, std::uint32_t value) {
    const VertexId p = record_vertices_ + phase_index_.at(phase);
    edge_out_[here].push_back({v, p, edge_key(kBarrierRun, value), EdgeKind::arrival});
  };
  for (std::uint32_t i = 0; i < b.barrier_alters.size(); ++i) {
    const auto& r = b.barrier_alters[i];
    const VertexId v = place.first_alter + i;
    vertex({v, OpKind::barrier_alter, {}, place.node, r.phase, place.alter_value + i,
            core::Handle::make(static_cast<std::uint64_t>(std::int64_t{r.delta})), {}});
    arrival(v, r.phase, place.alter_value + i);
    issued(v, OpKind::barrier_alter, r.phase, place.node, r.enclosing, r.line);
  }
  for (std::uint32_t i = 0; i < b.barrier_arrives.size(); ++i) {
    const auto& r = b.barrier_arrives[i];
    const VertexId v = place.first_arrive + i;
    vertex({v, OpKind::barrier_arrive, {}, place.node, r.phase, place.arrive_value + i,
            core::Handle::make(r.count), {}});
    arrival(v, r.phase, place.arrive_value + i);
    edge(general_reference(r.wait_on), v, EdgeKind::precondition, seq(v, false));
    issued(v, OpKind::barrier_arrive, r.phase, place.node, r.enclosing, r.line);
  }
  for (std::uint32_t i = 0; i < b.event_preconditions.size(); ++i) {
    const auto& r = b.event_preconditions[i];
    const Producer& m = producer(r.merged);
    if (m.vertex == kNoVertex || m.kind != OpKind::merge) {
      log_.note(core::Stat::precondition_without_merge, r.merged, [&] { return "input " + core::to_string(r.input); });
      continue;
    }
    merge_out_[m.owner].push_back({m.vertex, 1});
    edge(general_reference(r.input), m.vertex, EdgeKind::merge_input,
         edge_key(run, 2 * std::uint64_t{place.end - place.first_task} + i));
  }
  for (std::uint32_t i = 0; i < b.task_times.size(); ++i) {
    const auto& r = b.task_times[i];
    const std::uint64_t micros = r.micros;
    const Producer* t = r.finish.is_none() ? nullptr : &producer(r.finish);
    if (t == nullptr || t->vertex == kNoVertex || t->kind != OpKind::task) {
      log_.note(core::Stat::task_time_without_request, r.finish, [&] { return std::to_string(micros) + " us"; });
      continue;
    }
    time_out_[t->owner].push_back({t->vertex, 0, std::uint64_t{place.global} << 32 | i,
                                   static_cast<std::uint64_t>(micros_to_ns(micros))});
  }
  for (std::uint32_t i = 0; i < b.copy_sizes.size(); ++i) {
    const auto& r = b.copy_sizes[i];
    const std::uint64_t bytes = r.bytes;
    const Producer* c = r.copy.is_none() ? nullptr : &producer(r.copy);
    if (c == nullptr || c->vertex == kNoVertex || c->kind != OpKind::copy) {
      log_.note(bytes == 0 ? core::Stat::zero_byte_copy_orphan : core::Stat::copy_size_without_request, r.copy,
                [&] { return std::to_string(bytes) + " bytes"; });
      continue;
    }
    size_out_[c->owner].push_back({c->vertex, 0, std::uint64_t{place.global} << 32 | i, bytes});
  }
  for (const auto& r : b.task_waits) {
    const Producer* t = r.waiter.is_none() ? nullptr : &producer(r.waiter);
    if (t == nullptr || t->vertex == kNoVertex || t->kind != OpKind::task) {
      log_.note(core::Stat::wait_without_task, r.waiter, [&] { return "waits on " + core::to_string(r.awaited); });
      continue;
    }
    const Producer* awaited = general_reference(r.awaited);
    VertexId awaited_vertex = awaited == nullptr ? kNoVertex : awaited->vertex;
    // As the whole build: a wait on the task's own end is replayed as a wait on an event no record produces.
    if (awaited_vertex == t->vertex) {
      log_.note(core::Stat::wait_on_own_finish, r.waiter, [&] { return "waits on " + core::to_string(r.awaited); });
      awaited_vertex = kNoVertex;
    }
    ActionNote a;
    a.task = t->vertex;
    a.where = program_point(place.file, b.file_line(r.line));
    a.awaited = awaited_vertex;
    a.owner = awaited == nullptr ? 0 : awaited->owner;
    a.key = wait_out_[t->owner].size();
    wait_out_[t->owner].push_back({r.awaited, 0, micros_to_ns(r.micros)});
    action_out_[t->owner].push_back(a);
  }
}

// A batch's graph records, once resolved: only its machine records stay (and its counts).
void PartBuilder::release_records(const BatchPlace& place) {
  core::RecordBatch* b = place.releasable;
  if (b == nullptr) return;
  auto free_records = [&](auto& records) {
    b->released_records += records.size();
    release(records);
  };
  free_records(b->task_requests);
  free_records(b->task_times);
  free_records(b->task_waits);
  free_records(b->event_merges);
  free_records(b->event_preconditions);
  free_records(b->event_triggers);
  free_records(b->barrier_creations);
  free_records(b->barrier_alters);
  free_records(b->barrier_arrives);
  free_records(b->copy_requests);
  free_records(b->copy_sizes);
}

// Every batch resolved, then one exchange: each owner receives its vertices and what joins them.
void PartBuilder::deliver() {
  const std::uint32_t ranks = exchange_.ranks();
  vertex_out_.assign(ranks, {});
  edge_out_.assign(ranks, {});
  action_out_.assign(ranks, {});
  wait_out_.assign(ranks, {});
  time_out_.assign(ranks, {});
  size_out_.assign(ranks, {});
  merge_out_.assign(ranks, {});
  // Room for as many notes as this rank's records could give any one rank: room never written is never resident,
  // and growing by doubling would leave up to half of each array unused at the peak.
  std::size_t vertices = 0, edges = 0, actions = 0, times = 0, sizes = 0, merges = 0;
  for (const BatchPlace& place : own_batches_) {
    const core::RecordBatch& b = *place.batch;
    const std::size_t issued = b.task_requests.size() + b.copy_requests.size() + b.event_triggers.size() +
                               b.barrier_alters.size() + b.barrier_arrives.size();
    vertices += place.end - place.first_task;
    edges += issued + b.barrier_arrives.size() + b.event_preconditions.size();
    actions += issued + b.task_waits.size();
    times += b.task_times.size();
    sizes += b.copy_sizes.size();
    merges += b.event_preconditions.size();
  }
  for (std::uint32_t r = 0; r < ranks; ++r) {
    vertex_out_[r].reserve(vertices);
    edge_out_[r].reserve(edges);
    action_out_[r].reserve(actions);
    time_out_[r].reserve(times);
    size_out_[r].reserve(sizes);
    merge_out_[r].reserve(merges);
  }
  for (const BatchPlace& place : own_batches_) {
    resolve_batch(place);
    release_records(place);
  }
  release(resolved_);
  std::vector<std::vector<std::byte>> to_each(ranks);
  for (std::uint32_t r = 0; r < ranks; ++r) {
    // A merge's inputs counted here, one note per merge.
    std::vector<MergeCountNote>& counts = merge_out_[r];
    std::sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.merge < b.merge; });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
      if (kept > 0 && counts[kept - 1].merge == counts[i].merge)
        counts[kept - 1].found += counts[i].found;
      else
        counts[kept++] = counts[i];
    }
    counts.resize(kept);
    if (r == rank()) continue;  // this rank's own share is never written out
    WireWriter out;
    out.array(vertex_out_[r]);
    out.array(edge_out_[r]);
    out.array(action_out_[r]);
    out.array(wait_out_[r]);
    out.array(time_out_[r]);
    out.array(size_out_[r]);
    out.array(counts);
    to_each[r] = out.take();
    release(vertex_out_[r]);
    release(edge_out_[r]);
    release(action_out_[r]);
    release(wait_out_[r]);
    release(time_out_[r]);
    release(size_out_[r]);
    merge_out_[r] = {};
  }
  vertices_ = std::move(vertex_out_[rank()]);
  edges_ = std::move(edge_out_[rank()]);
  actions_ = std::move(action_out_[rank()]);
  wait_details_ = std::move(wait_out_[rank()]);
  times_ = std::move(time_out_[rank()]);
  sizes_ = std::move(size_out_[rank()]);
  merge_counts_ = std::move(merge_out_[rank()]);
  vertex_out_ = {};
  edge_out_ = {};
  action_out_ = {};
  wait_out_ = {};
  time_out_ = {};
  size_out_ = {};
  merge_out_ = {};
  std::vector<std::vector<std::byte>> from_each = exchange(std::move(to_each));
  for (std::uint32_t r = 0; r < from_each.size(); ++r) {
    if (r == rank()) continue;
    WireReader in(from_each[r]);
    const std::size_t vertices = vertices_.size(), edges = edges_.size();
    in.append_to(vertices_);
    in.append_to(edges_);
    const std::size_t actions = actions_.size(), details = wait_details_.size();
    in.append_to(actions_);
    in.append_to(wait_details_);
    // A wait's detail index was the sender's: after this rank's own and those appended before.
    for (std::size_t i = actions; i < actions_.size(); ++i)
      if (actions_[i].op == kNoVertex) actions_[i].key += details;
    in.append_to(times_);
    in.append_to(sizes_);
    in.append_to(merge_counts_);
    traffic_.vertices_from_others += vertices_.size() - vertices;
    traffic_.edges_from_others += edges_.size() - edges;
    release(from_each[r]);
  }
}

}  // namespace rr::graph::part_detail
