// The Legion Prof graph build. Every work item (task, meta-task, message handler, profiler task), copy and fill
// is a vertex keyed by its finish event; mergers, completion queues, triggers, poisons, reservation acquires,
// instance-ready and redistrict records are pass-through vertices keyed by their result; barrier arrivals feed
// one phase vertex per barrier generation. Edges come from `critical` (precondition), `creator` (issue), the
// pass-through inputs, arrivals and the order of a barrier's generations. A creator's actions (what it launched,
// triggered, arrived at, and its waits) are in the order the run observed them, and each knows where in its
// creator's busy time it happened.
#include "graph/prof_graph_builder.hpp"
#include "graph/prof_span_work.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "graph/graph_algorithms.hpp"
#include "graph/src/builder/wait_split.hpp"
#include "graph/src/finding_log.hpp"
#include "graph/src/prof/merged_results.hpp"

namespace rr::graph {

namespace {

using core::ProfEvent;
using core::TimeNs;

// REALM_EVENT_GENERATION_BITS: an event id's generation is its low 20 bits (docs/legion-prof.md, Ids).
constexpr std::uint64_t kGenerationMask = (std::uint64_t{1} << 20) - 1;

// Event ids as the text logs' (id, gen): the generation in the low 20 bits, so a barrier's phases are (id, g).
core::EventKey key_of(ProfEvent e) { return core::EventKey::make(e.id & ~kGenerationMask, static_cast<std::uint32_t>(e.id & kGenerationMask)); }
std::uint32_t node_of_processor(core::Handle p) { return core::realm_node_of(p.value()); }
std::uint32_t node_of_barrier(ProfEvent e) { return core::realm_barrier_node_of(e.id); }

// One action of a creator: something it launched or did, or one of its waits, at an observed time.
struct Action {
  VertexId creator;
  TimeNs at;
  std::uint32_t order;  // input order, to break ties deterministically
  std::uint32_t ref;    // vertex, or wait index with kWaitFlag
  static constexpr std::uint32_t kWaitFlag = 0x80000000u;
};

class ProfBuilder {
 public:
  ProfBuilder(const core::TraceRecords& trace, const BuildOptions& options)
      : trace_(trace), log_(options.examples_per_finding), traced_cores_(options.traced_cores) {}

  BuildResult build() {
    add_names();
    add_work();
    add_pass_through();
    add_arrivals();
    connect();
    order_actions();
    rebase();
    external_delays();
    build_detail::WaitSplit split;
    std::vector<Edge> tail = split.add_resumes(v_);
    observe_resumes();
    split.move_sources(v_, edges_);
    std::vector<std::span<const Edge>> runs{edges_, tail};
    out_.graph = EventGraph::freeze(std::move(v_), runs);
    out_.findings.cycle = find_cycle(out_.graph);
    if (!out_.findings.cycle.empty()) {
      const EventGraph& g = out_.graph;
      log_.note(core::Stat::cycle, g.event(out_.findings.cycle.front()), [&] {
        std::string detail;
        for (VertexId x : out_.findings.cycle)
          detail += (detail.empty() ? "" : " -> ") + std::string(op_kind_name(g.kind(x))) + " " + core::to_string(g.event(x));
        return detail;
      });
    }
    log_.append_to(out_.findings);
    note_missing_nodes();
    if (!has_event_graph_records() && out_.graph.vertex_count() > 0)
      out_.findings.notes.push_back(
          "these Legion Prof logs were recorded without the event graph (-lg:prof_no_critical_paths: no merger, "
          "trigger, arrival, reservation, instance-ready or completion-queue record): most dependencies are "
          "missing. The replay follows the launches and the times the run observed; a what-if cannot hold work "
          "back for a dependency the log does not have, so it may come out too optimistic.");
    return std::move(out_);
  }

