// The engine: an event queue ordered by (time, vertex, kind), processors with priority queues (groups share
// queues), channel instances with lanes, barrier phases counting arrivals. Contributions to max-joins are applied
// eagerly (max is order-free); only count-based barrier arrivals go through the queue in time order.
#include "replay/replay_engine.hpp"

#include "graph/vertex_counts.hpp"
#include "replay/copy_route.hpp"
#include "replay/event_queue.hpp"
#include "replay/first_segment_queues.hpp"
#include "replay/segment_queue.hpp"
#include "replay/task_timing.hpp"
#include "replay/timing_rules.hpp"
#include "core/saturating.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <queue>
#include <set>
#include <tuple>
#include <unordered_map>

namespace rr::replay {

namespace {

using graph::EdgeKind;
using graph::OpKind;
using graph::VertexId;
using graph::kNoVertex;

struct WaitingTransfer {
  TimeNs ready;
  VertexId vertex;
  bool operator<(const WaitingTransfer& o) const { return ready != o.ready ? ready < o.ready : vertex < o.vertex; }
};

// A heap whose top is the smallest element by operator< (the one to serve first).
template <typename T>
struct Worse {
  bool operator()(const T& a, const T& b) const { return b < a; }
};
template <typename T>
using ServeQueue = std::priority_queue<T, std::vector<T>, Worse<T>>;

// Resources to revisit at the end of an instant, visited in ascending index order (deterministic) without
// the cost of a tree: a flag per resource and a list sorted once per instant.
class DirtySet {
 public:
  void resize(std::size_t n) { flag_.assign(n, 0); }
  void insert(std::uint32_t i) {
    if (i >= flag_.size()) flag_.resize(i + 1, 0);
    if (!flag_[i]) {
      flag_[i] = 1;
      items_.push_back(i);
    }
  }
  template <typename F>
  void drain(F&& visit) {
    while (!items_.empty()) {
      visiting_.swap(items_);  // both keep their capacity: no allocation per instant
      items_.clear();
      std::sort(visiting_.begin(), visiting_.end());
      for (auto i : visiting_) {
        flag_[i] = 0;
        visit(i);
      }
      visiting_.clear();
    }
  }

 private:
  std::vector<char> flag_;
  std::vector<std::uint32_t> items_;
  std::vector<std::uint32_t> visiting_;
};

struct ChannelInstance {
  std::uint32_t channel;
  std::uint32_t node;
  std::uint32_t free_lanes;
  ServeQueue<WaitingTransfer> waiting;
  VertexId last_user = kNoVertex;
  TimeNs busy_ns = 0;
  std::uint64_t transfers = 0;
  std::uint64_t bytes = 0;
};

// A copy's route, 16 bytes: its path is the one of its usage slot (one slot per source kind, destination kind and
// scope, so one path), and its size is read from the graph.
struct CopyPlan {
  static constexpr std::uint32_t kRemoved = ~0u;  // a mapping removed the copy: no path
  std::uint32_t src_node = 0;
  std::uint32_t dst_node = 0;
  std::uint32_t path_slot = kRemoved;  // index into Engine::path_usage_, path_names_ and slot_path_
  std::uint32_t hop = 0;  // the hop in progress
};
static_assert(sizeof(CopyPlan) == 16);

struct PhaseState {
  std::int64_t arrived = 0;
  bool previous_done = false;
  bool fired = false;
};

class Engine {
 public:
  Engine(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
         const ReplayOptions& options)
      : g_(g), map_(map), model_(model), options_(options), n_(g.vertex_count()) {}

  core::Expected<ReplayResult> run() {
    if (auto error = plan_copies()) return *error;
    if (auto error = init()) return *error;
    while (!queue_.empty()) {
      // Everything that happens at one instant is applied first; then idle processors and lanes pick
      // from all that is ready, so priorities decide between work that became ready together.
      now_ = queue_.begin_instant();
      while (queue_.has_present()) {
        const QueuedEvent e = queue_.pop();
        const VertexId v = e.vertex();
        switch (e.type()) {
          case EventType::ready: on_ready(v); break;
          case EventType::fire: on_fire(v); break;
          case EventType::segment_end: on_segment_end(v, e.aux()); break;
          case EventType::hop_end: on_hop_end(v, e.aux()); break;
          case EventType::arrival_effect: on_arrival(v, e.aux()); break;  // aux: the arrive vertex
          // Released by the unrecorded event, after the recorded input that scheduled it (critical path).
          case EventType::floor: contribute(v, now_, r_.released_by[v], Release::observed); break;
        }
      }
      allocate_resources();
    }
    finish();
    return std::move(r_);
  }

