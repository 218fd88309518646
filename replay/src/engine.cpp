#include "replay/src/engine.hpp"

#include <algorithm>
#include <cassert>
#include <map>
#include <unordered_map>
#include <vector>

#include "core/saturating.hpp"
#include "replay/core_share.hpp"
#include "replay/event_queue.hpp"
#include "replay/first_segment_queues.hpp"
#include "replay/segment_queue.hpp"
#include "replay/src/block_protocol.hpp"
#include "replay/src/channel_instance.hpp"
#include "replay/src/dirty_set.hpp"
#include "replay/src/processor_state.hpp"
#include "replay/task_timing.hpp"
#include "replay/timing_rules.hpp"

namespace rr::replay {

namespace {

using graph::EdgeKind;
using graph::OpKind;
using graph::VertexId;
using graph::kNoVertex;

// A hop_end event's aux: the channel instance whose lane it frees, marked when another block goes on with the
// copy; or kGoOn | the hop that ended, the event of the block that goes on with it. The hop travels with the
// event because blocks on other processes do not share the copy's plan (instances stay below 2^30).
constexpr std::uint32_t kLaneOnly = 1u << 31;
constexpr std::uint32_t kGoOn = 3u << 30;
constexpr bool goes_on(std::uint32_t aux) { return (aux & kGoOn) == kGoOn; }

// The engine (engine.hpp). Its members are defined in the class, in this one file: see Engine for why.
class EventEngine final : public Engine {
 public:
  EventEngine(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
              const ReplayOptions& options, SharedState& shared, BlockLink* link)
      : g_(g), map_(map), model_(model), options_(options), n_(g.vertex_count()), r_(shared.r), ops_(shared.r.ops),
        phase_(shared.phase), copies_(shared.copies), link_(link) {}

  std::optional<std::pair<VertexId, core::InputError>> init_block() override {
    procs_.assign(map_.processors().size(), {});
    proc_available_.assign(map_.processors().size(), 0);
    share_.configure(map_.model_nodes(), model_.node.cores, model_.runtime.starts_up());
    start_ups_by_node_.assign(model_.runtime.starts_up() ? map_.model_nodes() : 0, 0);
    // An issue's time depends on more than its issuer's start: the engine keeps it for the critical path, in the
    // array init_shared sized before any block ran (each block writes the actions its own work issues).
    assert(!share_.enabled() || r_.issued_at.size() == n_);
    path_usage_.assign(copies_.path_names.size(), {});
    for (VertexId v = 0; v < n_; ++v) {
      if (!owned(v)) continue;
      if (ops_.pending(v) == 1 && ops_.waits_unrecorded(v)) schedule_external(v);
      if (g_.kind(v) == OpKind::task)
        if (auto error = assign_queue(v)) return std::pair{v, *error};
    }
    for (VertexId v = 0; v < n_; ++v)
      if (owned(v) && ops_.pending(v) == 0) become_ready(v, 0);
    return std::nullopt;
  }

  void run_alone() override {
    if (options_.stop_after_ns == kNoStop) {
      while (!queue_.empty()) run_round();
      return;
    }
    run_until_stop();
  }

  // One round: the events of one instant (those the last round queued for it, when it was the same instant),
  // then idle processors and lanes pick from all that is ready, so priorities decide between work that became
  // ready together. Rounds are counted within an instant: lanes given out in round k never see the requests of
  // round k + 1, so a block that gives out lanes late (run_deferred) keeps the round of every request.
  void run_round() override {
    const TimeNs t = queue_.begin_instant();
    round_ = (t == now_ && began_) ? round_ + 1 : 1;
    began_ = true;
    now_ = t;
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
        case EventType::floor: contribute(v, now_, ops_.released_by(v), Release::observed); break;
        case EventType::core_due: on_core_due(e.aux()); break;
      }
    }
    allocate_resources();
  }

  BlockOutput take_output() override {
    return {std::move(t_), std::move(instances_), std::move(path_usage_)};
  }

  // ---- what the split protocol asks of a block's engine (BlockLink) -------------------