 private:
  // ---- names: TaskKind by its overwrite rule, MetaDesc for meta-tasks and messages ----
  void add_names() {
    std::map<std::uint32_t, std::pair<std::string, bool>> tasks;  // task_id -> (name, overwritten)
    std::map<std::uint32_t, std::string> meta;
    for (const auto& f : trace_.files) {
      const auto& p = f.profile;
      for (const auto& k : p.task_kinds) {
        auto [it, fresh] = tasks.try_emplace(k.task_id, std::string(p.string_at(k.name)), k.overwritten);
        if (!fresh && k.overwritten && !it->second.second) it->second = {std::string(p.string_at(k.name)), true};
      }
      for (const auto& m : p.meta_kinds) meta.try_emplace(m.kind, std::string(p.string_at(m.name)));
    }
    for (auto& [id, name] : tasks) v_.function_names.emplace_back(id, name.first);
    for (auto& [id, name] : meta) v_.function_names.emplace_back(kMetaFunction + id, name);
    std::set<std::uint32_t> partitions;
    for (const auto& f : trace_.files)
      for (const auto& w : f.profile.work)
        if (w.kind == core::ProfWorkKind::partition) partitions.insert(w.function);
    for (auto op : partitions) v_.function_names.emplace_back(kPartitionFunction + op, "partition op " + std::to_string(op));
    v_.function_names.emplace_back(kProfilerFunction, "profiler task");
  }

  VertexId add(OpKind kind, std::uint32_t node, ProfEvent event, std::uint32_t payload) {
    const VertexId v = v_.add(kind, node, key_of(event), payload);
    observed_start_.push_back(kNoTime);
    observed_end_.push_back(kNoTime);
    observed_ready_.push_back(kNoTime);
    issued_at_.push_back(kNoTime);
    critical_.push_back({});
    external_input_.push_back(0);
    return v;
  }

  // The event -> producer table. Of two producers the first in input order stays; the same trigger or poison
  // forwarded to the creator's node is in two files (docs/legion-prof.md, Records by purpose) and is no finding.
  bool produce(ProfEvent event, VertexId v, bool dedupe_silently) {
    if (event.is_none()) return true;
    const auto inserted = producer_.try_emplace(event.id, v);  // not bound: the lambda below reads it
    const bool fresh = inserted.second;
    if (!fresh && !dedupe_silently)
      log_.note(core::Stat::duplicate_producer, key_of(event), [&] {
        return std::string(op_kind_name(v_.kind[inserted.first->second])) + " and " + op_kind_name(v_.kind[v]);
      });
    return fresh;
  }