 private:
  // ---- set-up ----------------------------------------------------------------------------

  std::optional<core::InputError> plan_copies() {
    copies_.resize(g_.copy_count());
    for (VertexId v = 0; v < n_; ++v) {
      if (g_.kind(v) != OpKind::copy) continue;
      const graph::CopyInfo& c = g_.copy(v);
      const CopyRoute route = copy_route(g_, map_, v);
      const MemoryPlace& src = route.src;
      const MemoryPlace& dst = route.dst;
      const bool remote = route.remote;
      CopyPlan& plan = plan_of(v);
      plan.src_node = route.src_node;
      plan.dst_node = route.dst_node;
      r_.copies_retargeted += route.retargeted;
      if (route.removed) {  // it would move the data to where it already is: no path, no time
        ++r_.copies_removed;
        continue;
      }
      const machine::CopyPath* path = model_.path(src.kind, dst.kind, remote);
      if (path == nullptr)
        return core::InputError{core::SourceLocation{model_.source, 0, std::nullopt},
                              "machine '" + model_.name + "' has no [[paths]] entry for copies " + route_name(route) +
                                  ", needed by copy " + core::to_string(g_.event(v))};
      if (c.bytes == graph::kNoValue) ++r_.copies_default_size;
      // One usage slot per distinct (source kind, destination kind, scope); its name is built once.
      auto [slot, fresh] = path_slot_of_.try_emplace(std::make_tuple(src.kind, dst.kind, remote),
                                                     static_cast<std::uint32_t>(path_usage_.size()));
      if (fresh) {
        path_usage_.push_back({});
        path_names_.push_back(route_name(route));
        slot_path_.push_back(path);
      }
      plan.path_slot = slot->second;
    }
    return std::nullopt;
  }

  std::optional<core::InputError> init() {
    r_.times.reset(n_);
    r_.released_by.assign(n_, kNoVertex);
    pending_.reset(n_);
    r_.noise = {options_.perturb_sigma, options_.perturb_seed};
    r_.release.assign(n_, Release::none);
    r_.processor_of.assign(n_, ~0u);
    r_.processors.assign(map_.processors().size(), {});
    phase_.resize(g_.phase_count());
    proc_busy_.assign(map_.processors().size(), false);
    proc_held_by_.assign(map_.processors().size(), kNoVertex);
    proc_last_.assign(map_.processors().size(), kNoVertex);
    proc_queues_.resize(map_.processors().size());
    proc_available_.assign(map_.processors().size(), 0);
    if (g_.has_external_delays()) external_pending_.assign(n_, 0);

    // Inputs counted along the forward edges (the replay does not need the graph's reverse CSR). A phase
    // waits only for the phase before it; its arrivals count through arrival_effect events.
    for (VertexId v = 0; v < n_; ++v) {
      auto succ = g_.successors(v);
      auto kinds = g_.successor_kinds(v);
      for (std::size_t i = 0; i < succ.size(); ++i)
        if (kinds[i] == EdgeKind::phase_order || g_.kind(succ[i]) != OpKind::barrier_phase) pending_.add_one(succ[i]);
    }
    for (VertexId v = 0; v < n_; ++v) {
      std::uint32_t count = pending_.get(v);
      // A completion queue fires on its first input: one input is all it waits for (later ones are ignored).
      if (g_.kind(v) == OpKind::first_of) count = std::min<std::uint32_t>(count, 1);
      // An input no record produces: it fires EventGraph::external_delay after the others (Legion Prof logs).
      if (g_.external_delay(v) > 0) {
        ++count;
        external_pending_[v] = 1;
      }
      pending_.set(v, count);
      if (count == 1 && waits_unrecorded(v)) schedule_external(v);
      if (g_.kind(v) == OpKind::task)
        if (auto error = assign_queue(v)) return error;
    }
    mark_outside_estimate();
    for (VertexId v = 0; v < n_; ++v)
      if (pending_.get(v) == 0) become_ready(v, 0);
    return std::nullopt;
  }