  bool has_events() const override { return !queue_.empty(); }
  TimeNs next_event_time() override {
    return queue_.empty() ? kNoTime : queue_.has_present() ? now_ : queue_.next_time();
  }
  bool before_next_round(TimeNs t, std::uint32_t round) override {
    return t < next_event_time() || (t == now_ && queue_.has_present() && round <= round_);
  }
  bool began() const override { return began_; }
  TimeNs now() const override { return now_; }

  void contribute(VertexId v, TimeNs t, VertexId from, Release why) override {
    t = core::held(t);
    // Another block's operation: that block applies the input (no earlier than t - lookahead).
    if (link_ && link_->owner(v) != link_->me()) {
      link_->send(link_->owner(v), {t, v, from, static_cast<std::uint32_t>(why), Mail::Kind::contribute}, now_);
      return;
    }
    if (ops_.pending(v) == 0) return;  // a completion queue already fired on an earlier input
    ops_.raise_ready(v, t, from, why);
    const std::uint32_t left = ops_.take_pending(v);
    if (left == 0) become_ready(v, ops_.ready_before_start(v));
    else if (left == 1 && ops_.waits_unrecorded(v)) schedule_external(v);
  }

  // Every time the engine schedules is held at the ceiling (core/saturating.hpp): each is the current time or
  // a held time plus held durations and bounded machine costs, which cannot overflow before it is held here.
  // Nothing is scheduled before the present: every delay is non-negative.
  void push(TimeNs t, VertexId v, EventType type, std::uint32_t aux = 0) override {
    assert(t >= now_);
    queue_.push({core::held(t), v, type, aux});
  }

  // Channel instances are numbered in order of first use here (a flat table finds them); the result lists them by
  // channel and node (assemble_result).
  std::uint32_t instance(std::uint32_t channel, std::uint32_t node) override {
    const std::size_t key = std::size_t{channel} * map_.model_nodes() + node;
    if (instance_of_.size() <= key) instance_of_.resize(key + 1, ~0u);
    if (instance_of_[key] == ~0u) {
      assert(instances_.size() < (1u << 30));  // hop_end's aux marks take the top two bits
      instance_of_[key] = static_cast<std::uint32_t>(instances_.size());
      instances_.push_back({channel, node, model_.channels[channel].lanes,
                            link_ != nullptr && link_->shared_instance(key), {}});
    }
    return instance_of_[key];
  }

  void change_lanes(const Deferred& d) override {
    ChannelInstance& ci = instances_[d.inst];
    if (d.copy == kNoVertex) ++ci.free_lanes;
    else ci.waiting.push({d.time, d.copy});
  }

  void give_lanes(std::uint32_t inst, TimeNs at) override {
    ChannelInstance& ci = instances_[inst];
    while (ci.free_lanes > 0 && !ci.waiting.empty()) {
      const VertexId next = ci.waiting.top().vertex;
      ci.waiting.pop();
      start_hop(next, inst, at);
    }
  }

 private:
  bool owned(VertexId v) const { return !link_ || link_->owner(v) == link_->me(); }

  // A replay with a stop time (ReplayOptions::stop_after_ns): the same rounds, until the next one would be past the
  // stop while an operation of the estimate is still to finish, so that the estimate would be too. Asked once, when
  // the time first passes the stop: with the estimate done by then, the rest runs as without a stop, and the result
  // is the same.
  void run_until_stop() {
    while (!queue_.empty()) {
      if (next_event_time() > options_.stop_after_ns) {
        if (estimate_unfinished()) {
          t_.cut_off = true;
          return;
        }
        while (!queue_.empty()) run_round();
        return;
      }
      run_round();
    }
  }

  bool estimate_unfinished() const {
    for (VertexId v = 0; v < n_; ++v)
      if (r_.counts(v) && !ops_.ended(v)) return true;
    return false;
  }

  // ---- set-up of this block, and the queues -------------------------------------------

