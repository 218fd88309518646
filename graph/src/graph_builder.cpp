// Global event resolution: producers of every event across files, joins of timing records, program order,
// barrier phases, validation findings, then the CSR freeze and cycle detection.
#include "graph/graph_builder.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <unordered_map>

#include "graph/event_table.hpp"
#include "graph/graph_algorithms.hpp"

namespace rr::graph {

class GraphBuilder {
 public:
  GraphBuilder(const ir::TraceRecords& trace, const BuildOptions& options)
      : trace_(trace), options_(options), layout_(ir::IdLayout::for_width(trace.width)) {}

  BuildResult build() {
    reserve();
    create_vertices();
    complete_barriers();
    resolve_references();
    // The event tables are not needed past this point: free them before the CSR is built.
    producers_ = EventTable();
    phases_ = EventTable();
    externals_ = EventTable();
    order_actions();
    split_tasks_at_waits();
    check_timing_joins();
    freeze();
    detect_cycles();
    return std::move(out_);
  }

 private:
  struct RawEdge {
    VertexId from;
    VertexId to;
    EdgeKind kind;
  };
  // One action of a task, for program order: issued operations and waits.
  struct Action {
    VertexId issuer;
    std::uint32_t file;
    std::uint64_t line;
    std::uint32_t ref;  // vertex, or wait index when is_wait
    bool is_wait;
  };

  EventGraph& g() { return out_.graph; }

  void note(FindingKind kind, const ir::EventKey& event, std::string detail = {}) {
    auto& count = out_.findings.counts[static_cast<std::size_t>(kind)];
    if (count++ < options_.examples_per_finding) out_.findings.examples.push_back({kind, event, std::move(detail)});
  }

  void reserve() {
    std::uint64_t vertices = 0;
    std::uint64_t producers = 0;
    for (const auto& f : trace_.files) {
      const auto& r = f.stats.records;
      using K = ir::RecordKind;
      producers += r[K::task_request] + r[K::copy_request] + r[K::event_merge] + r[K::event_trigger];
      vertices += producers + r[K::barrier_alter] + r[K::barrier_arrive];
    }
    producers_.reserve(producers);
    g().kind_.reserve(vertices);
  }

  std::uint32_t file_node(const ir::FileRecords& f) const { return f.node < 0 ? kNoNode : static_cast<std::uint32_t>(f.node); }

  VertexId add_vertex(OpKind kind, std::uint32_t node, const ir::EventKey& event, std::uint32_t payload) {
    auto v = static_cast<VertexId>(g().kind_.size());
    g().kind_.push_back(kind);
    g().node_.push_back(node);
    g().event_.push_back(event);
    g().issuer_.push_back(kNoVertex);
    g().position_.push_back(0);
    g().payload_.push_back(payload);
    return v;
  }

  // Registers v as the producer of `event`; a second producer is a finding and loses.
  void produce(const ir::EventKey& event, VertexId v) {
    if (event.is_none()) return;
    VertexId existing = producers_.insert(event, v);
    if (existing != v)
      note(FindingKind::duplicate_producer, event,
           std::string(op_kind_name(g().kind_[existing])) + " and " + op_kind_name(g().kind_[v]));
  }

  // The producer of an awaited event, or kNoVertex for NO_EVENT and external events.
  VertexId producer_of(const ir::EventKey& event) {
    if (event.is_none()) return kNoVertex;
    VertexId v = producers_.find(event);
    if (v == EventTable::kMissing) {
      auto first = first_phase_.find(event.id());
      if (first != first_phase_.end() && event.gen < first->second) {
        ++out_.findings.pre_first_phase_references;
        return kNoVertex;
      }
      ++out_.findings.external_references;
      const std::size_t before = externals_.size();
      externals_.insert(event, 0);
      if (externals_.size() > before) note(FindingKind::external_event, event);
      return kNoVertex;
    }
    return v;
  }

  void edge(VertexId from, VertexId to, EdgeKind kind) {
    if (from != kNoVertex) edges_.push_back({from, to, kind});
  }