  // Tasks without Task Time, and every operation after them, are left out of the estimate (ReplayResult).
  void mark_outside_estimate() {
    std::vector<VertexId> todo;
    for (VertexId v = 0; v < n_; ++v)
      if (g_.kind(v) == OpKind::task && g_.task(v).time_ns == graph::kNoTime) {
        ++r_.tasks_without_time;
        todo.push_back(v);
      }
    for (VertexId v : g_.outside_work()) {
      ++r_.outside_work;
      todo.push_back(v);
    }
    if (todo.empty()) return;
    r_.outside_estimate.assign(n_, 0);
    for (VertexId v : todo) r_.outside_estimate[v] = 1;
    // What waits on them is after them; what they issued before they ended is not (it ran on its own).
    while (!todo.empty()) {
      const VertexId v = todo.back();
      todo.pop_back();
      auto succ = g_.successors(v);
      auto kinds = g_.successor_kinds(v);
      for (std::size_t i = 0; i < succ.size(); ++i) {
        const VertexId w = succ[i];
        if (kinds[i] == EdgeKind::issue || r_.outside_estimate[w]) continue;
        r_.outside_estimate[w] = 1;
        if (kinds[i] != EdgeKind::continuation) ++r_.after_untimed;  // a later segment is the same task
        todo.push_back(w);
      }
    }
  }

  // The measured duration of the wait before resume segment v when no record produces its event.
  TimeNs unlogged_wait(VertexId v) const {
    const graph::WaitInfo& w = g_.resume_wait(v);
    if (w.awaited != kNoVertex || options_.unlogged == UnloggedTime::instant) return 0;
    return timing_.perturbed(w.wait_ns, v);
  }

  // A task's first segment waits in a queue served by the model processors it may run on (placement and
  // function moves, MachineMap::targets); under eft the queue is chosen when it becomes ready. Its later
  // segments resume on the processor it started on.
  std::optional<core::InputError> assign_queue(VertexId v) {
    const graph::TaskInfo& t = g_.task(v);
    const bool eft = map_.placement() == machine::Placement::eft;
    if (!eft && first_queues_.find(t.func_id, t.processor.value()) != FirstSegmentQueues::kMissing) return std::nullopt;
    const auto& targets = eft ? map_.candidates(t.func_id, t.processor.value()) : map_.targets(t.func_id, t.processor.value());
    if (targets.empty()) {
      const core::ProcessorKind kind = map_.task_kind(t.func_id, t.processor.value());
      return core::InputError{core::SourceLocation{model_.source, 0, std::nullopt},
                              "task " + core::to_string(g_.event(v)) + " (function " + std::to_string(t.func_id) +
                                  ") needs a " + std::string(core::processor_kind_name(kind)) +
                                  " processor but machine '" + model_.name + "' has no " +
                                  std::string(core::processor_kind_name(kind)) + " processor on model node " +
                                  std::to_string(v < n_ ? map_.fold(g_.node(v)) : 0)};
    }
    if (!eft) first_queues_.insert(t.func_id, t.processor.value(), queue_for(targets));
    return std::nullopt;
  }

  // The queue served by processor p alone (resumes, eft), found without building a key.
  std::uint32_t queue_of_processor(std::uint32_t p) {
    if (single_queue_.empty()) single_queue_.assign(map_.processors().size(), ~0u);
    if (single_queue_[p] == ~0u) single_queue_[p] = queue_for_content({p});
    return single_queue_[p];
  }

  // MachineMap keeps each target list in one place for its lifetime, so most tasks find their queue by the
  // list's address; the list's content, compared in a tree, names the queue the first time.
  std::uint32_t queue_for(const std::vector<std::uint32_t>& targets) {
    auto [known, first_time] = queue_at_address_.try_emplace(&targets, 0);
    if (first_time) known->second = queue_for_content(targets);
    return known->second;
  }

  std::uint32_t queue_for_content(const std::vector<std::uint32_t>& targets) {
    auto [it, fresh] = queue_of_targets_.try_emplace(targets, static_cast<std::uint32_t>(queues_.size()));
    if (fresh) {
      queues_.push_back({});
      queue_members_.push_back(targets);
      for (auto p : targets) proc_queues_[p].push_back(it->second);
    }
    return it->second;
  }

  // Under eft: the candidate processor where the task would finish first, from an estimate of when each is free
  // (the work already sent to it); ties go to the earlier candidate (its traced kind first, then by index).
  std::uint32_t earliest_finish(VertexId task) {
    const graph::TaskInfo& t = g_.task(task);
    const auto& candidates = map_.candidates(t.func_id, t.processor.value());
    std::uint32_t best = candidates.front();
    TimeNs best_finish = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const std::uint32_t p = candidates[i];
      const core::ProcessorKind kind = map_.processors()[p].kind;
      const TimeNs finish = std::max(now_, proc_available_[p]) + timing_.launch_ns(true, kind) + timing_.task_busy(task, kind);
      if (i == 0 || finish < best_finish) {
        best = p;
        best_finish = finish;
      }
    }
    proc_available_[best] = best_finish;
    return best;
  }