  // ---- work items, copies and fills ----
  void add_work() {
    for (const auto& f : trace_.files)
      for (const auto& inst : f.profile.instances)
        if (!inst.creator.is_none()) instance_creation_.try_emplace(inst.inst_uid.id, inst.creator, inst.create);
    for (std::uint32_t fi = 0; fi < trace_.files.size(); ++fi) {
      const auto& f = trace_.files[fi];
      const auto& p = f.profile;
      const std::uint32_t file_node = f.node < 0 ? kNoNode : static_cast<std::uint32_t>(f.node);
      // With the traced process's cores known, a span holds the time its thread waited for a core: the work
      // is what it would have taken alone (prof_span_work.hpp).
      // Start-up silences are no one's work either: the model adds them back where its processors start.
      std::vector<SilentWindow> silences;
      if (traced_cores_ > 0) silences = silent_windows(p);
      const std::vector<TimeNs> not_worked = span_time_not_worked(p, traced_cores_, silences);
      if (!silences.empty()) silences_[file_node] = std::move(silences);
      for (std::size_t wi = 0; wi < p.work.size(); ++wi) {
        const core::ProfWorkItem& w = p.work[wi];
        TaskInfo t;
        t.func_id = function_of(w);
        t.processor = w.proc;
        t.time_ns = std::max<TimeNs>(0, w.stop - w.start) - not_worked[wi];
        // Realm's dependent partitioning runs on no processor; nor do the profiler's responses here: they are
        // left out of the estimate, and holding a processor at the times they ran would pin the app's work there.
        const bool background = w.kind == core::ProfWorkKind::partition || w.kind == core::ProfWorkKind::prof_task;
        const std::uint32_t node = background || w.proc.value() == 0 ? file_node : node_of_processor(w.proc);
        const VertexId v = add(background ? OpKind::background : OpKind::task, node, w.fevent,
                               static_cast<std::uint32_t>(v_.tasks.size()));
        v_.tasks.push_back(t);
        if (w.kind == core::ProfWorkKind::implicit_task) v_.outside_work.push_back(v);
        // A message was launched when its sender sent it: `spawn`, on the sender's clock (its `create` is on
        // the receiver's, which need not agree: in circuit_mpi2 the nodes' clocks are milliseconds apart).
        const TimeNs launched = w.kind == core::ProfWorkKind::message && w.extra != core::kNoIndex ? p.spawns[w.extra].spawn : w.create;
        if (w.kind == core::ProfWorkKind::prof_task) {
          // A profiling response runs after what it reports on (its `creator`). About an instance, it follows the
          // instance's creation inside the operation that created it (InstTimelineInfo), an unrecorded time
          // later: launched there, with the measured delay. About an operation of the trace, it follows that
          // operation; otherwise it runs when the run ran it.
          v_.outside_work.push_back(v);
          if (auto it = instance_creation_.find(w.creator.id); it != instance_creation_.end()) {
            observe(v, w.ready, w.start, w.stop, {}, it->second.first, it->second.second);
            external_input_[v] = 1;
          } else {
            observe(v, w.ready, w.start, w.stop, w.creator, {}, launched);
            profiler_.push_back(v);
          }
        } else {
          observe(v, w.ready, w.start, w.stop, w.critical, w.creator, launched);
        }
        if (!produce(w.fevent, v, false)) continue;
        for (std::uint32_t i = 0; i < w.wait_count && !background; ++i) {
          const core::ProfWait& pw = p.waits[w.first_wait + i];
          WaitInfo info;
          info.task = v;
          info.event = key_of(pw.wait_event);
          info.wait_ns = std::max<TimeNs>(0, pw.wait_end - pw.wait_start);
          wait_events_.push_back(pw.wait_event);
          wait_times_.push_back({pw.wait_start, pw.wait_end});
          actions_.push_back({v, pw.wait_start, order_++, static_cast<std::uint32_t>(v_.waits.size()) | Action::kWaitFlag});
          v_.waits.push_back(info);
        }
      }
      auto add_copy = [&](const auto& c, core::Handle src, core::Handle dst) {
        const VertexId v = add(OpKind::copy, file_node, c.fevent, static_cast<std::uint32_t>(v_.copies.size()));
        v_.copies.push_back({src, dst, c.size});
        observe(v, c.ready, c.start, c.stop, c.critical, c.creator, c.create);
        produce(c.fevent, v, false);
      };
      for (const auto& c : p.copies) {
        const auto [src, dst] = core::copy_endpoints(p, c);
        add_copy(c, src, dst);
      }
      // A fill writes its size into its destination: a copy from that memory to itself.
      for (const auto& c : p.fills) {
        const core::Handle dst = core::fill_destination(p, c);
        add_copy(c, dst, dst);
      }
    }
  }

  // A run of N processes profiled in fewer (-lg:prof M < N, or files left out): what the others launched has
  // no launcher in the trace.
  void note_missing_nodes() {
    std::set<std::int32_t> present;
    std::uint32_t expected = 0;
    for (const auto& f : trace_.files) {
      present.insert(f.node);
      if (f.profile.machine) expected = std::max(expected, f.profile.machine->num_nodes);
    }
    if (expected <= present.size()) return;
    std::string missing;
    for (std::uint32_t n = 0; n < expected; ++n)
      if (!present.count(static_cast<std::int32_t>(n))) missing += (missing.empty() ? "" : ", ") + std::to_string(n);
    out_.findings.notes.push_back("the run had " + std::to_string(expected) + " processes; the logs of node(s) " + missing +
                                  " are not in the trace: their work is not replayed, and what they launched or "
                                  "triggered here keeps its measured delay");
    out_.findings.explained_here[static_cast<std::size_t>(core::Stat::unknown_issuer)] =
        "expected: operations launched by the nodes whose logs are missing; each keeps its measured delay";
  }

  bool has_event_graph_records() const {
    for (const auto& f : trace_.files) {
      const auto& p = f.profile;
      if (!p.mergers.empty() || !p.completion_queues.empty() || !p.triggers.empty() || !p.poisons.empty() ||
          !p.arrivals.empty() || !p.reservation_acquires.empty() || !p.instance_readies.empty() ||
          !p.instance_redistricts.empty())
        return true;
    }
    return false;
  }

