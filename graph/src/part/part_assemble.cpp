// Step 5 of the part build: the rank's vertices in ascending id, their payloads, the timing records joined (the
// first in input order counts, as in the whole build), the checks of its own merges, tasks and copies, and its
// out-edges in the whole graph's order.
#include <algorithm>
#include <string>

#include "graph/src/part/part_builder.hpp"
#include "graph/src/part/part_wire.hpp"

namespace rr::graph::part_detail {

// over 120 lines because it fills every array of the part in one pass over its vertices, kind by kind, then checks
// them in another; the checks read what the pass just filled.
GraphPart PartBuilder::assemble() {
  // Record vertices come before phases, phases before resumes (docs/scale.md, Global ids), and this rank's
  // resumes are in id order already (waits_ is by task, then position): only the notes need sorting.
  std::sort(vertices_.begin(), vertices_.end(), [](const VertexNote& a, const VertexNote& b) { return a.id < b.id; });
  std::vector<std::uint32_t> own_phases;
  for (std::uint32_t p = 0; p < phase_keys_.size(); ++p)
    if (owner_of_node(owner_node(phase_keys_[p].id())) == rank()) own_phases.push_back(p);
  const std::size_t notes = vertices_.size(), phases_end = notes + own_phases.size();

  GraphPart part;
  part.rank = rank();
  part.whole_vertices = first_resume_ + static_cast<VertexId>(total_waits_);
  const std::size_t n = phases_end + waits_.size();
  part.ids.reserve(n);
  for (const VertexNote& v : vertices_) part.ids.push_back(v.id);
  for (std::uint32_t p : own_phases) part.ids.push_back(record_vertices_ + p);
  for (const WaitInfo& w : waits_) part.ids.push_back(w.resume);
  // The edges first: their notes are the largest, freed before the vertices' arrays grow.
  place_edges(part);
  part.kind.reserve(n);
  part.node.reserve(n);
  part.event.reserve(n);
  part.payload.reserve(n);
  part.local_payload.assign(n, 0);
  std::size_t tasks = 0, copies = 0, values = 0;
  for (const VertexNote& v : vertices_) {
    tasks += v.kind == OpKind::task;
    copies += v.kind == OpKind::copy;
    values += v.kind == OpKind::barrier_alter || v.kind == OpKind::barrier_arrive;
  }
  part.tasks.reserve(tasks);
  part.copies.reserve(copies);
  part.barrier_values.reserve(values);
  part.waits.reserve(waits_.size());
  part.issuer.assign(n, kNoVertex);
  part.position.assign(n, 0);
  for (const PositionNote& p : positions_) {
    const std::size_t i = part.local(p.op);
    if (i == n) throw std::logic_error("part build: a position for a vertex this rank does not own");
    part.issuer[i] = p.issuer;
    part.position[i] = p.position;
  }
  release(positions_);
  // The vertex notes are read once, in order, and give their pages back as the arrays they fill grow.
  for (std::size_t i = 0; i < n; ++i) {
    if (i >= notes && i < phases_end) {
      const std::uint32_t p = own_phases[i - notes];
      part.kind.push_back(OpKind::barrier_phase);
      part.node.push_back(owner_node(phase_keys_[p].id()));
      part.event.push_back(phase_keys_[p]);
      part.payload.push_back(p);
      part.local_payload[i] = static_cast<std::uint32_t>(part.phases.size());
      part.phases.push_back(phase_info_[p]);
      continue;
    }
    if (i >= phases_end) {
      const std::size_t index = i - phases_end;
      const WaitInfo& w = waits_[index];
      const std::size_t task = part.local(w.task);  // a task's resumes come after it, which is already placed
      part.kind.push_back(OpKind::task_resume);
      part.node.push_back(part.node[task]);
      part.event.push_back(part.event[task]);
      part.payload.push_back(wait_index_[index]);
      part.local_payload[i] = static_cast<std::uint32_t>(part.waits.size());
      part.waits.push_back(w);
      continue;
    }
    const VertexNote& v = vertices_[i];
    part.kind.push_back(v.kind);
    part.node.push_back(v.node);
    part.event.push_back(v.event);
    part.payload.push_back(v.payload);
    if (v.kind == OpKind::task) {
      part.local_payload[i] = static_cast<std::uint32_t>(part.tasks.size());
      TaskInfo t;
      t.func_id = v.second.lo;
      t.priority = static_cast<std::int32_t>(v.second.hi);
      t.processor = v.first;
      const auto order = std::lower_bound(task_order_.begin(), task_order_.end(), v.id,
                                          [](const TaskOrder& a, VertexId id) { return a.task < id; });
      if (order != task_order_.end() && order->task == v.id) {
        t.action_count = order->actions;
        t.first_wait = order->first_wait;
      }
      part.tasks.push_back(t);
    } else if (v.kind == OpKind::copy) {
      part.local_payload[i] = static_cast<std::uint32_t>(part.copies.size());
      part.copies.push_back({v.first, v.second, kNoValue});
    } else if (v.kind == OpKind::barrier_alter || v.kind == OpKind::barrier_arrive) {
      part.local_payload[i] = static_cast<std::uint32_t>(part.barrier_values.size());
      part.barrier_values.push_back(static_cast<std::int64_t>(v.first.value()));
    }
    discard_read(vertices_, i + 1);
  }
  release(vertices_);

  // Timing records: the first in input order counts, the others are findings.
  auto join = [&](std::vector<TimingNote>& notes, auto&& set, core::Stat repeated) {
    std::sort(notes.begin(), notes.end(), [](const TimingNote& a, const TimingNote& b) {
      return a.vertex != b.vertex ? a.vertex < b.vertex : a.order < b.order;
    });
    for (std::size_t k = 0; k < notes.size(); ++k) {
      const std::size_t i = part.local(notes[k].vertex);
      if (i == n) throw std::logic_error("part build: a timing record for a vertex this rank does not own");
      if (k > 0 && notes[k - 1].vertex == notes[k].vertex)
        log_.note(repeated, part.event[i]);
      else
        set(part.local_payload[i], notes[k].value);
    }
    release(notes);
  };
  join(times_, [&](std::uint32_t t, std::uint64_t ns) { part.tasks[t].time_ns = static_cast<std::int64_t>(ns); },
       core::Stat::duplicate_task_time);
  join(sizes_, [&](std::uint32_t c, std::uint64_t bytes) { part.copies[c].bytes = bytes; },
       core::Stat::duplicate_copy_size);

  // The checks of the whole build (checks.cpp) on this rank's vertices: merge counts, tasks and copies unjoined.
  std::sort(merge_counts_.begin(), merge_counts_.end(), [](const auto& a, const auto& b) { return a.merge < b.merge; });
  auto counted = merge_counts_.cbegin();
  for (std::size_t i = 0; i < n; ++i) {
    if (part.kind[i] == OpKind::merge) {
      std::uint64_t found = 0;
      for (; counted != merge_counts_.cend() && counted->merge == part.ids[i]; ++counted) found += counted->found;
      if (found != part.payload[i])
        log_.note(core::Stat::merge_count_mismatch, part.event[i], [&] {
          return "announced " + std::to_string(part.payload[i]) + ", found " + std::to_string(found);
        });
    } else if (part.kind[i] == OpKind::task && part.tasks[part.local_payload[i]].time_ns == kNoTime) {
      log_.note(core::Stat::task_without_time, part.event[i]);
    } else if (part.kind[i] == OpKind::copy && part.copies[part.local_payload[i]].bytes == kNoValue) {
      log_.note(core::Stat::copy_without_size, part.event[i]);
    }
  }
  release(merge_counts_);

  return part;
}

// The part's out-edges: the phase order of its phases and everything delivered, by source and then in the whole
// graph's order (their keys).
void PartBuilder::place_edges(GraphPart& part) {
  const std::size_t n = part.ids.size();
  const auto own_phase_order = std::count_if(phase_order_.begin(), phase_order_.end(),
                                             [&](const EdgeNote& e) { return part.local(e.from) != n; });
  grow_room(edges_, edges_.size() + static_cast<std::size_t>(own_phase_order));  // exactly, as WireReader::append_to
  for (const EdgeNote& e : phase_order_)
    if (part.local(e.from) != n) edges_.push_back(e);
  release(phase_order_);
  // Whole ids ascend as local indices do: sorted by source id, the edges are in local order.
  std::sort(edges_.begin(), edges_.end(),
            [](const EdgeNote& a, const EdgeNote& b) { return a.from != b.from ? a.from < b.from : a.order < b.order; });
  EventGraph::check_edge_count(edges_.size());  // 32-bit offsets, as the whole graph's
  part.edge_offset.assign(n + 1, 0);
  part.successors.reserve(edges_.size());
  part.successor_kinds.reserve(edges_.size());
  std::size_t from = 0;
  for (std::size_t k = 0; k < edges_.size(); ++k) {
    discard_read(edges_, k);  // read in order, once: their pages go back as the part's edges grow
    const EdgeNote& e = edges_[k];
    while (from < n && part.ids[from] < e.from) ++from;
    if (from == n || part.ids[from] != e.from)
      throw std::logic_error("part build: an edge from a vertex this rank does not own");
    ++part.edge_offset[from + 1];
    part.successors.push_back(e.to);
    part.successor_kinds.push_back(e.kind());
  }
  for (std::size_t i = 0; i < n; ++i) part.edge_offset[i + 1] += part.edge_offset[i];
  release(edges_);
}

}  // namespace rr::graph::part_detail