  VertexId phase_vertex(const ir::EventKey& phase, std::uint32_t node) {
    VertexId v = phases_.find(phase);
    if (v != EventTable::kMissing) return v;
    v = add_vertex(OpKind::barrier_phase, node, phase, static_cast<std::uint32_t>(g().phases_.size()));
    g().phases_.push_back({});
    phases_.insert(phase, v);
    phase_list_.push_back(v);
    return v;
  }

  std::uint32_t owner_node(std::uint64_t id) const {
    return trace_.width == ir::IdWidth::unknown ? kNoNode : layout_.node_of(id);
  }

  // Pass 1: one vertex per producing record, and the event -> producer table.
  void create_vertices() {
    for (std::uint32_t fi = 0; fi < trace_.files.size(); ++fi) {
      const auto& f = trace_.files[fi];
      const std::uint32_t node = file_node(f);
      for (const auto& b : f.batches) {
        for (const auto& r : b.barrier_creations) {
          auto [it, fresh] = barriers_.try_emplace(r.id.value(), r.expected_arrivals);
          (void)it;
          (void)fresh;  // every node may not repeat it, but a repeat carries the same count
        }
        for (const auto& r : b.task_requests) {
          TaskInfo t;
          t.func_id = r.func_id;
          t.priority = r.priority;
          t.processor = r.target;
          VertexId v = add_vertex(OpKind::task, owner_node(r.target.value()), r.finish,
                                  static_cast<std::uint32_t>(g().tasks_.size()));
          g().tasks_.push_back(t);
          produce(r.finish, v);
        }
        for (const auto& r : b.copy_requests) {
          VertexId v = add_vertex(OpKind::copy, node, r.copy, static_cast<std::uint32_t>(g().copies_.size()));
          g().copies_.push_back({r.src_memory, r.dst_memory, kNoValue});
          produce(r.copy, v);
        }
        for (const auto& r : b.event_merges) {
          VertexId v = add_vertex(OpKind::merge, node, r.merged, r.input_count);
          produce(r.merged, v);
        }
        for (const auto& r : b.event_triggers) {
          VertexId v = add_vertex(OpKind::trigger, node, r.event, 0);
          produce(r.event, v);
        }
        for (const auto& r : b.barrier_alters) {
          VertexId v = add_vertex(OpKind::barrier_alter, node, r.phase,
                                  static_cast<std::uint32_t>(g().barrier_values_.size()));
          g().barrier_values_.push_back(r.delta);
          VertexId p = phase_vertex(r.phase, owner_node(r.phase.id()));
          g().phases_[g().payload_[p]].required += r.delta;
          edges_.push_back({v, p, EdgeKind::arrival});
        }
        for (const auto& r : b.barrier_arrives) {
          VertexId v = add_vertex(OpKind::barrier_arrive, node, r.phase,
                                  static_cast<std::uint32_t>(g().barrier_values_.size()));
          g().barrier_values_.push_back(r.count);
          VertexId p = phase_vertex(r.phase, owner_node(r.phase.id()));
          g().phases_[g().payload_[p]].arrived += r.count;
          edges_.push_back({v, p, EdgeKind::arrival});
        }
      }
    }
    for (VertexId p : phase_list_) produce(g().event_[p], p);
  }