  static std::uint32_t function_of(const core::ProfWorkItem& w) {
    switch (w.kind) {
      case core::ProfWorkKind::meta_task:
      case core::ProfWorkKind::message: return kMetaFunction + w.function;
      case core::ProfWorkKind::partition: return kPartitionFunction + w.function;
      case core::ProfWorkKind::prof_task: return kProfilerFunction;
      default: return w.function;
    }
  }

  void observe(VertexId v, TimeNs ready, TimeNs start, TimeNs stop, ProfEvent critical, ProfEvent creator,
               TimeNs created_at) {
    observed_start_[v] = start;
    observed_end_[v] = stop;
    observed_ready_[v] = ready;
    critical_[v] = critical;
    if (!creator.is_none()) launches_.push_back({v, creator, created_at});
  }

  // ---- pass-through records ----
  void add_pass_through() {
    for (std::uint32_t fi = 0; fi < trace_.files.size(); ++fi) {
      const auto& f = trace_.files[fi];
      const auto& p = f.profile;
      const std::uint32_t node = f.node < 0 ? kNoNode : static_cast<std::uint32_t>(f.node);
      auto group = [&](const std::vector<core::ProfEventMerger>& records, OpKind kind) {
        for_each_merged_result(records, [&](std::size_t i, const std::vector<std::uint64_t>& inputs) {
          const VertexId v = add(kind, node, records[i].result, static_cast<std::uint32_t>(inputs.size()));
          if (produce(records[i].result, v, false)) {
            for (auto in : inputs) inputs_.push_back({v, ProfEvent{in}});
            if (!records[i].fevent.is_none()) launches_.push_back({v, records[i].fevent, records[i].performed});
          }
        });
      };
      group(p.mergers, OpKind::merge);
      group(p.completion_queues, OpKind::first_of);
      auto trigger = [&](ProfEvent result, ProfEvent precondition, ProfEvent by, TimeNs at) {
        if (producer_.count(result.id)) return;  // forwarded to the creator's node too: one of them is enough
        const VertexId v = add(OpKind::trigger, node, result, 0);
        produce(result, v, true);
        critical_[v] = precondition;
        observed_end_[v] = at;  // when it was performed (it fires then, or when its precondition does)
        if (!by.is_none()) launches_.push_back({v, by, at});
      };
      for (const auto& t : p.triggers) trigger(t.result, t.precondition, t.fevent, t.performed);
      for (const auto& t : p.poisons) trigger(t.result, {}, t.fevent, t.performed);
      for (const auto& t : p.reservation_acquires) trigger(t.result, t.precondition, t.fevent, t.performed);
      for (const auto& t : p.instance_readies) trigger(t.result, t.precondition, {}, t.performed);
      for (const auto& t : p.instance_redistricts) trigger(t.result, t.precondition, {}, t.performed);
    }
  }