  // Every time the engine schedules is held at the ceiling (core/saturating.hpp): each is the current time or
  // a held time plus held durations and bounded machine costs, which cannot overflow before it is held here.
  // Nothing is scheduled before the present: every delay is non-negative.
  void push(TimeNs t, VertexId v, EventType type, std::uint32_t aux = 0) {
    assert(t >= now_);
    queue_.push({core::held(t), v, type, aux});
  }

  // ---- timing rules ---------------------------------------------------------------------

  TimeNs edge_delay(VertexId u, VertexId v, EdgeKind kind) const { return edge_delay_ns(g_, map_, model_, u, v, kind); }

  // Applies one input to v arriving at time t from u; schedules v when its last input is in.
  void contribute(VertexId v, TimeNs t, VertexId from, Release why) {
    t = core::held(t);
    if (pending_.get(v) == 0) return;  // a completion queue already fired on an earlier input
    // The latest input releases v; among equal times the lowest vertex id, for determinism.
    TimeNs& ready = r_.times.ready_until_start(v);
    VertexId& released_by = r_.released_by[v];
    if (released_by == kNoVertex || t > ready || (t == ready && from < released_by)) {
      ready = std::max(ready, t);
      released_by = from;
      r_.release[v] = why;
    }
    const std::uint32_t left = pending_.take_one(v);
    if (left == 0) become_ready(v, ready);
    else if (left == 1 && waits_unrecorded(v)) schedule_external(v);
  }

  // The runtime's own operations (merges, triggers, arrivals...) need no resource: they start when ready and
  // fire a fixed time later, so their fire event is scheduled at once and the ready event is skipped (a fifth
  // of the operations on S3D traces). The events pop in the same order as with a ready event first: a
  // ready(t, v) would pop where fire(t, v) does (nothing else is queued at t for such a v) and its own
  // fire(t + cost, v) has the key that is pushed here.
  void become_ready(VertexId v, TimeNs at) {
    if (const TimeNs cost = runtime_cost(g_.kind(v)); cost >= 0) {
      r_.times.start_at(v, at);
      push(core::saturating_add(at, cost), v, EventType::fire);
    } else {
      // A task's attributes are read when its ready event pops (enqueue_segment): loaded from here on, beside this
      // input's other misses, rather than alone then.
      if (g_.kind(v) == OpKind::task) __builtin_prefetch(&g_.task_at(g_.payload(v)));
      push(at, v, EventType::ready);
    }
  }
  // How long a runtime operation takes from ready to fired; -1 for the other kinds (on_ready).
  TimeNs runtime_cost(OpKind kind) const {
    switch (kind) {
      case OpKind::merge: return model_.runtime.merge_ns;
      case OpKind::first_of:
      case OpKind::trigger:
      case OpKind::barrier_alter: return 0;
      case OpKind::barrier_arrive: return model_.runtime.barrier_arrival_ns;
      default: return -1;
    }
  }

  // Every recorded input of v is in: its unrecorded one fires its measured delay after the last of them.
  void schedule_external(VertexId v) {
    external_pending_[v] = 0;
    push(core::saturating_add(r_.times.ready_before_start(v), g_.external_delay(v)), v, EventType::floor);
  }

  // ---- tasks ----------------------------------------------------------------------------

  void enqueue_segment(VertexId v) {
    VertexId task = g_.task_of(v);
    // A task that keeps its processor through a wait resumes there at once.
    // Every segment of a task runs on the processor its first segment ran on, so that is the one it can hold.
    if (g_.kind(v) == OpKind::task_resume && !model_.wait_frees_processor) {
      const std::uint32_t p = r_.processor_of[task];
      if (p < proc_held_by_.size() && proc_held_by_[p] == task) {
        proc_held_by_[p] = kNoVertex;
        start_segment(p, v);
        return;
      }
    }
    const std::uint32_t payload = g_.payload(task);
    const graph::TaskInfo& info = g_.task_at(payload);
    std::uint32_t q;
    if (g_.kind(v) == OpKind::task_resume) {
      q = queue_of_processor(r_.processor_of[task]);
    } else if (map_.placement() == machine::Placement::eft) {
      q = queue_of_processor(earliest_finish(task));
    } else {
      q = first_queues_.find(info.func_id, info.processor.value());
    }
    TimeNs order = r_.times.ready_before_start(v);
    if (options_.queue_order == QueueOrder::observed && g_.observed_start(v) != graph::kNoTime) order = g_.observed_start(v);
    queues_[q].push({info.priority, payload, order, v});
    // Only an idle processor can take it at the end of this instant; a busy one looks at its queues when its
    // segment ends (on_segment_end), a held one never before its task resumes.
    for (auto p : queue_members_[q])
      if (!proc_busy_[p] && proc_held_by_[p] == kNoVertex) dirty_procs_.insert(p);
  }