  // Pass 2: every reference to an event becomes an edge from its producer. Pass 1 made
  // each batch's vertices kind by kind in this same order, so walking the vertex list
  // with advance_to(kind) recovers each record's vertex without storing a map.
  void resolve_references() {
    VertexId next = 0;
    auto advance_to = [&](OpKind kind) {
      while (next < g().kind_.size() && g().kind_[next] != kind) ++next;
      return next++;
    };
    // Preconditions found per merge vertex (indexed by vertex; only merges are used).
    std::vector<std::uint32_t> found(g().vertex_count(), 0);

    for (std::uint32_t fi = 0; fi < trace_.files.size(); ++fi) {
      const auto& f = trace_.files[fi];
      for (const auto& b : f.batches) {
        auto issued = [&](VertexId v, const ir::EventKey& enclosing, std::uint32_t rel_line) {
          if (enclosing.is_none()) return;
          VertexId t = producers_.find(enclosing);
          if (t == EventTable::kMissing || g().kind_[t] != OpKind::task) {
            note(FindingKind::unknown_issuer, enclosing,
                 std::string("issues a ") + op_kind_name(g().kind_[v]) + " producing " + ir::to_string(g().event_[v]));
            return;
          }
          g().issuer_[v] = t;
          edges_.push_back({t, v, EdgeKind::issue});
          actions_.push_back({t, fi, b.file_line(rel_line), v, false});
        };
        for (const auto& r : b.task_requests) {
          VertexId v = advance_to(OpKind::task);
          edge(producer_of(r.precondition), v, EdgeKind::precondition);
          issued(v, r.enclosing, r.line);
        }
        for (const auto& r : b.copy_requests) {
          VertexId v = advance_to(OpKind::copy);
          edge(producer_of(r.wait_on), v, EdgeKind::precondition);
          issued(v, r.enclosing, r.line);
        }
        for (std::size_t i = 0; i < b.event_merges.size(); ++i) advance_to(OpKind::merge);
        for (const auto& r : b.event_triggers) {
          VertexId v = advance_to(OpKind::trigger);
          edge(producer_of(r.wait_on), v, EdgeKind::precondition);
          issued(v, r.enclosing, r.line);
        }
        for (const auto& r : b.barrier_alters) {
          VertexId v = advance_to(OpKind::barrier_alter);
          issued(v, r.enclosing, r.line);
        }
        for (const auto& r : b.barrier_arrives) {
          VertexId v = advance_to(OpKind::barrier_arrive);
          edge(producer_of(r.wait_on), v, EdgeKind::precondition);
          issued(v, r.enclosing, r.line);
        }
        for (const auto& r : b.event_preconditions) {
          VertexId m = producers_.find(r.merged);
          if (m == EventTable::kMissing || g().kind_[m] != OpKind::merge) {
            note(FindingKind::precondition_without_merge, r.merged, "input " + ir::to_string(r.input));
            continue;
          }
          ++found[m];
          edge(producer_of(r.input), m, EdgeKind::merge_input);
        }
        for (const auto& r : b.task_times) {
          VertexId t = producers_.find(r.finish);
          if (t == EventTable::kMissing || g().kind_[t] != OpKind::task) {
            note(FindingKind::task_time_without_request, r.finish, std::to_string(r.micros) + " us");
            continue;
          }
          TaskInfo& info = g().tasks_[g().payload_[t]];
          if (info.time_us != kNoValue) {
            note(FindingKind::duplicate_task_time, r.finish);
            continue;
          }
          info.time_us = r.micros;
        }
        for (const auto& r : b.copy_sizes) {
          VertexId c = producers_.find(r.copy);
          if (c == EventTable::kMissing || g().kind_[c] != OpKind::copy) {
            note(r.bytes == 0 ? FindingKind::zero_byte_copy_orphan : FindingKind::copy_size_without_request, r.copy,
                 std::to_string(r.bytes) + " bytes");
            continue;
          }
          CopyInfo& info = g().copies_[g().payload_[c]];
          if (info.bytes != kNoValue) {
            note(FindingKind::duplicate_copy_size, r.copy);
            continue;
          }
          info.bytes = r.bytes;
        }
        for (const auto& r : b.task_waits) {
          VertexId t = producers_.find(r.waiter);
          if (t == EventTable::kMissing || g().kind_[t] != OpKind::task) {
            note(FindingKind::wait_without_task, r.waiter, "waits on " + ir::to_string(r.awaited));
            continue;
          }
          VertexId awaited = producer_of(r.awaited);
          auto wait_index = static_cast<std::uint32_t>(g().waits_.size());
          g().waits_.push_back({t, kNoVertex, awaited, r.awaited, r.micros, 0});
          actions_.push_back({t, fi, b.file_line(r.line), wait_index, true});
        }
      }
    }
    for (VertexId m = 0; m < found.size(); ++m) {
      if (g().kind_[m] == OpKind::merge && found[m] != g().payload_[m])
        note(FindingKind::merge_count_mismatch, g().event_[m],
             "announced " + std::to_string(g().payload_[m]) + ", found " + std::to_string(found[m]));
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
        note(FindingKind::barrier_without_creation, ir::EventKey::make(id, list.front()));
      else
        expected = created->second;
      VertexId previous = kNoVertex;
      // The first phase is the smallest generation seen in Alter/Arrive; a missing
      // generation in between still has to fire before the next one can.
      for (std::uint32_t gen = list.front(); gen <= list.back(); ++gen) {
        ir::EventKey key = ir::EventKey::make(id, gen);
        bool existed = phases_.find(key) != EventTable::kMissing;
        VertexId p = phase_vertex(key, owner_node(id));
        if (!existed) produce(key, p);
        BarrierPhaseInfo& info = g().phases_[g().payload_[p]];
        info.required += expected;
        info.first = previous == kNoVertex;
        if (previous != kNoVertex) edges_.push_back({previous, p, EdgeKind::phase_order});
        if (info.arrived < info.required)
          note(FindingKind::barrier_phase_incomplete, key,
               "needs " + std::to_string(info.required) + " arrivals, gets " + std::to_string(info.arrived));
        previous = p;
        if (gen == 0xffffffffu) break;
      }
    }
  }