  // ---- barrier arrivals and phases ----
  void add_arrivals() {
    // An arrival on another node's barrier is logged by both nodes (as triggers are): one is enough.
    // Sorted rather than hashed into a set: no allocation per arrival.
    struct Logged {
      std::uint64_t result, fevent, precondition;
      TimeNs performed;
      std::uint32_t file, index;  // input order, for the first of duplicates and the vertex order
    };
    std::vector<Logged> logged;
    for (std::uint32_t fi = 0; fi < trace_.files.size(); ++fi)
      for (std::uint32_t i = 0; i < trace_.files[fi].profile.arrivals.size(); ++i) {
        const auto& a = trace_.files[fi].profile.arrivals[i];
        logged.push_back({a.result.id, a.fevent.id, a.precondition.id, a.performed, fi, i});
      }
    auto same = [](const Logged& a, const Logged& b) {
      return std::tie(a.result, a.fevent, a.precondition, a.performed) == std::tie(b.result, b.fevent, b.precondition, b.performed);
    };
    std::sort(logged.begin(), logged.end(), [](const Logged& a, const Logged& b) {
      return std::tie(a.result, a.fevent, a.precondition, a.performed, a.file, a.index) <
             std::tie(b.result, b.fevent, b.precondition, b.performed, b.file, b.index);
    });
    logged.erase(std::unique(logged.begin(), logged.end(), same), logged.end());
    std::sort(logged.begin(), logged.end(), [](const Logged& a, const Logged& b) {
      return std::tie(a.file, a.index) < std::tie(b.file, b.index);
    });
    std::vector<std::pair<std::uint64_t, VertexId>> by_generation;  // (barrier generation id, arrival), input order
    for (const Logged& l : logged) {
      const auto& f = trace_.files[l.file];
      const auto& a = f.profile.arrivals[l.index];
      const std::uint32_t node = f.node < 0 ? kNoNode : static_cast<std::uint32_t>(f.node);
      const VertexId v = add(OpKind::barrier_arrive, node, a.result, static_cast<std::uint32_t>(v_.barrier_values.size()));
      v_.barrier_values.push_back(1);
      critical_[v] = a.precondition;
      observed_end_[v] = a.performed;
      if (!a.fevent.is_none()) launches_.push_back({v, a.fevent, a.performed});
      by_generation.emplace_back(a.result.id, v);
    }
    std::stable_sort(by_generation.begin(), by_generation.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    // Legion records the arrival that completed a generation (or, with -lg:prof_all_critical_arrivals, every
    // arrival): a phase needs the arrivals logged for it. Generations follow each other (docs/legion-prof.md, Ids).
    VertexId previous = kNoVertex;
    std::uint64_t previous_barrier = 0;
    for (std::size_t i = 0; i < by_generation.size();) {
      const std::uint64_t id = by_generation[i].first;
      std::size_t j = i;
      while (j < by_generation.size() && by_generation[j].first == id) ++j;
      const auto arrivals = static_cast<std::int64_t>(j - i);
      const ProfEvent phase{id};
      const VertexId v = add(OpKind::barrier_phase, node_of_barrier(phase), phase, static_cast<std::uint32_t>(v_.phases.size()));
      const std::uint64_t barrier = id & ~kGenerationMask;
      v_.phases.push_back({arrivals, arrivals, previous == kNoVertex || barrier != previous_barrier});
      produce(phase, v, false);
      for (; i < j; ++i) edges_.push_back({by_generation[i].second, v, EdgeKind::arrival});
      if (previous != kNoVertex && barrier == previous_barrier) edges_.push_back({previous, v, EdgeKind::phase_order});
      previous = v;
      previous_barrier = barrier;
    }
  }

  // An awaited event's producer; an event no record produces is external: counted once, and noted on `v`.
  VertexId producer_of(ProfEvent event, VertexId v) {
    if (event.is_none()) return kNoVertex;
    auto it = producer_.find(event.id);
    if (it != producer_.end()) return it->second;
    if (v != kNoVertex) external_input_[v] = 1;
    ++out_.findings.external_references;
    if (externals_.insert(event.id).second) log_.note(core::Stat::external_event, key_of(event));
    return kNoVertex;
  }

  // ---- edges ----
  void connect() {
    std::vector<char> profiler(v_.size(), 0);
    for (VertexId v : profiler_) profiler[v] = 1;
    for (VertexId v = 0; v < v_.size(); ++v) {
      if (profiler[v]) {
        // Not found: it ran when the run ran it (its observed ready time is its start), no finding.
        auto it = producer_.find(critical_[v].id);
        if (it != producer_.end()) edges_.push_back({it->second, v, EdgeKind::precondition});
        else external_input_[v] = 1;
        continue;
      }
      const VertexId p = producer_of(critical_[v], v);
      if (p != kNoVertex) edges_.push_back({p, v, EdgeKind::precondition});
    }
    for (const auto& [v, event] : inputs_) {
      const VertexId p = producer_of(event, v);
      if (p != kNoVertex) edges_.push_back({p, v, EdgeKind::merge_input});
    }
    for (std::size_t i = 0; i < v_.waits.size(); ++i) v_.waits[i].awaited = producer_of(wait_events_[i], kNoVertex);
    // Launches: the creator must be work of the trace (a task, meta-task, or background work such as a
    // profiling response); merges are requested by a task but fire on
    // their inputs alone (as Legion Prof's own critical path takes them), so they get no issue edge.
    v_.issuer.resize(v_.size(), kNoVertex);  // the launches are what sets issuers (VertexTable::issuer)
    for (const auto& l : launches_) {
      auto it = producer_.find(l.creator.id);
      if (it == producer_.end() || (v_.kind[it->second] != OpKind::task && v_.kind[it->second] != OpKind::background)) {
        log_.note(core::Stat::unknown_issuer, key_of(l.creator), [&] {
          return std::string("creates a ") + op_kind_name(v_.kind[l.v]) + " producing " + core::to_string(v_.event[l.v]);
        });
        // Its launch is a time no record explains: kept as a measured delay, like an unrecorded event.
        external_input_[l.v] = 1;
        continue;
      }
      if (v_.kind[l.v] == OpKind::merge || v_.kind[l.v] == OpKind::first_of) continue;
      v_.issuer[l.v] = it->second;
      issued_at_[l.v] = l.at;
      edges_.push_back({it->second, l.v, EdgeKind::issue});
      actions_.push_back({it->second, l.at, order_++, l.v});
    }
  }

  // Program order: each creator's actions by observed time; where in its busy time each happened (its time since
  // start, less the waits before it, over its busy time).
  void order_actions() {
    std::sort(actions_.begin(), actions_.end(), [](const Action& a, const Action& b) {
      if (a.creator != b.creator) return a.creator < b.creator;
      if (a.at != b.at) return a.at < b.at;
      return a.order < b.order;
    });
    v_.position.assign(v_.size(), 0);
    v_.issue_fraction.assign(v_.size(), -1.0f);
    for (std::size_t i = 0; i < actions_.size();) {
      std::size_t j = i;
      while (j < actions_.size() && actions_[j].creator == actions_[i].creator) ++j;
      const VertexId c = actions_[i].creator;
      TaskInfo& t = v_.tasks[v_.payload[c]];
      t.action_count = static_cast<std::uint32_t>(j - i);
      const TimeNs start = observed_start_[c];
      TimeNs waited = 0;
      for (std::size_t k = i; k < j; ++k)
        if (actions_[k].ref & Action::kWaitFlag) {
          const auto& w = wait_times_[actions_[k].ref & ~Action::kWaitFlag];
          waited += std::max<TimeNs>(0, w.second - w.first);
        }
      const double busy = static_cast<double>(std::max<TimeNs>(1, t.time_ns - waited));
      TimeNs waits_before = 0;
      for (std::size_t k = i; k < j; ++k) {
        const Action& a = actions_[k];
        const auto position = static_cast<std::uint32_t>(k - i);
        const double offset = static_cast<double>(a.at - start - waits_before);
        const float fraction = static_cast<float>(std::clamp(offset / busy, 0.0, 1.0));
        if (a.ref & Action::kWaitFlag) {
          const std::uint32_t w = a.ref & ~Action::kWaitFlag;
          v_.waits[w].position = position;
          v_.waits[w].fraction = fraction;
          waits_before += std::max<TimeNs>(0, wait_times_[w].second - wait_times_[w].first);
        } else {
          v_.position[a.ref] = position;
          v_.issue_fraction[a.ref] = fraction;
        }
      }
      i = j;
    }
    // A task's waits are a contiguous run sorted by position (WaitSplit and EventGraph::waits_of rely on it).
    std::vector<std::uint32_t> order(v_.waits.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
      return v_.waits[a].task != v_.waits[b].task ? v_.waits[a].task < v_.waits[b].task : v_.waits[a].position < v_.waits[b].position;
    });
    std::vector<WaitInfo> sorted;
    for (auto i : order) {
      sorted.push_back(v_.waits[i]);
      sorted_wait_ends_.push_back(wait_times_[i].second);
    }
    v_.waits = std::move(sorted);
    for (std::uint32_t i = 0; i < v_.waits.size(); ++i) {
      TaskInfo& t = v_.tasks[v_.payload[v_.waits[i].task]];
      if (t.first_wait == kNoWait) t.first_wait = i;
    }
  }