  // The measured duration of the wait before resume segment v when no record produces its event.
  TimeNs unlogged_wait(VertexId v) const {
    const graph::WaitInfo& w = g_.resume_wait(v);
    if (w.awaited != kNoVertex || options_.rules.unlogged == UnloggedTime::instant) return 0;
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
      for (auto p : targets) procs_[p].serve(it->second, more_queues_);
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

  // ---- inputs -------------------------------------------------------------------------

  TimeNs edge_delay(VertexId u, VertexId v, EdgeKind kind) const { return edge_delay_ns(g_, map_, model_, u, v, kind); }

  // The runtime's own operations (merges, triggers, arrivals...) need no resource: they start when ready and
  // fire a fixed time later, so their fire event is scheduled at once and the ready event is skipped (a fifth
  // of the operations on S3D traces). The events pop in the same order as with a ready event first: a
  // ready(t, v) would pop where fire(t, v) does (nothing else is queued at t for such a v) and its own
  // fire(t + cost, v) has the key that is pushed here.
  void become_ready(VertexId v, TimeNs at) {
    if (const TimeNs cost = runtime_cost(g_.kind(v)); cost >= 0) {
      ops_.start_at(v, at);
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
    ops_.set_waits_unrecorded(v, false);
    push(core::saturating_add(ops_.ready_before_start(v), g_.external_delay(v)), v, EventType::floor);
  }

  // ---- tasks --------------------------------------------------------------------------

  void enqueue_segment(VertexId v) {
    VertexId task = g_.task_of(v);
    // A task that keeps its processor through a wait resumes there at once.
    // Every segment of a task runs on the processor its first segment ran on, so that is the one it can hold.
    if (g_.kind(v) == OpKind::task_resume && !model_.wait_frees_processor) {
      const std::uint32_t p = r_.processor_of[task];
      if (p < procs_.size() && procs_[p].held_by == task) {
        procs_[p].held_by = kNoVertex;
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
    TimeNs order = ops_.ready_before_start(v);
    if (options_.rules.queue_order == QueueOrder::observed && g_.observed_start(v) != graph::kNoTime) order = g_.observed_start(v);
    queues_[q].push({info.priority, payload, order, v});
    // Only an idle processor can take it at the end of this instant; a busy one looks at its queues when its
    // segment ends (on_segment_end), a held one never before its task resumes.
    for (auto p : queue_members_[q])
      if (procs_[p].idle()) dirty_procs_.insert(p);
  }

  // End of an instant: idle processors (lowest index first) take their best queued segment,
  // idle lanes their earliest transfer. Starting work can only create events at now_ or later.
  void allocate_resources() {
    dirty_procs_.drain([&](std::uint32_t p) { dispatch(p); });
    dirty_instances_.drain([&](std::uint32_t inst) { give_lanes(inst, now_); });
  }

  void dispatch(std::uint32_t p) {
    const ProcessorState& state = procs_[p];
    if (!state.idle()) return;
    const WaitingSegment* best = nullptr;
    std::uint32_t best_queue = 0;
    state.for_each_queue(more_queues_, [&](std::uint32_t q) {
      if (queues_[q].empty()) return;
      const WaitingSegment& head = queues_[q].top();
      if (!best || head.before(*best)) {
        best = &head;
        best_queue = q;
      }
    });
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
      ops_.prefetch(next.vertex);
    }
    start_segment(p, v);
  }

  void start_segment(std::uint32_t p, VertexId v) {
    const bool first = g_.kind(v) == OpKind::task;
    VertexId task = g_.task_of(v);
    ProcessorState& proc = procs_[p];
    if (first) {
      const graph::TaskInfo& info = g_.task(task);
      if (info.time_ns != graph::kNoTime && info.time_ns < timing_.total_wait_ns(task)) ++t_.clamped_waits;
    }
    Issuing running = timing_.segment(v, task, now_, p);
    // Asked only of a model with cores or start-ups: the plain path does not look.
    const bool on_a_core = share_.enabled() && takes_core(p, task);
    ops_.start_at(v, now_);
    r_.processor_of[v] = p;
    proc.busy = true;
    ++r_.processors[p].segments;
    if (on_a_core) {
      const std::uint32_t node = map_.processors()[p].node;
      // A processor's first work on a core begins with its start-up, which freezes the node (core_share.hpp).
      if (!start_ups_by_node_.empty() && !proc.started) {
        proc.started = true;
        const TimeNs length = model_.runtime.start_up_ns(start_ups_by_node_[node]++);
        const TimeNs from = share_.freeze(node, now_, length);
        t_.start_ups.push_back({node, p, from, from + length});  // this block's own
      }
      start_shared(v, node, running, CoreShare::DueKind::segment_end, p);
      return;
    }
    issue_actions(v, running);
    const TimeNs end = running.run_start + (running.shape.end - running.shape.begin);
    r_.processors[p].busy_ns = core::saturating_add(r_.processors[p].busy_ns, end - now_);
    if (options_.detail.record_intervals) t_.intervals.push_back({p, v, now_, end});
    push(end, v, EventType::segment_end, p);
  }

  // The actions segment (or background operation) v issues, each when its running work reaches it
  // and the issue crosses to the action's node (TaskTiming::issue_arrival).
  void issue_actions(VertexId v, const Issuing& running) {
    auto succ = g_.successors(v);
    auto kinds = g_.successor_kinds(v);
    for (std::size_t i = 0; i < succ.size(); ++i) {
      if (kinds[i] != EdgeKind::issue) continue;
      const TimeNs at = timing_.issue_arrival(running, v, succ[i]);
      if (!r_.issued_at.empty()) r_.issued_at[succ[i]] = core::held(at);
      contribute(succ[i], at, v, Release::issue);
    }
  }

  void on_segment_end(VertexId v, std::uint32_t p) {
    procs_[p].busy = false;
    if (share_.enabled() && takes_core(p, g_.task_of(v))) end_shared(v, p);
    const bool last = [&] {
      for (auto k : g_.successor_kinds(v))
        if (k == EdgeKind::continuation) return false;
      return true;
    }();
    if (!last && !model_.wait_frees_processor) procs_[p].held_by = g_.task_of(v);
    on_fire(v);
    dirty_procs_.insert(p);
  }

  // ---- cores shared by a node's threads (replay/core_share.hpp) -----------------------

  // A segment takes one of its node's cores when it runs on a Realm CPU or utility processor and is the
  // application's work: a GPU processor's work is on the device, and the program's own thread (outside the
  // estimate) waits for the run to end without using a core.
  bool takes_core(std::uint32_t p, VertexId task) const {
    const core::ProcessorKind kind = map_.processors()[p].kind;
    return (kind == core::ProcessorKind::cpu || kind == core::ProcessorKind::utility) && r_.counts(task);
  }

  // Work v (a segment, or background work) starts now on `node` as `running`: its end and the actions it issues
  // become due when the node's shared cores have done that much of its work.
  void start_shared(VertexId v, std::uint32_t node, const Issuing& running, CoreShare::DueKind end_kind,
                    std::uint32_t p) {
    share_.thread_starts(node, now_);
    const TimeNs lead = running.run_start - now_;  // the launch and segment overhead before its own work
    auto succ = g_.successors(v);
    auto kinds = g_.successor_kinds(v);
    for (std::size_t i = 0; i < succ.size(); ++i)
      if (kinds[i] == EdgeKind::issue)
        share_.schedule(node, now_, timing_.issue_point(running, succ[i]) - now_, CoreShare::DueKind::issue, v, succ[i]);
    share_.schedule(node, now_, lead + (running.shape.end - running.shape.begin), end_kind, v, p);
    wake(node);
  }

  // Keeps one wake-up queued for the node's first due point; those queued before a rate change are stale.
  void wake(std::uint32_t node) {
    const TimeNs at = share_.next_due(node);
    TimeNs& queued = share_.wake_at(node);
    if (at == queued) return;
    queued = at;
    if (at != CoreShare::kNone) push(at, 0, EventType::core_due, node);
  }

  void on_core_due(std::uint32_t node) {
    if (share_.wake_at(node) != now_) return;  // stale: the rate changed since it was queued
    share_.wake_at(node) = CoreShare::kNone;
    share_.take_due(node, now_, [&](const CoreShare::Due& d) {
      switch (d.kind) {
        case CoreShare::DueKind::issue: {
          const TimeNs at = now_ + edge_delay(d.vertex, d.action, EdgeKind::issue);
          r_.issued_at[d.action] = core::held(at);
          contribute(d.action, at, d.vertex, Release::issue);
          break;
        }
        case CoreShare::DueKind::segment_end: push(now_, d.vertex, EventType::segment_end, d.action); break;
        case CoreShare::DueKind::background_end:
          share_.thread_stops(node, now_);
          push(now_, d.vertex, EventType::fire);
          break;
      }
    });
    wake(node);
  }

  // A shared segment's end: its thread leaves the node's cores; its busy time is what it held the processor.
  void end_shared(VertexId v, std::uint32_t p) {
    const std::uint32_t node = map_.processors()[p].node;
    share_.thread_stops(node, now_);
    wake(node);
    const TimeNs start = ops_.start(v);
    r_.processors[p].busy_ns = core::saturating_add(r_.processors[p].busy_ns, now_ - start);
    if (options_.detail.record_intervals) t_.intervals.push_back({p, v, start, now_});
  }

  // ---- copies -------------------------------------------------------------------------

  CopyPlan& plan_of(VertexId copy) { return copies_.plans[g_.payload(copy)]; }
  const machine::CopyPath& path_of(const CopyPlan& plan) const { return copies_.path_of(plan); }
  std::uint64_t bytes_of(VertexId copy) const { return copy_bytes(g_.copy(copy), model_); }
  std::uint32_t hop_node(const CopyPlan& plan, std::uint32_t hop) const { return copies_.hop_node(model_, plan, hop); }

  void request_hop(VertexId c) {
    CopyPlan& plan = plan_of(c);
    const std::uint32_t channel = path_of(plan).hops[plan.hop];
    const std::uint32_t node = hop_node(plan, plan.hop);
    if (link_) {
      if (const std::uint32_t to = link_->block_of_node(node); to != link_->me()) {  // only a first hop: Partition
        link_->send(to, {now_, c, static_cast<std::uint32_t>(std::size_t{channel} * map_.model_nodes() + node), round_,
                         Mail::Kind::request},
                    now_);
        return;
      }
    }
    const std::uint32_t inst = instance(channel, node);
    if (instances_[inst].shared) {
      link_->defer({now_, round_, inst, c});
      return;
    }
    instances_[inst].waiting.push({now_, c});
    dirty_instances_.insert(inst);
  }

  void start_hop(VertexId c, std::uint32_t inst, TimeNs at) {
    ChannelInstance& ci = instances_[inst];
    CopyPlan& plan = plan_of(c);
    --ci.free_lanes;
    if (plan.hop == 0) ops_.start_at(c, at);
    const TimeNs duration = hop_ns(g_, model_, timing_, ci.channel, c);
    if (options_.detail.record_intervals)
      t_.intervals.push_back({static_cast<std::uint32_t>(map_.processors().size()) + inst, c, at, at + duration});
    ci.busy_ns = core::saturating_add(ci.busy_ns, duration);
    ci.transfers += 1;
    ci.bytes += bytes_of(c);
    const TimeNs end = at + duration;
    if (link_) {
      // Who goes on with the copy when the hop ends: the block of its next hop's channel, or after the last hop
      // its own. Told now, the hop's whole duration ahead.
      const std::uint32_t next_owner = plan.hop + 1 < path_of(plan).hops.size()
                                           ? link_->block_of_node(hop_node(plan, plan.hop + 1))
                                           : link_->owner(c);
      if (next_owner != link_->me()) {
        push(end, c, EventType::hop_end, inst | kLaneOnly);
        link_->send(next_owner,
                    {core::held(end), c, static_cast<std::uint32_t>(EventType::hop_end), kGoOn | plan.hop,
                     Mail::Kind::event},
                    at);
        return;
      }
    }
    push(end, c, EventType::hop_end, inst);
  }

  void on_hop_end(VertexId c, std::uint32_t aux) {
    if (goes_on(aux)) {
      plan_of(c).hop = aux & ~kGoOn;
    } else {
      const std::uint32_t inst = aux & ~kLaneOnly;
      if (instances_[inst].shared) {
        link_->defer({now_, round_, inst, kNoVertex});
      } else {
        ++instances_[inst].free_lanes;
        dirty_instances_.insert(inst);
      }
      if (aux & kLaneOnly) return;  // another block goes on with the copy
    }
    CopyPlan& plan = plan_of(c);
    if (++plan.hop < path_of(plan).hops.size()) {
      request_hop(c);
      return;
    }
    PathUsage& usage = path_usage_[plan.path_slot];
    ++usage.copies;
    usage.bytes += bytes_of(c);
    usage.time_ns = core::saturating_add(usage.time_ns, now_ - ops_.ready(c));
    on_fire(c);
  }

  // ---- barriers -----------------------------------------------------------------------

  PhaseState& phase_of(VertexId phase) { return phase_[g_.payload(phase)]; }

  // A phase fires once its arrivals reach the required count, never before the previous phase.
  void try_fire_phase(VertexId p, VertexId because, Release why) {
    PhaseState& s = phase_of(p);
    if (s.fired || !s.previous_done || s.arrived < g_.phase(p).required) return;
    s.fired = true;
    ops_.set_ready(p, now_);
    ops_.start_at(p, now_);  // a phase takes no time: waiting for its arrivals is the arrivals' and the edges' time
    ops_.set_release(p, because, because == kNoVertex ? Release::none : why);
    push(now_, p, EventType::fire);
  }

  void on_arrival(VertexId phase, VertexId arrive) {
    phase_of(phase).arrived += g_.barrier_value(arrive);
    try_fire_phase(phase, arrive, Release::input);
  }

  // ---- readiness and firing -----------------------------------------------------------

  void on_ready(VertexId v) {
    if (ops_.release(v) == Release::none && ops_.released_by(v) == kNoVertex) ops_.set_ready(v, now_);
    switch (g_.kind(v)) {
      case OpKind::task:
      case OpKind::task_resume: enqueue_segment(v); break;
      case OpKind::copy:
        if (plan_of(v).path_slot != CopyPlan::kRemoved) request_hop(v);
        else {  // removed by a mapping (copy_route): done at once
          ops_.start_at(v, now_);
          push(now_, v, EventType::fire);
        }
        break;
      case OpKind::background: {
        // Realm's own background work (dependent partitioning) holds no modelled processor.
        // What it launched (a profiling response triggers events) happens where in its time the run saw it.
        const Issuing running = timing_.background(v, now_);
        ops_.start_at(v, now_);
        if (share_.enabled() && r_.counts(v)) {
          start_shared(v, map_.fold(g_.node(v)), running, CoreShare::DueKind::background_end, 0);
          break;
        }
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
        try_fire_phase(v, ops_.released_by(v), Release::input);
        break;
      }
    }
  }

  void on_fire(VertexId v) {
    ops_.end_at(v, now_);  // and starts it then, if nothing did
    ++t_.operations;
    t_.last_end_ns = std::max(t_.last_end_ns, now_);
    if (r_.counts(v)) t_.makespan_ns = std::max(t_.makespan_ns, now_);
    auto succ = g_.successors(v);
    auto kinds = g_.successor_kinds(v);
    for (std::size_t i = 0; i < succ.size(); ++i) {
      const VertexId w = succ[i];
      switch (kinds[i]) {
        case EdgeKind::issue: break;  // issued when the segment started
        case EdgeKind::arrival:
          // Arrivals count in time order, so they go through the queue; alters only set the count.
          if (g_.kind(v) == OpKind::barrier_arrive) {
            const TimeNs at = now_ + edge_delay(v, w, EdgeKind::arrival);
            if (link_ && link_->owner(w) != link_->me())
              link_->send(
                link_->owner(w),
                {core::held(at), w, static_cast<std::uint32_t>(EventType::arrival_effect), v, Mail::Kind::event}, now_);
            else
              push(at, w, EventType::arrival_effect, v);
          }
          break;
        case EdgeKind::continuation: {
          const TimeNs waited = unlogged_wait(w);
          if (waited > 0) {
            ++t_.measured_waits;
            t_.measured_wait_ns = core::saturating_add(t_.measured_wait_ns, waited);
          }
          contribute(w, now_ + edge_delay(v, w, kinds[i]) + waited, v, Release::input);
          break;
        }
        case EdgeKind::precondition: {
          const TimeNs copy = implied_copy_ns(g_, map_, model_, r_, v, w);
          if (copy > 0) {
            ++t_.implied_copies;
            t_.implied_copy_ns = core::saturating_add(t_.implied_copy_ns, copy);
          }
          contribute(w, now_ + edge_delay(v, w, kinds[i]) + copy, v, Release::input);
          break;
        }
        default: contribute(w, now_ + edge_delay(v, w, kinds[i]), v, Release::input); break;
      }
    }
  }

  const graph::EventGraph& g_;
  const MachineMap& map_;
  const machine::MachineModel& model_;
  const ReplayOptions& options_;
  const std::uint32_t n_;
  const TaskTiming timing_{g_, map_, model_, options_.rules.noise};
  // The result's per-operation arrays, shared by the blocks; this block's counters, sums and intervals go to t_.
  ReplayResult& r_;
  ReplayResult t_;
  TimeNs now_ = 0;
  std::uint32_t round_ = 1;  // of the present instant (run_round)
  bool began_ = false;
  EventQueue queue_;
  // Each operation's record in the result (its times, what released it) also counts the inputs it still waits for
  // and whether it waits on an unrecorded event not yet scheduled (schedule_external): every step on an operation
  // reads and writes one record.
  OperationRecords& ops_;
  std::vector<PhaseState>& phase_;
  CopyPlans& copies_;
  std::vector<PathUsage> path_usage_;  // this block's, by slot
  BlockLink* const link_;  // null: the whole replay on this engine
  // processors
  std::vector<ProcessorState> procs_;
  std::vector<std::vector<std::uint32_t>> more_queues_;  // the queues of processors that serve more than two
  std::vector<SegmentQueue> queues_;
  std::vector<std::vector<std::uint32_t>> queue_members_;
  std::map<std::vector<std::uint32_t>, std::uint32_t> queue_of_targets_;
  std::unordered_map<const std::vector<std::uint32_t>*, std::uint32_t> queue_at_address_;
  std::vector<std::uint32_t> single_queue_;  // queue_of_processor, ~0u until first asked
  // The queue a task's first segment waits in, by its function and traced processor (not under eft, which picks
  // a processor when the task becomes ready).
  FirstSegmentQueues first_queues_;
  std::vector<TimeNs> proc_available_;  // eft: when each processor is expected to be free
  CoreShare share_;  // the nodes' cores, when the model limits them or processors start up
  std::vector<std::uint32_t> start_ups_by_node_;  // start-ups begun on each model node; empty: none start up
  DirtySet dirty_procs_;      // processors to offer work to at the end of this instant
  DirtySet dirty_instances_;  // channel instances likewise
  // channels
  std::vector<ChannelInstance> instances_;
  std::vector<std::uint32_t> instance_of_;  // (channel * model nodes + node) -> instance, ~0u if unused
};

}  // namespace

std::unique_ptr<Engine> make_engine(const graph::EventGraph& g, const MachineMap& map,
                                    const machine::MachineModel& model, const ReplayOptions& options,
                                    SharedState& shared, BlockLink* link) {
  return std::make_unique<EventEngine>(g, map, model, options, shared, link);
}

}  // namespace rr::replay