  // Program order of each task's actions: by file and line (one thread logs them all, spec §6).
  void order_actions() {
    std::sort(actions_.begin(), actions_.end(), [](const Action& a, const Action& b) {
      if (a.issuer != b.issuer) return a.issuer < b.issuer;
      if (a.file != b.file) return a.file < b.file;
      return a.line < b.line;
    });
    for (std::size_t i = 0; i < actions_.size();) {
      std::size_t j = i;
      while (j < actions_.size() && actions_[j].issuer == actions_[i].issuer) ++j;
      TaskInfo& task = g().tasks_[g().payload_[actions_[i].issuer]];
      task.action_count = static_cast<std::uint32_t>(j - i);
      for (std::size_t k = i; k < j; ++k) {
        if (actions_[k].is_wait)
          g().waits_[actions_[k].ref].position = static_cast<std::uint32_t>(k - i);
        else
          g().position_[actions_[k].ref] = static_cast<std::uint32_t>(k - i);
      }
      i = j;
    }
    // Waits grouped by task, in program order, so each task owns a contiguous range.
    std::stable_sort(g().waits_.begin(), g().waits_.end(), [](const WaitInfo& a, const WaitInfo& b) {
      return a.task != b.task ? a.task < b.task : a.position < b.position;
    });
    for (std::uint32_t i = 0; i < g().waits_.size(); ++i) {
      const WaitInfo& w = g().waits_[i];
      TaskInfo& t = g().tasks_[g().payload_[w.task]];
      if (t.wait_count == 0) t.first_wait = i;
      ++t.wait_count;
      t.wait_us += w.micros;
    }
    actions_.clear();
    actions_.shrink_to_fit();
  }

  // A Task Wait splits its task: each wait gets a task_resume vertex that follows the
  // previous segment and the awaited event. Issue edges leave the segment their action
  // is in; edges from the task's finish event leave its last segment. Without this split,
  // a task that issues work and then waits for it would look like a cycle.
  void split_tasks_at_waits() {
    const VertexId first_resume = g().vertex_count();
    for (std::uint32_t i = 0; i < g().waits_.size(); ++i) {
      WaitInfo& w = g().waits_[i];
      w.resume = add_vertex(OpKind::task_resume, g().node_[w.task], g().event_[w.task], i);
    }
    std::vector<VertexId> last_segment;  // indexed by task vertex, only for tasks that wait
    last_segment.assign(first_resume, kNoVertex);
    for (std::uint32_t i = 0; i < g().waits_.size(); ++i) {
      const WaitInfo& w = g().waits_[i];
      const TaskInfo& t = g().tasks_[g().payload_[w.task]];
      VertexId previous = i == t.first_wait ? w.task : g().waits_[i - 1].resume;
      edges_.push_back({previous, w.resume, EdgeKind::continuation});
      if (w.awaited != kNoVertex) edges_.push_back({w.awaited, w.resume, EdgeKind::wait});
      last_segment[w.task] = w.resume;
    }
    if (g().waits_.empty()) return;
    for (RawEdge& e : edges_) {
      if (e.from >= first_resume || g().kind_[e.from] != OpKind::task || last_segment[e.from] == kNoVertex) continue;
      if (e.kind == EdgeKind::issue) {
        // Segment of the action at position k: the resume after the last wait before k.
        const TaskInfo& t = g().tasks_[g().payload_[e.from]];
        const std::uint32_t k = g().position_[e.to];
        VertexId segment = e.from;
        for (std::uint32_t i = t.first_wait; i < t.first_wait + t.wait_count && g().waits_[i].position < k; ++i)
          segment = g().waits_[i].resume;
        e.from = segment;
      } else if (e.kind != EdgeKind::continuation) {
        e.from = last_segment[e.from];  // the finish event fires when the last segment ends
      }
    }
  }