  // A segment after a wait started, in the traced run, when the wait ended.
  void observe_resumes() {
    v_.observed_start.resize(v_.size(), kNoTime);
    v_.observed_end.resize(v_.size(), kNoTime);
    for (std::size_t i = 0; i < v_.waits.size(); ++i)
      if (v_.waits[i].resume != kNoVertex) v_.observed_start[v_.waits[i].resume] = sorted_wait_ends_[i];
  }

  // The replay starts at 0; the run's clock at its first operation. Observed times and ready floors are moved so
  // that 0 is when the first operation that is not the program's own thread (ImplicitTaskInfo: its start is
  // the process's) started: the observed makespan is then the last end, and compares with the estimate.
  void rebase() {
    std::vector<char> external(v_.size(), 0);
    for (VertexId v : v_.outside_work) external[v] = 1;
    TimeNs origin = kNoTime;
    for (VertexId v = 0; v < v_.size(); ++v)
      if (!external[v] && observed_start_[v] != kNoTime && (origin == kNoTime || observed_start_[v] < origin))
        origin = observed_start_[v];
    if (origin == kNoTime) return;
    v_.observed_origin = origin;
    for (auto* times : {&observed_start_, &observed_end_, &observed_ready_, &issued_at_, &sorted_wait_ends_})
      for (TimeNs& t : *times)
        if (t != kNoTime) t = std::max<TimeNs>(0, t - origin);  // earlier (the program's own thread) counts as 0: -1 means unknown
    for (auto& [node, windows] : silences_)
      for (SilentWindow& s : windows) s = {std::max<TimeNs>(0, s.from - origin), std::max<TimeNs>(0, s.to - origin), s.processor};
  }