  // End of an instant: idle processors (lowest index first) take their best queued segment,
  // idle lanes their earliest transfer. Starting work can only create events at now_ or later.
  void allocate_resources() {
    dirty_procs_.drain([&](std::uint32_t p) { dispatch(p); });
    dirty_instances_.drain([&](std::uint32_t inst) {
      ChannelInstance& ci = instances_[inst];
      while (ci.free_lanes > 0 && !ci.waiting.empty()) {
        VertexId next = ci.waiting.top().vertex;
        ci.waiting.pop();
        start_hop(next, inst);
      }
    });
  }

  void dispatch(std::uint32_t p) {
    if (proc_busy_[p] || proc_held_by_[p] != kNoVertex) return;
    const WaitingSegment* best = nullptr;
    std::uint32_t best_queue = 0;
    for (auto q : proc_queues_[p]) {
      if (queues_[q].empty()) continue;
      const WaitingSegment& head = queues_[q].top();
      if (!best || head.before(*best)) {
        best = &head;
        best_queue = q;
      }
    }
    if (!best) return;
    VertexId v = best->vertex;
    SegmentQueue& queue = queues_[best_queue];
    queue.pop();
    // The new head is likely the next segment this queue starts, after many other events: its attributes,
    // kind, out-edge offsets and ready time are loaded now, while the processor is busy, rather than when it starts.
    if (!queue.empty()) {
      const WaitingSegment& next = queue.top();
      __builtin_prefetch(&g_.task_at(next.task_payload));
      g_.prefetch_vertex(next.vertex);
      r_.times.prefetch(next.vertex);
    }
    start_segment(p, v);
  }

  void start_segment(std::uint32_t p, VertexId v) {
    const bool first = g_.kind(v) == OpKind::task;
    VertexId task = g_.task_of(v);
    if (now_ > r_.times.ready_before_start(v) && proc_last_[p] != kNoVertex) {
      // It waited for the processor: the previous occupant released it (critical path: queueing).
      r_.released_by[v] = proc_last_[p];
      r_.release[v] = Release::resource;
    }
    if (first) {
      const graph::TaskInfo& info = g_.task(task);
      if (info.time_ns != graph::kNoTime && info.time_ns < timing_.total_wait_ns(task)) ++r_.clamped_waits;
    }
    const Issuing running = timing_.segment(v, task, now_, p);
    r_.times.start_at(v, now_);
    r_.processor_of[v] = p;
    proc_busy_[p] = true;
    proc_last_[p] = v;
    issue_actions(v, running);
    const TimeNs end = running.run_start + (running.shape.end - running.shape.begin);
    r_.processors[p].busy_ns = core::saturating_add(r_.processors[p].busy_ns, end - now_);
    ++r_.processors[p].segments;
    if (options_.record_intervals) r_.intervals.push_back({p, v, now_, end});
    push(end, v, EventType::segment_end, p);
  }

  // The actions segment (or background operation) v issues, each when its running work reaches it
  // and the issue crosses to the action's node (TaskTiming::issue_arrival).
  void issue_actions(VertexId v, const Issuing& running) {
    auto succ = g_.successors(v);
    auto kinds = g_.successor_kinds(v);
    for (std::size_t i = 0; i < succ.size(); ++i) {
      if (kinds[i] != EdgeKind::issue) continue;
      contribute(succ[i], timing_.issue_arrival(running, v, succ[i]), v, Release::issue);
    }
  }

  void on_segment_end(VertexId v, std::uint32_t p) {
    proc_busy_[p] = false;
    const bool last = [&] {
      for (auto k : g_.successor_kinds(v))
        if (k == EdgeKind::continuation) return false;
      return true;
    }();
    if (!last && !model_.wait_frees_processor) proc_held_by_[p] = g_.task_of(v);
    on_fire(v);
    dirty_procs_.insert(p);
  }

  // ---- copies ---------------------------------------------------------------------------

  // Channel instances are numbered in order of first use here (a flat table finds them); the result lists them by
  // channel and node (list_channels_and_intervals).
  std::uint32_t instance(std::uint32_t channel, std::uint32_t node) {
    const std::size_t key = std::size_t{channel} * map_.model_nodes() + node;
    if (instance_of_.size() <= key) instance_of_.resize(key + 1, ~0u);
    if (instance_of_[key] == ~0u) {
      instance_of_[key] = static_cast<std::uint32_t>(instances_.size());
      instances_.push_back({channel, node, model_.channels[channel].lanes, {}, kNoVertex});
    }
    return instance_of_[key];
  }