  void check_timing_joins() {
    for (VertexId v = 0; v < g().vertex_count(); ++v) {
      if (g().kind_[v] == OpKind::task && g().tasks_[g().payload_[v]].time_us == kNoValue)
        note(FindingKind::task_without_time, g().event_[v]);
      else if (g().kind_[v] == OpKind::copy && g().copies_[g().payload_[v]].bytes == kNoValue)
        note(FindingKind::copy_without_size, g().event_[v]);
    }
  }

  // Counting sort of the edge list into forward (by source) and reverse (by target) CSR.
  // Within a vertex, edges keep the order they were found in, which is deterministic.
  void freeze() {
    const std::size_t n = g().vertex_count();
    auto build = [&](bool forward, std::vector<std::uint64_t>& offset, std::vector<VertexId>& ends,
                     std::vector<EdgeKind>& kinds) {
      offset.assign(n + 1, 0);
      for (const auto& e : edges_) ++offset[(forward ? e.from : e.to) + 1];
      std::partial_sum(offset.begin(), offset.end(), offset.begin());
      ends.resize(edges_.size());
      kinds.resize(edges_.size());
      std::vector<std::uint64_t> cursor(offset.begin(), offset.end() - 1);
      for (const auto& e : edges_) {
        auto at = cursor[forward ? e.from : e.to]++;
        ends[at] = forward ? e.to : e.from;
        kinds[at] = e.kind;
      }
    };
    build(true, g().succ_offset_, g().succ_, g().succ_kind_);
    build(false, g().pred_offset_, g().pred_, g().pred_kind_);
    edges_.clear();
    edges_.shrink_to_fit();
  }

  // Kahn's algorithm settles the usual case (no cycle) in one pass over the CSR; only a graph that has a
  // cycle pays for strongly connected components, which name one.
  bool acyclic() const {
    const auto& graph = out_.graph;
    const VertexId n = graph.vertex_count();
    std::vector<std::uint32_t> indegree(n);
    for (VertexId v = 0; v < n; ++v) indegree[v] = static_cast<std::uint32_t>(graph.predecessors(v).size());
    std::vector<VertexId> ready;
    for (VertexId v = 0; v < n; ++v)
      if (indegree[v] == 0) ready.push_back(v);
    std::uint64_t seen = 0;
    while (!ready.empty()) {
      VertexId v = ready.back();
      ready.pop_back();
      ++seen;
      for (VertexId w : graph.successors(v))
        if (--indegree[w] == 0) ready.push_back(w);
    }
    return seen == n;
  }

  void detect_cycles() {
    if (acyclic()) return;
    out_.findings.cycle = find_cycle(g());
    if (!out_.findings.cycle.empty()) {
      std::string detail;
      for (VertexId v : out_.findings.cycle)
        detail += (detail.empty() ? "" : " -> ") + std::string(op_kind_name(g().kind_[v])) + " " +
                  ir::to_string(g().event_[v]);
      note(FindingKind::cycle, g().event_[out_.findings.cycle.front()], detail);
    }
  }

  const ir::TraceRecords& trace_;
  const BuildOptions& options_;
  ir::IdLayout layout_;
  BuildResult out_;
  EventTable producers_;
  EventTable phases_;
  EventTable externals_;
  std::unordered_map<std::uint64_t, std::uint32_t> barriers_;  // barrier id -> expected arrivals
  std::unordered_map<std::uint64_t, std::uint32_t> first_phase_;  // barrier id -> first phase gen
  std::vector<VertexId> phase_list_;
  std::vector<RawEdge> edges_;
  std::vector<Action> actions_;
};

BuildResult build_event_graph(const ir::TraceRecords& trace, const BuildOptions& options) {
  return GraphBuilder(trace, options).build();
}

}  // namespace rr::graph