  // An operation that waits, directly or through pass-through vertices, on an event no record produces: in the
  // traced run it became ready some time after its recorded inputs had fired and it had been launched. That
  // time is kept as a delay after them (docs/legion-prof.md), not as an absolute time: on a faster machine the
  // recorded inputs fire earlier and the operation follows them, as the 2015 traces' unlogged waits keep
  // their duration.
  void external_delays() {
    const VertexId n = v_.size();
    // The edges into each vertex, in one array (CSR): no allocation per vertex on logs of millions of them.
    std::vector<std::uint32_t> first(n + 1, 0);
    for (const Edge& e : edges_) ++first[e.to + 1];
    for (VertexId v = 0; v < n; ++v) first[v + 1] += first[v];
    std::vector<std::pair<VertexId, EdgeKind>> inputs(edges_.size());
    {
      std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
      for (const Edge& e : edges_) inputs[fill[e.to]++] = {e.from, e.kind};
    }
    auto into = [&](VertexId v) {
      return std::span<const std::pair<VertexId, EdgeKind>>(inputs.data() + first[v], first[v + 1] - first[v]);
    };
    // When each vertex fired in the traced run, as far as recorded inputs tell (kNoTime: not known).
    std::vector<TimeNs> fired(n, kNoTime);
    std::vector<std::uint8_t> state(n, 0);  // 0 new, 1 on the stack, 2 done
    std::vector<char> reaches(n, 0);        // it waits, through pass-through vertices, on an unrecorded event
    auto fire_time = [&](VertexId root) {
      std::vector<std::pair<VertexId, std::size_t>> stack{{root, 0}};
      state[root] = 1;
      while (!stack.empty()) {
        auto& [x, next] = stack.back();
        if (passes_through_or_phase(x) && next < into(x).size()) {
          const VertexId y = into(x)[next++].first;
          if (state[y] == 0 && passes_through_or_phase(y)) {
            state[y] = 1;
            stack.push_back({y, 0});
          }
          continue;
        }
        fired[x] = own_fire_time(x, into(x), fired);
        reaches[x] = external_input_[x];
        if (passes_through_or_phase(x))
          for (const auto& [y, kind] : into(x)) reaches[x] |= passes_through_or_phase(y) && reaches[y];
        state[x] = 2;
        stack.pop_back();
      }
    };
    for (VertexId v = 0; v < n; ++v)
      if (state[v] == 0 && passes_through_or_phase(v)) fire_time(v);
    v_.external_delay.assign(n, 0);
    bool any = false;
    for (VertexId v = 0; v < n; ++v) {
      if (passes_through_or_phase(v) || v_.kind[v] == OpKind::barrier_arrive || observed_ready_[v] == kNoTime) continue;
      bool waits_external = external_input_[v] != 0;
      TimeNs known = issued_at_[v] == kNoTime ? 0 : issued_at_[v];
      for (const auto& [u, kind] : into(v)) {
        if (kind == EdgeKind::issue) continue;  // the launch counts by its own time (issued_at_), not its creator's end
        if (passes_through_or_phase(u)) waits_external |= reaches[u] != 0;
        const TimeNs t = passes_through_or_phase(u) ? fired[u] : observed_end_[u];
        if (t != kNoTime) known = std::max(known, t);
      }
      TimeNs delay = std::max<TimeNs>(0, observed_ready_[v] - known);
      // A start-up silence in the delay is the model's processor start-up, not the operation's (work from spans).
      if (auto it = silences_.find(v_.node[v]); it != silences_.end() && delay > 0)
        delay = std::max<TimeNs>(0, delay - silent_overlap(it->second, known, observed_ready_[v]));
      // A long delay with every input recorded is time the run spent that no record explains (a stall of the
      // process, Realm work with no record): kept too, or the replay would make it vanish. Short ones are the
      // runtime's own latency, which the model prices.
      if (!waits_external && delay < kUnexplainedStallNs) continue;
      v_.external_delay[v] = delay;
      any = any || v_.external_delay[v] > 0;
    }
    if (!any) v_.external_delay.clear();
    v_.observed_start = std::move(observed_start_);
    v_.observed_end = std::move(observed_end_);
  }