  void request_hop(VertexId c) {
    CopyPlan& plan = plan_of(c);
    const std::uint32_t channel = path_of(plan).hops[plan.hop];
    const std::uint32_t inst = instance(channel, model_.channels[channel].destination_side ? plan.dst_node : plan.src_node);
    instances_[inst].waiting.push({now_, c});
    dirty_instances_.insert(inst);
  }

  void start_hop(VertexId c, std::uint32_t inst) {
    ChannelInstance& ci = instances_[inst];
    CopyPlan& plan = plan_of(c);
    --ci.free_lanes;
    if (plan.hop == 0) {
      const TimeNs ready = r_.times.ready_before_start(c);
      r_.times.start_at(c, now_);
      if (now_ > ready && ci.last_user != kNoVertex) {
        r_.released_by[c] = ci.last_user;
        r_.release[c] = Release::resource;
      }
    }
    ci.last_user = c;
    const TimeNs duration = timing_.perturbed(model_.transfer_ns(model_.channels[ci.channel], bytes_of(c)), c);
    if (options_.record_intervals)
      r_.intervals.push_back({static_cast<std::uint32_t>(map_.processors().size()) + inst, c, now_, now_ + duration});
    ci.busy_ns = core::saturating_add(ci.busy_ns, duration);
    ci.transfers += 1;
    ci.bytes += bytes_of(c);
    push(now_ + duration, c, EventType::hop_end, inst);
  }

  void on_hop_end(VertexId c, std::uint32_t inst) {
    ++instances_[inst].free_lanes;
    dirty_instances_.insert(inst);
    CopyPlan& plan = plan_of(c);
    if (++plan.hop < path_of(plan).hops.size()) {
      request_hop(c);
      return;
    }
    PathUsage& usage = path_usage_[plan.path_slot];
    ++usage.copies;
    usage.bytes += bytes_of(c);
    usage.time_ns = core::saturating_add(usage.time_ns, now_ - r_.times.ready(c));
    on_fire(c);
  }

  // ---- barriers -------------------------------------------------------------------------

  // A phase fires once its arrivals reach the required count, never before the previous phase.
  void try_fire_phase(VertexId p, VertexId because, Release why) {
    PhaseState& s = phase_of(p);
    if (s.fired || !s.previous_done || s.arrived < g_.phase(p).required) return;
    s.fired = true;
    r_.times.ready_until_start(p) = now_;
    r_.times.start_at(p, now_);  // a phase takes no time: waiting for its arrivals is the arrivals' and the edges' time
    r_.released_by[p] = because;
    r_.release[p] = because == kNoVertex ? Release::none : why;
    push(now_, p, EventType::fire);
  }

  void on_arrival(VertexId phase, VertexId arrive) {
    phase_of(phase).arrived += g_.barrier_value(arrive);
    try_fire_phase(phase, arrive, Release::input);
  }

  // ---- readiness and firing -------------------------------------------------------------

  void on_ready(VertexId v) {
    if (r_.release[v] == Release::none && r_.released_by[v] == kNoVertex) r_.times.ready_until_start(v) = now_;
    switch (g_.kind(v)) {
      case OpKind::task:
      case OpKind::task_resume: enqueue_segment(v); break;
      case OpKind::copy:
        if (plan_of(v).path_slot != CopyPlan::kRemoved) request_hop(v);
        else {  // removed by a mapping (copy_route): done at once
          r_.times.start_at(v, now_);
          push(now_, v, EventType::fire);
        }
        break;
      case OpKind::background: {
        // Realm's own background work (dependent partitioning) holds no modelled processor.
        // What it launched (a profiling response triggers events) happens where in its time the run saw it.
        const Issuing running = timing_.background(v, now_);
        r_.times.start_at(v, now_);
        issue_actions(v, running);
        push(now_ + running.busy, v, EventType::fire);
        break;
      }
      case OpKind::merge:
      case OpKind::first_of:
      case OpKind::trigger:
      case OpKind::barrier_alter:
      case OpKind::barrier_arrive: break;  // never queued as ready (become_ready)
      case OpKind::barrier_phase: {
        PhaseState& s = phase_of(v);
        s.previous_done = true;
        try_fire_phase(v, r_.released_by[v], Release::input);
        break;
      }
    }
  }

