// The event -> producer table across all files, and the resolution of every reference into an edge.
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <string>

#include "core/saturating.hpp"
#include "graph/src/builder/graph_builder_impl.hpp"
#include "graph/src/builder/target_sums.hpp"

namespace rr::graph::build_detail {

// The event -> producer table, each part filled by one thread in vertex order, so that of two producers
// of one event the first one in the input wins and the second is the finding.
void GraphBuilder::register_producers() {
  const VertexTable& vertices = v_;
  const VertexId n = vertices.size();
  using Table = PartitionedProducerTable;
  auto produces = [&](VertexId v) {
    return vertices.kind[v] != OpKind::barrier_alter && vertices.kind[v] != OpKind::barrier_arrive &&
           !vertices.event[v].is_none();
  };
  std::array<std::vector<std::pair<VertexId, VertexId>>, Table::kParts> repeats;  // (second, first) producer
  // Each thread fills a range of parts, scanning every vertex for those of its parts, so each part gets its
  // producers in vertex order whatever the thread count. This costs about what bucketing the vertices by part
  // did, without the bucket array (4 bytes per producer) at the build's peak.
  const auto threads = static_cast<std::size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
  // How many producers each part gets, counted by vertex range.
  std::vector<std::array<std::size_t, Table::kParts>> counted(threads);
  tbb::parallel_for(std::size_t{0}, threads, [&](std::size_t t) {
    const std::size_t begin = std::size_t{n} * t / threads, end = std::size_t{n} * (t + 1) / threads;
    for (auto v = static_cast<VertexId>(begin); v < end; ++v)
      if (produces(v)) ++counted[t][Table::part_of(vertices.event[v])];
  });
  const std::size_t ranges = std::min(Table::kParts, threads);
  tbb::parallel_for(std::size_t{0}, ranges, [&](std::size_t range) {
    const std::size_t first = range * Table::kParts / ranges, last = (range + 1) * Table::kParts / ranges;
    for (std::size_t part = first; part < last; ++part) {
      std::size_t producers = 0;
      for (const auto& c : counted) producers += c[part];
      producers_.part(part).reserve(producers);
    }
    // Each producer is inserted kPrefetchDistance producers behind the scan, which prefetches its slot.
    struct Found {
      VertexId v;
      std::uint64_t hash;
    };
    std::array<Found, kPrefetchDistance> behind;
    std::size_t found = 0;
    auto insert = [&](const Found& f) {
      ProducerTable& table = producers_.part(Table::part_of_hash(f.hash));
      const VertexId existing = table.insert(f.v, f.hash);
      if (existing != f.v) repeats[Table::part_of_hash(f.hash)].emplace_back(f.v, existing);
    };
    for (VertexId v = 0; v < n; ++v) {
      if (!produces(v)) continue;
      const std::uint64_t h = ProducerTable::hash(vertices.event[v]);
      const std::size_t part = Table::part_of_hash(h);
      if (part < first || part >= last) continue;
      Found& slot = behind[found++ % kPrefetchDistance];
      if (found > kPrefetchDistance) insert(slot);
      producers_.part(part).prefetch_hashed(h);
      slot = {v, h};
    }
    for (std::size_t i = found > kPrefetchDistance ? found - kPrefetchDistance : 0; i < found; ++i)
      insert(behind[i % kPrefetchDistance]);
  });
  // Findings in vertex order, whichever part found them.
  std::vector<std::pair<VertexId, VertexId>> all;
  for (const auto& r : repeats) all.insert(all.end(), r.begin(), r.end());
  std::sort(all.begin(), all.end());
  for (const auto& repeat : all) {
    const VertexId second = repeat.first, first = repeat.second;  // captured below: no structured binding
    // In vertex order, so the first task of the event; among tasks, vertex order is the requests' input order.
    if (vertices.kind[second] == OpKind::task && vertices.kind[first] != OpKind::task)
      first_task_of_shared_event_.insert(vertices.event[second], second);
    log_.note(core::Stat::duplicate_producer, vertices.event[second], [&] {
      return std::string(op_kind_name(vertices.kind[first])) + " and " + op_kind_name(vertices.kind[second]);
    });
  }
}

// The producer of an awaited event, or kNoVertex for NO_EVENT and external events.
VertexId GraphBuilder::producer_of(BatchWork& w, const core::EventKey& event) const {
  if (event.is_none()) return kNoVertex;
  VertexId v = producers_.find(event);
  if (v != ProducerTable::kMissing) return v;
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
VertexId GraphBuilder::producer_of_kind(const core::EventKey& event, OpKind kind) const {
  VertexId v = producers_.find(event);
  return v != ProducerTable::kMissing && v_.kind[v] == kind ? v : kNoVertex;
}

// The batch's Task Times and Copy Sizes join their request; they are tallied per target. Done for every batch
// before any reference is resolved, so that these records are freed (join_all_timings) before the edges grow.
void GraphBuilder::join_timings(BatchWork& w) {
  const core::RecordBatch& b = *w.batch;
  VertexTable& vertices = v_;
  TargetSums time_by_target;
  for (std::size_t i = 0; i < b.task_times.size(); ++i) {
    if (i + kPrefetchDistance < b.task_times.size()) producers_.prefetch(b.task_times[i + kPrefetchDistance].finish);
    const auto& r = b.task_times[i];
    VertexId t = producer_of_kind(r.finish, OpKind::task);
    // Every Task Time counts in the tally, a task's second one too, for the target of the first Task Request of
    // its event: the producer, or the first task after another kind of record produced the event.
    VertexId tallied = t;
    if (tallied == kNoVertex)
      if (const VertexId first = first_task_of_shared_event_.find(r.finish); first != EventTable::kMissing)
        tallied = first;
    if (tallied == kNoVertex)
      w.timing.task_time_us_without_task = core::saturating_sum(w.timing.task_time_us_without_task, r.micros);
    else
      time_by_target.add(vertices.tasks[vertices.payload[tallied]].processor.value(), r.micros);
    if (t == kNoVertex) {
      w.findings.note(core::Stat::task_time_without_request, r.finish,
                      [&] { return std::to_string(r.micros) + " us"; });
      continue;
    }
    // A second Task Time for one task is settled after the parallel part, in input order.
    std::int64_t none = kNoTime;
    if (!std::atomic_ref<std::int64_t>(vertices.tasks[vertices.payload[t]].time_ns)
             .compare_exchange_strong(none, micros_to_ns(r.micros)))
      w.repeated_task_time = true;
  }
  w.timing.task_time_us_by_target = time_by_target.take_sorted();
  for (std::size_t i = 0; i < b.copy_sizes.size(); ++i) {
    if (i + kPrefetchDistance < b.copy_sizes.size()) producers_.prefetch(b.copy_sizes[i + kPrefetchDistance].copy);
    const auto& r = b.copy_sizes[i];
    w.timing.copy_bytes = core::saturating_sum(w.timing.copy_bytes, r.bytes);
    if (r.bytes == 0) ++w.timing.zero_byte_copy_sizes;
    VertexId c = producer_of_kind(r.copy, OpKind::copy);
    if (c == kNoVertex) {
      w.findings.note(r.bytes == 0 ? core::Stat::zero_byte_copy_orphan : core::Stat::copy_size_without_request,
                      r.copy, [&] { return std::to_string(r.bytes) + " bytes"; });
      continue;
    }
    std::uint64_t none = kNoValue;
    if (!std::atomic_ref<std::uint64_t>(vertices.copies[vertices.payload[c]].bytes).compare_exchange_strong(none, r.bytes))
      w.repeated_copy_size = true;
  }
}

// Every batch's timing records joined in parallel, the repeated ones settled in input order, then the records
// freed: they would otherwise stay alive (57 MiB on a 7.6 M-record trace) while the edges are written.
void GraphBuilder::join_all_timings() {
  tbb::parallel_for(std::size_t{0}, work_.size(), [&](std::size_t i) { join_timings(work_[i]); });
  bool repeated_times = false, repeated_sizes = false;
  for (const BatchWork& w : work_) {
    repeated_times |= w.repeated_task_time;
    repeated_sizes |= w.repeated_copy_size;
  }
  if (repeated_times || repeated_sizes) settle_repeated_timings(repeated_times, repeated_sizes);
  for (BatchWork& w : work_)
    if (core::RecordBatch* r = w.releasable) freed_.released(release(*r, r->task_times) + release(*r, r->copy_sizes));
}

// Every reference in one batch becomes an edge from its producer.
void GraphBuilder::resolve(BatchWork& w) {
  const core::RecordBatch& b = *w.batch;
  VertexTable& vertices = v_;
  auto edge = [&](VertexId from, VertexId to, EdgeKind kind) {
    if (from != kNoVertex) w.edges.push_back({from, to, kind});
  };
  auto issued = [&](VertexId v, const core::EventKey& enclosing, std::uint32_t rel_line) {
    if (enclosing.is_none()) return;
    VertexId t = producer_of_kind(enclosing, OpKind::task);
    if (t == kNoVertex) {
      w.findings.note(core::Stat::unknown_issuer, enclosing, [&] {
        return std::string("issues a ") + op_kind_name(vertices.kind[v]) + " producing " + core::to_string(vertices.event[v]);
      });
      return;
    }
    vertices.issuer[v] = t;
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
  // A request's precondition becomes an edge into its vertex, its enclosing task the issue edge; the references
  // are freed once resolved.
  auto resolve_requests = [&](RequestReferences& references, VertexId first) {
    const std::vector<core::EventKey>& preconditions = references.preconditions;
    std::size_t next = 0;  // the next request's precondition, if it has one
    for (std::uint32_t i = 0; i < references.issues.size(); ++i) {
      ahead(references.issues, i, &RequestReferences::Issue::enclosing);
      if (next + kPrefetchDistance < preconditions.size()) producers_.prefetch(preconditions[next + kPrefetchDistance]);
      if (references.has_precondition[i])
        edge(producer_of(w, preconditions[next++]), first + i, EdgeKind::precondition);
      issued(first + i, references.issues[i].enclosing, references.issues[i].line);
    }
    freed_.released(references.release());
  };
  resolve_requests(w.task_references, w.first_task);
  resolve_requests(w.copy_references, w.first_copy);
  resolve_requests(w.trigger_references, w.first_trigger);
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
      w.findings.note(core::Stat::precondition_without_merge, r.merged,
                      [&] { return "input " + core::to_string(r.input); });
      continue;
    }
    const VertexId input = producer_of(w, r.input);
    if (input == kNoVertex)
      w.unproduced_merge_inputs.push_back(m);
    else
      w.edges.push_back({input, m, EdgeKind::merge_input});
  }
  for (const auto& r : b.task_waits) {
    VertexId t = producer_of_kind(r.waiter, OpKind::task);
    if (t == kNoVertex) {
      w.findings.note(core::Stat::wait_without_task, r.waiter,
                      [&] { return "waits on " + core::to_string(r.awaited); });
      continue;
    }
    VertexId awaited = producer_of(w, r.awaited);
    // A task that waits for its own end could never finish; the trace says how long the wait lasted, so it is
    // reported and replayed as a wait on an event no record produces (its measured time).
    if (awaited == t) {
      w.findings.note(core::Stat::wait_on_own_finish, r.waiter,
                      [&] { return "waits on " + core::to_string(r.awaited); });
      awaited = kNoVertex;
    }
    w.actions.push_back({t, static_cast<std::uint32_t>(w.waits.size()) | Action::kWaitFlag, Action::at(w.file, b.file_line(r.line))});
    w.waits.push_back({t, kNoVertex, awaited, r.awaited, micros_to_ns(r.micros), 0});
  }
  // The batch's other records (its requests, merges and triggers went as their vertices were filled, its timing
  // records after their join) are in the graph now. Freeing them here, batch by batch, gives back about as much
  // memory as the edges and actions the remaining batches still add.
  if (core::RecordBatch* r = w.releasable)
    freed_.released(release(*r, r->task_waits) + release(*r, r->event_preconditions) +
                    release(*r, r->barrier_creations) + release(*r, r->barrier_alters) +
                    release(*r, r->barrier_arrives));
}

namespace {

// A batch's tally into its file's: the per-target sums are only appended here, and each file's are added up
// once all its batches are in (sum_by_target), so that a file of many batches and targets costs one sort.
void add_tally(const core::FileTimingTally& batch, core::FileTimingTally& file) {
  file.task_time_us_by_target.insert(file.task_time_us_by_target.end(), batch.task_time_us_by_target.begin(),
                                     batch.task_time_us_by_target.end());
  file.task_time_us_without_task = core::saturating_sum(file.task_time_us_without_task, batch.task_time_us_without_task);
  file.copy_bytes = core::saturating_sum(file.copy_bytes, batch.copy_bytes);
  file.zero_byte_copy_sizes += batch.zero_byte_copy_sizes;
}

// One entry per target, ascending.
void sum_by_target(std::vector<std::pair<std::uint64_t, std::uint64_t>>& sums) {
  std::sort(sums.begin(), sums.end());
  std::size_t out = 0;
  for (std::size_t i = 0; i < sums.size(); ++i) {
    if (out > 0 && sums[out - 1].first == sums[i].first)
      sums[out - 1].second = core::saturating_sum(sums[out - 1].second, sums[i].second);
    else
      sums[out++] = sums[i];
  }
  sums.resize(out);
}

}  // namespace

// Joins what the batches found, in input order.
void GraphBuilder::join_batches() {
  EventTable externals;
  std::size_t waits = 0;
  for (const BatchWork& w : work_) waits += w.waits.size();
  v_.waits.reserve(waits);
  // The batches' actions move down to one run at the start of their array (never onto a later batch's).
  actions_ = {action_slab_.get(), 0, 0};
  out_.timing_by_file.resize(trace_.files.size());
  for (BatchWork& w : work_) {
    add_tally(w.timing, out_.timing_by_file[w.file]);
    w.timing = {};
    w.findings.append_to(out_.findings);
    out_.findings.external_references += w.external_references;
    out_.findings.pre_first_phase_references += w.pre_first_phase_references;
    unproduced_merge_inputs_.insert(unproduced_merge_inputs_.end(), w.unproduced_merge_inputs.begin(),
                                    w.unproduced_merge_inputs.end());
    w.unproduced_merge_inputs = {};
    for (const core::EventKey& e : w.external_inputs) {
      const std::size_t before = externals.size();
      externals.insert(e, 0);
      if (externals.size() > before) log_.note(core::Stat::external_event, e);
    }
    const auto wait_base = static_cast<std::uint32_t>(v_.waits.size());
    v_.waits.insert(v_.waits.end(), w.waits.begin(), w.waits.end());
    for (Action a : w.actions) {
      if (a.is_wait()) a.ref += wait_base;
      actions_.data[actions_.size++] = a;
    }
    w.external_inputs = {};
    w.waits = {};
    w.actions = {};
  }
  for (core::FileTimingTally& file : out_.timing_by_file) sum_by_target(file.task_time_us_by_target);
}

// When a task has two Task Times (or a copy two Copy Sizes), the first in input order counts and the
// others are findings: joined again here in order, which only a damaged trace pays for.
void GraphBuilder::settle_repeated_timings(bool times, bool sizes) {
  VertexTable& vertices = v_;
  if (times)
    for (TaskInfo& t : vertices.tasks) t.time_ns = kNoTime;
  if (sizes)
    for (CopyInfo& c : vertices.copies) c.bytes = kNoValue;
  for (const BatchWork& w : work_) {
    for (const auto& r : w.batch->task_times) {
      VertexId t = times ? producer_of_kind(r.finish, OpKind::task) : kNoVertex;
      if (t == kNoVertex) continue;
      std::int64_t& time = vertices.tasks[vertices.payload[t]].time_ns;
      if (time != kNoTime)
        log_.note(core::Stat::duplicate_task_time, r.finish);
      else
        time = micros_to_ns(r.micros);
    }
    for (const auto& r : w.batch->copy_sizes) {
      VertexId c = sizes ? producer_of_kind(r.copy, OpKind::copy) : kNoVertex;
      if (c == kNoVertex) continue;
      std::uint64_t& bytes = vertices.copies[vertices.payload[c]].bytes;
      if (bytes != kNoValue)
        log_.note(core::Stat::duplicate_copy_size, r.copy);
      else
        bytes = r.bytes;
    }
  }
}

}  // namespace rr::graph::build_detail