  // The observed firing of a pass-through vertex or phase from its inputs' (unknown inputs ignored): a merge
  // fires with its last input, a completion queue with its first, a trigger or an arrival when performed and
  // its precondition fired, a phase with its last arrival.
  TimeNs own_fire_time(VertexId x, std::span<const std::pair<VertexId, EdgeKind>> inputs,
                       const std::vector<TimeNs>& fired) const {
    auto input_time = [&](VertexId y) { return passes_through_or_phase(y) ? fired[y] : observed_end_[y]; };
    TimeNs t = kNoTime;
    switch (v_.kind[x]) {
      case OpKind::first_of:
        for (const auto& [y, kind] : inputs)
          if (TimeNs u = input_time(y); u != kNoTime) t = t == kNoTime ? u : std::min(t, u);
        return t;
      case OpKind::trigger:
      case OpKind::barrier_arrive:
      case OpKind::merge:
      case OpKind::barrier_phase:
        t = observed_end_[x];  // a trigger's or an arrival's `performed`; kNoTime for merges and phases
        for (const auto& [y, kind] : inputs)
          if (kind != EdgeKind::issue)
            if (TimeNs u = input_time(y); u != kNoTime) t = t == kNoTime ? u : std::max(t, u);
        return t;
      default: return observed_end_[x];
    }
  }

  bool passes_through_or_phase(VertexId v) const {
    return passes_through(v) || v_.kind[v] == OpKind::barrier_phase || v_.kind[v] == OpKind::barrier_arrive;
  }

  bool passes_through(VertexId v) const {
    const OpKind k = v_.kind[v];
    return k == OpKind::merge || k == OpKind::first_of || k == OpKind::trigger;
  }

  struct Launch {
    VertexId v;
    ProfEvent creator;
    TimeNs at;
  };

  const core::TraceRecords& trace_;
  FindingLog log_;
  std::uint32_t traced_cores_;  // BuildOptions::traced_cores
  std::map<std::uint32_t, std::vector<SilentWindow>> silences_;  // by node: start-up silences, with traced_cores_
  BuildResult out_;
  VertexTable v_;
  std::vector<Edge> edges_;
  std::unordered_map<std::uint64_t, VertexId> producer_;
  std::unordered_set<std::uint64_t> externals_;
  std::vector<TimeNs> observed_start_, observed_end_, observed_ready_;
  std::vector<TimeNs> issued_at_;  // when its creator launched it, as observed
  std::vector<ProfEvent> critical_;
  std::vector<char> external_input_;
  std::vector<std::pair<VertexId, ProfEvent>> inputs_;
  std::vector<Launch> launches_;
  std::vector<VertexId> profiler_;  // profiling responses (ProfTaskInfo) about something not an instance
  std::unordered_map<std::uint64_t, std::pair<ProfEvent, TimeNs>> instance_creation_;  // inst_uid -> creator, create
  std::vector<ProfEvent> wait_events_;
  std::vector<std::pair<TimeNs, TimeNs>> wait_times_;
  std::vector<TimeNs> sorted_wait_ends_;  // by wait once sorted (v_.waits)
  std::vector<Action> actions_;
  std::uint32_t order_ = 0;
};

}  // namespace

BuildResult build_profile_graph(const core::TraceRecords& trace, const BuildOptions& options) {
  return ProfBuilder(trace, options).build();
}

}  // namespace rr::graph