  void on_fire(VertexId v) {
    r_.times.end_at(v, now_);  // and starts it then, if nothing did
    ++r_.operations;
    r_.last_end_ns = std::max(r_.last_end_ns, now_);
    if (r_.counts(v)) r_.makespan_ns = std::max(r_.makespan_ns, now_);
    auto succ = g_.successors(v);
    auto kinds = g_.successor_kinds(v);
    for (std::size_t i = 0; i < succ.size(); ++i) {
      const VertexId w = succ[i];
      switch (kinds[i]) {
        case EdgeKind::issue: break;  // issued when the segment started
        case EdgeKind::arrival:
          // Arrivals count in time order, so they go through the queue; alters only set the count.
          if (g_.kind(v) == OpKind::barrier_arrive)
            push(now_ + edge_delay(v, w, EdgeKind::arrival), w, EventType::arrival_effect, v);
          break;
        case EdgeKind::continuation: {
          const TimeNs waited = unlogged_wait(w);
          if (waited > 0) {
            ++r_.measured_waits;
            r_.measured_wait_ns = core::saturating_add(r_.measured_wait_ns, waited);
          }
          contribute(w, now_ + edge_delay(v, w, kinds[i]) + waited, v, Release::input);
          break;
        }
        case EdgeKind::precondition: {
          const TimeNs copy = implied_copy_ns(g_, map_, model_, r_, v, w);
          if (copy > 0) {
            ++r_.implied_copies;
            r_.implied_copy_ns = core::saturating_add(r_.implied_copy_ns, copy);
          }
          contribute(w, now_ + edge_delay(v, w, kinds[i]) + copy, v, Release::input);
          break;
        }
        default: contribute(w, now_ + edge_delay(v, w, kinds[i]), v, Release::input); break;
      }
    }
  }

  // ---- the end --------------------------------------------------------------------------

  void finish() {
    for (std::size_t slot = 0; slot < path_usage_.size(); ++slot)
      if (path_usage_[slot].copies) r_.paths[path_names_[slot]] = path_usage_[slot];
    list_channels_and_intervals();
    std::vector<VertexId> examples;
    for (VertexId v = 0; v < n_; ++v) {
      if (r_.times.ended(v)) continue;
      ++r_.stuck;
      if (examples.size() < options_.stuck_examples) examples.push_back(v);
    }
    const std::vector<std::vector<InEdge>> inputs = inputs_of(examples);
    for (std::size_t i = 0; i < examples.size(); ++i)
      r_.stuck_examples.push_back({examples[i], why_stuck(examples[i], inputs[i])});
    pending_.release();
  }

  // Channel instances are listed by (channel, node), and timeline intervals by (start, track, vertex): orders
  // that do not depend on which instance a replay happened to use first, so any engine that replays the same
  // schedule lists them alike. Instance i's track is processors().size() + its place in that list.
  void list_channels_and_intervals() {
    std::vector<std::uint32_t> order(instances_.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return std::tie(instances_[a].channel, instances_[a].node) < std::tie(instances_[b].channel, instances_[b].node);
    });
    std::vector<std::uint32_t> place(instances_.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) {
      const ChannelInstance& ci = instances_[order[i]];
      place[order[i]] = i;
      r_.channels.push_back({ci.channel, ci.node, ci.busy_ns, ci.transfers, ci.bytes});
    }
    const auto processors = static_cast<std::uint32_t>(map_.processors().size());
    for (Interval& in : r_.intervals)
      if (in.track >= processors) in.track = processors + place[in.track - processors];
    std::sort(r_.intervals.begin(), r_.intervals.end(), [](const Interval& a, const Interval& b) {
      return std::tie(a.start, a.track, a.vertex) < std::tie(b.start, b.track, b.vertex);
    });
  }

  struct InEdge {
    VertexId from;
    EdgeKind kind;
  };
  // The in-edges of a few vertices (ascending), in order of their sources: one pass along the forward edges,
  // rather than the graph's reverse CSR, which a replay does not otherwise need.
  std::vector<std::vector<InEdge>> inputs_of(const std::vector<VertexId>& vertices) const {
    std::vector<std::vector<InEdge>> inputs(vertices.size());
    if (vertices.empty()) return inputs;
    for (VertexId u = 0; u < n_; ++u) {
      auto succ = g_.successors(u);
      auto kinds = g_.successor_kinds(u);
      for (std::size_t i = 0; i < succ.size(); ++i)
        if (auto at = std::lower_bound(vertices.begin(), vertices.end(), succ[i]); at != vertices.end() && *at == succ[i])
          inputs[static_cast<std::size_t>(at - vertices.begin())].push_back({u, kinds[i]});
    }
    return inputs;
  }

  std::string why_stuck(VertexId v, const std::vector<InEdge>& inputs) const {
    std::string what = std::string(graph::op_kind_name(g_.kind(v))) + " " + core::to_string(g_.event(v));
    if (g_.kind(v) == OpKind::barrier_phase) {
      const PhaseState& s = phase_of(v);
      if (!s.previous_done) return what + ": the previous phase never completed";
      return what + ": needs " + std::to_string(g_.phase(v).required) + " arrivals, got " + std::to_string(s.arrived);
    }
    // The input that never came: of the inputs (the lowest first), one that is not its issue, else its issuer
    // that never started.
    for (const bool issue : {false, true})
      for (const InEdge& in : inputs)
        if ((in.kind == EdgeKind::issue) == issue && !r_.times.ended(in.from) && (!issue || !r_.times.started(in.from)))
          return what + ": waits on " + graph::op_kind_name(g_.kind(in.from)) + " " + core::to_string(g_.event(in.from)) +
                 " (" + graph::edge_kind_name(in.kind) + "), which never completed";
    if (pending_.get(v) == 0) return what + ": ready but its processor was held by a waiting task";
    return what + ": never became ready";
  }

  const graph::EventGraph& g_;
  const MachineMap& map_;
  const machine::MachineModel& model_;
  const ReplayOptions& options_;
  const std::uint32_t n_;
  const TaskTiming timing_{g_, map_, model_, {options_.perturb_sigma, options_.perturb_seed}};
  ReplayResult r_;
  TimeNs now_ = 0;
  EventQueue queue_;
  // Inputs each vertex still waits for. Its ready time and releaser are written in place in the result
  // (ReplayResult::times, released_by), so that the end of the run makes no second copy of them.
  graph::VertexCounts pending_;
  // Per copy and per phase, indexed by the vertex's payload (EventGraph::copy_count): a copy is one vertex in
  // nine, a phase one in two hundred, so a slot per vertex would be mostly empty and spread the hot state.
  std::vector<PhaseState> phase_;
  std::vector<CopyPlan> copies_;
  CopyPlan& plan_of(VertexId copy) { return copies_[g_.payload(copy)]; }
  const machine::CopyPath& path_of(const CopyPlan& plan) const { return *slot_path_[plan.path_slot]; }
  std::uint64_t bytes_of(VertexId copy) const { return copy_bytes(g_.copy(copy), model_); }
  PhaseState& phase_of(VertexId phase) { return phase_[g_.payload(phase)]; }
  const PhaseState& phase_of(VertexId phase) const { return phase_[g_.payload(phase)]; }
  std::map<std::tuple<core::MemoryKind, core::MemoryKind, bool>, std::uint32_t> path_slot_of_;
  std::vector<PathUsage> path_usage_;
  std::vector<std::string> path_names_;
  std::vector<const machine::CopyPath*> slot_path_;
  // processors
  std::vector<bool> proc_busy_;
  std::vector<VertexId> proc_held_by_;
  std::vector<VertexId> proc_last_;
  std::vector<std::vector<std::uint32_t>> proc_queues_;  // queues each processor serves
  std::vector<SegmentQueue> queues_;
  std::vector<std::vector<std::uint32_t>> queue_members_;
  std::map<std::vector<std::uint32_t>, std::uint32_t> queue_of_targets_;
  std::unordered_map<const std::vector<std::uint32_t>*, std::uint32_t> queue_at_address_;
  std::vector<std::uint32_t> single_queue_;  // queue_of_processor, ~0u until first asked
  // The queue a task's first segment waits in, by its function and traced processor (not under eft, which picks
  // a processor when the task becomes ready).
  FirstSegmentQueues first_queues_;
  // v waits on an unrecorded event not yet scheduled (schedule_external); empty when the graph has none.
  std::vector<char> external_pending_;
  bool waits_unrecorded(VertexId v) const { return !external_pending_.empty() && external_pending_[v]; }
  std::vector<TimeNs> proc_available_;  // eft: when each processor is expected to be free
  DirtySet dirty_procs_;      // processors to offer work to at the end of this instant
  DirtySet dirty_instances_;  // channel instances likewise
  // channels
  std::vector<ChannelInstance> instances_;
  std::vector<std::uint32_t> instance_of_;  // (channel * model nodes + node) -> instance, ~0u if unused
};

}  // namespace

const char* unlogged_time_name(UnloggedTime u) { return u == UnloggedTime::measured ? "measured" : "instant"; }
const char* queue_order_name(QueueOrder o) { return o == QueueOrder::observed ? "observed" : "ready"; }

core::Expected<ReplayResult> run_replay(const graph::EventGraph& g, const MachineMap& map,
                                      const machine::MachineModel& model, const ReplayOptions& options) {
  return Engine(g, map, model, options).run();
}

}  // namespace rr::replay
