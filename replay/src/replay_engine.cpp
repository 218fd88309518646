// The engine: an event queue ordered by (time, vertex, kind), processors with priority queues (groups share
// queues), channel instances with lanes, barrier phases counting arrivals. Contributions to max-joins are applied
// eagerly (max is order-free); only count-based barrier arrivals go through the queue in time order.
#include "replay/replay_engine.hpp"

#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_invoke.h>
#include <oneapi/tbb/task_arena.h>

#include "replay/core_share.hpp"
#include "replay/event_queue.hpp"
#include "replay/src/assemble_result.hpp"
#include "replay/src/block_mail.hpp"
#include "replay/src/channel_instance.hpp"
#include "replay/src/dirty_set.hpp"
#include "replay/src/partition.hpp"
#include "replay/first_segment_queues.hpp"
#include "replay/segment_queue.hpp"
#include "replay/src/processor_state.hpp"
#include "replay/src/serve_queue.hpp"
#include "replay/src/shared_state.hpp"
#include "replay/task_timing.hpp"
#include "replay/timing_rules.hpp"
#include "core/saturating.hpp"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <exception>
#include <memory>
#include <cmath>
#include <map>
#include <queue>
#include <set>
#include <thread>
#include <tuple>
#include <unordered_map>

namespace rr::replay {

namespace {

using graph::EdgeKind;
using graph::OpKind;
using graph::VertexId;
using graph::kNoVertex;

// What the blocks of one replay share (docs/replay.md): the partition, how far each block got, and the mail between
// every two.
struct Blocks {
  explicit Blocks(Partition p)
      : partition(std::move(p)), progress(std::make_unique<BlockProgress[]>(partition.count)) {
    for (std::uint32_t i = 0; i < partition.count * partition.count; ++i) mail.push_back(std::make_unique<MailQueue>());
  }
  std::uint32_t count() const { return partition.count; }
  MailQueue& queue(std::uint32_t from, std::uint32_t to) { return *mail[from * partition.count + to]; }

  Partition partition;
  std::unique_ptr<BlockProgress[]> progress;
  std::vector<std::unique_ptr<MailQueue>> mail;  // from * count + to
};

// A hop_end event's aux: the channel instance whose lane it frees, marked when another block goes on with the
// copy; or kGoOn, the event of the block that goes on with it.
constexpr std::uint32_t kLaneOnly = 1u << 31;
constexpr std::uint32_t kGoOn = ~0u;

// A channel instance's change that waits until every block has gone past its instant: a lane freed (copy ==
// kNoVertex) or a hop requested, in the order (time, round, instance, copy).
struct Deferred {
  TimeNs time;
  std::uint32_t round;
  std::uint32_t inst;
  VertexId copy;
  bool operator<(const Deferred& o) const {
    return std::tie(time, round, inst, copy) < std::tie(o.time, o.round, o.inst, o.copy);
  }
};

class Engine {
 public:
  Engine(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
         const ReplayOptions& options, SharedState& shared, Blocks* blocks = nullptr, std::uint32_t me = 0)
      : g_(g), map_(map), model_(model), options_(options), n_(g.vertex_count()), r_(shared.r), ops_(shared.r.ops),
        phase_(shared.phase), copies_(shared.copies), blocks_(blocks), me_(me) {
    if (blocks_) unacked_.resize(blocks_->count());
  }

  // The whole replay on this engine alone.
  void run_alone() {
    while (!queue_.empty()) run_round();
  }

  // One round: the events of one instant (those the last round queued for it, when it was the same instant),
  // then idle processors and lanes pick from all that is ready, so priorities decide between work that became
  // ready together. Rounds are counted within an instant: lanes given out in round k never see the requests of
  // round k + 1, so a block that gives out lanes late (run_deferred) keeps the round of every request.
  void run_round() {
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
        case EventType::startup_turn: on_startup_turn(v, e.aux()); break;
      }
    }
    allocate_resources();
  }

  // ---- one block among several (docs/replay.md) ------------------------------------------

  // Does what this block can without waiting: takes in its mail, gives out the lanes of shared instances at
  // instants every other block has gone past, and replays its instants up to where another block could still
  // reach it. Then says how far it got. False when it could do nothing.
  bool step() {
    // No other block has anything left before its published time (publish), and none has yet to act on mail
    // this block sent it before that mail's time; so nothing can reach this one before horizon + lookahead, but
    // the requests of shared instances, which wait for the horizon itself. (A block's published time counts the
    // mail it sent that is not taken in yet: what that mail makes its receiver do may reach a third block.)
    bool did = false;
    for (int look = 0; look < 8; ++look) {
      if (look_around()) did = true;
      else if (look > 0) break;  // nothing new since the last look
      did |= run_deferred(request_horizon_);
      did |= run_rounds();
    }
    publish();
    return did;
  }

  // When this block's next round is: the present while the instant goes on, else its earliest queued event.
  TimeNs next_event_time() {
    return queue_.empty() ? kNoTime : queue_.has_present() ? now_ : queue_.next_time();
  }

  // Reads how far the other blocks got and takes in their mail. True when there was mail or the horizon moved.
  bool look_around() {
    Blocks& b = *blocks_;
    const TimeNs before = horizon_, requests_before = request_horizon_;
    horizon_ = request_horizon_ = kNoTime;
    for (std::uint32_t other = 0; other < b.count(); ++other) {
      if (other == me_) continue;
      const TimeNs unacked = unacked_time(other, true);
      horizon_ = std::min({horizon_, unacked, b.progress[other].next.load(std::memory_order_acquire)});
      request_horizon_ = std::min({request_horizon_, unacked, b.progress[other].events.load(std::memory_order_acquire)});
    }
    bool any = horizon_ != before || request_horizon_ != requests_before;
    for (std::uint32_t other = 0; other < b.count(); ++other)
      if (other != me_ && b.queue(other, me_).drain([&](const Mail& m) { take(m); })) any = unacknowledged_ = true;
    return any;
  }

  // The rounds this block may replay now, each published as it ends. True when there was one.
  bool run_rounds() {
    Blocks& b = *blocks_;
    bool did = false;
    while (!queue_.empty()) {
      const TimeNs t = next_event_time();
      // (Mail this block sends lowers the horizon as it goes: its receiver may answer it.)
      if (t >= core::saturating_add(horizon_, b.partition.lookahead)) break;
      // A lane given out late starts a hop then, which ends at least least_hop later: not before it is given.
      if (!deferred_.empty() && t >= core::saturating_add(deferred_.top().time, b.partition.least_hop)) break;
      run_round();
      did = true;
      run_deferred(request_horizon_);
      publish();  // at every round: another block may be waiting for it (publishing only when that would unblock
                  // one was slower: the others then went on by the smallest steps)
    }
    return did;
  }

  // What this block has left, for the others: its next event, a lane it has yet to give out, or a message it sent
  // that its receiver has not taken in (which may yet make the receiver, or through it a third block, act then).
  // Then that the mail it took in is accounted for: after the time that includes what that mail queued.
  void publish() {
    Blocks& b = *blocks_;
    // (At every round, so the loops over the other blocks run only when there is something to flush or acknowledge.)
    if (unflushed_)
      for (std::uint32_t other = 0; other < b.count(); ++other)
        if (other != me_) b.queue(me_, other).flush();
    unflushed_ = false;
    TimeNs events = next_event_time();
    for (std::uint32_t other = 0; other < b.count(); ++other)
      if (other != me_) events = std::min(events, unacked_time(other, false));
    TimeNs next = events;
    if (!deferred_.empty()) {
      next = std::min(next, deferred_.top().time);
      // A lane given out late sends nothing before its hop ends, and asks for none.
      events = std::min(events, core::saturating_add(deferred_.top().time, b.partition.least_hop));
    }
    // Stored only when they move: a store takes the line back from the blocks that read it.
    if (events != published_events_) b.progress[me_].events.store(published_events_ = events, std::memory_order_release);
    if (next != published_next_) b.progress[me_].next.store(published_next_ = next, std::memory_order_release);
    if (unacknowledged_)
      for (std::uint32_t other = 0; other < b.count(); ++other)
        if (other != me_) b.queue(other, me_).acknowledge();
    unacknowledged_ = false;
  }

  void take(const Mail& m) {
    // The protocol's promise: mail never takes effect at an instant this block has done. A request may come for
    // an earlier instant (it has no lookahead), but not for one whose hop would already have ended.
    assert(!began_ || (m.kind == Mail::Kind::request ? m.time + blocks_->partition.least_hop > now_ : m.time > now_));
    switch (m.kind) {
      case Mail::Kind::contribute: contribute(m.a, m.time, m.b, static_cast<Release>(m.c)); break;
      case Mail::Kind::event: push(m.time, m.a, static_cast<EventType>(m.b), m.c); break;
      case Mail::Kind::request: {
        const std::uint32_t channel = m.b / map_.model_nodes();
        defer({m.time, m.c, instance(channel, m.b % map_.model_nodes()), m.a});
        break;
      }
    }
  }

  // The earliest time of the mail this block sent `other` that it has not taken in yet, as of the last look at
  // its acknowledgement (look_around: rereading it at every round would move its cache line back and forth).
  TimeNs unacked_time(std::uint32_t other, bool look) {
    UnackedTimes& u = unacked_[other];
    if (u.empty()) return kNoTime;
    if (look) acked_seen_[other] = blocks_->queue(me_, other).acknowledged();
    return u.earliest(acked_seen_[other]);
  }

  // Sends mail, made at `sent` (the present, or the instant a late lane was given out at).
  void mail(std::uint32_t to, const Mail& m, [[maybe_unused]] TimeNs sent) {
    horizon_ = std::min(horizon_, m.time);
    request_horizon_ = std::min(request_horizon_, m.time);
    assert(m.kind == Mail::Kind::request ? m.time == sent : m.time >= sent + blocks_->partition.lookahead);
    MailQueue& q = blocks_->queue(me_, to);
    unacked_[to].sent(q.sent(), m.time);
    q.send(m);
    unflushed_ = true;
  }

  void defer(const Deferred& d) { deferred_.push(d); }

  // Gives out the lanes of shared instances at every (instant, round) before both the horizon (no other block
  // can still ask for them then) and this block's own next round (it cannot either).
  bool run_deferred(TimeNs horizon) {
    bool did = false;
    while (!deferred_.empty()) {
      const Deferred top = deferred_.top();
      if (top.time >= horizon) break;
      // Not after this block's own next round: (now_, round_) while the instant goes on.
      const bool own_next_later =
          top.time < next_event_time() || (top.time == now_ && queue_.has_present() && top.round <= round_);
      if (!own_next_later) break;
      touched_.clear();
      while (!deferred_.empty() && deferred_.top().time == top.time && deferred_.top().round == top.round) {
        const Deferred d = deferred_.top();
        deferred_.pop();
        ChannelInstance& ci = instances_[d.inst];
        if (d.copy == kNoVertex) ++ci.free_lanes;
        else ci.waiting.push({d.time, d.copy});
        if (touched_.empty() || touched_.back() != d.inst) touched_.push_back(d.inst);
      }
      for (const std::uint32_t inst : touched_) give_lanes(inst, top.time);
      did = true;
    }
    return did;
  }

  bool owned(VertexId v) const { return !blocks_ || blocks_->partition.of_vertex[v] == me_; }
  std::uint32_t owner(VertexId v) const { return blocks_->partition.of_vertex[v]; }

  BlockOutput take_output() {
    return {std::move(t_), std::move(instances_), std::move(path_usage_)};
  }

  // ---- set-up ----------------------------------------------------------------------------

  // This block's own state, and its operations that wait for nothing (or only for an unrecorded event). Fails
  // on the lowest task (the one returned with the error) whose processor kind the model lacks.
  std::optional<std::pair<VertexId, core::InputError>> init_block() {
    procs_.assign(map_.processors().size(), {});
    proc_available_.assign(map_.processors().size(), 0);
    share_.configure(map_.model_nodes(), model_.node.cores);
    // An issue's time depends on more than its issuer's start: the engine keeps it for the critical path.
    if (share_.enabled() || model_.runtime.processor_start_ns > 0) r_.issued_at.assign(n_, kNever);
    startup_free_.assign(model_.runtime.processor_start_ns > 0 ? map_.model_nodes() : 0, 0);
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
    if (blocks_ && owner(v) != me_) {  // another block's operation: it applies the input (no earlier than t - lookahead)
      mail(owner(v), {t, v, from, static_cast<std::uint32_t>(why), Mail::Kind::contribute}, now_);
      return;
    }
    if (ops_.pending(v) == 0) return;  // a completion queue already fired on an earlier input
    ops_.raise_ready(v, t, from, why);
    const std::uint32_t left = ops_.take_pending(v);
    if (left == 0) become_ready(v, ops_.ready_before_start(v));
    else if (left == 1 && ops_.waits_unrecorded(v)) schedule_external(v);
  }

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

  // ---- tasks ----------------------------------------------------------------------------

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
    if (options_.queue_order == QueueOrder::observed && g_.observed_start(v) != graph::kNoTime) order = g_.observed_start(v);
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

  // The instance's free lanes start its earliest waiting transfers, at `at`.
  void give_lanes(std::uint32_t inst, TimeNs at) {
    ChannelInstance& ci = instances_[inst];
    while (ci.free_lanes > 0 && !ci.waiting.empty()) {
      const VertexId next = ci.waiting.top().vertex;
      ci.waiting.pop();
      start_hop(next, inst, at);
    }
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
    if (now_ > ops_.ready_before_start(v) && proc.last != kNoVertex) {
      // It waited for the processor: the previous occupant released it (critical path: queueing).
      ops_.set_release(v, proc.last, Release::resource);
    }
    if (first) {
      const graph::TaskInfo& info = g_.task(task);
      if (info.time_ns != graph::kNoTime && info.time_ns < timing_.total_wait_ns(task)) ++t_.clamped_waits;
    }
    Issuing running = timing_.segment(v, task, now_, p);
    // Asked only of a model with cores or start-ups: the plain path does not look.
    const bool on_a_core = (share_.enabled() || !startup_free_.empty()) && takes_core(p, task);
    TimeNs startup_wait = 0;
    if (!startup_free_.empty() && !proc.started && on_a_core) {
      startup_wait = start_up(p);
      running.run_start += startup_wait + model_.runtime.processor_start_ns;
    }
    ops_.start_at(v, now_);
    r_.processor_of[v] = p;
    proc.busy = true;
    proc.last = v;
    ++r_.processors[p].segments;
    if (share_.enabled() && on_a_core) {
      // Waiting for the other processors' start-ups takes no core: the thread begins to share them once its own
      // start-up begins (on_startup_turn).
      if (startup_wait > 0) {
        push(now_ + startup_wait, v, EventType::startup_turn, p);
        return;
      }
      start_shared(v, map_.processors()[p].node, running, CoreShare::DueKind::segment_end, p);
      return;
    }
    issue_actions(v, running);
    const TimeNs end = running.run_start + (running.shape.end - running.shape.begin);
    r_.processors[p].busy_ns = core::saturating_add(r_.processors[p].busy_ns, end - now_);
    if (options_.record_intervals) t_.intervals.push_back({p, v, now_, end});
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

  // A processor's start-up before its first work (runtime.processor_start_ns): after those of its node's
  // processors that started before it, one at a time. How long it waits for them.
  TimeNs start_up(std::uint32_t p) {
    procs_[p].started = true;
    TimeNs& free = startup_free_[map_.processors()[p].node];
    const TimeNs begin = std::max(now_, free);
    free = core::saturating_add(begin, model_.runtime.processor_start_ns);
    return begin - now_;
  }

  // Under shared cores, a first segment whose processor waited for the others' start-ups: its start-up begins now,
  // and with it its share of the cores.
  void on_startup_turn(VertexId v, std::uint32_t p) {
    Issuing running = timing_.segment(v, g_.task_of(v), now_, p);
    running.run_start += model_.runtime.processor_start_ns;
    start_shared(v, map_.processors()[p].node, running, CoreShare::DueKind::segment_end, p);
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

  // ---- cores shared by a node's threads (replay/core_share.hpp) ----------------------------

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
    if (options_.record_intervals) t_.intervals.push_back({p, v, start, now_});
  }

  // ---- copies ---------------------------------------------------------------------------

  // Channel instances are numbered in order of first use here (a flat table finds them); the result lists them by
  // channel and node (assemble_result).
  std::uint32_t instance(std::uint32_t channel, std::uint32_t node) {
    const std::size_t key = std::size_t{channel} * map_.model_nodes() + node;
    if (instance_of_.size() <= key) instance_of_.resize(key + 1, ~0u);
    if (instance_of_[key] == ~0u) {
      instance_of_[key] = static_cast<std::uint32_t>(instances_.size());
      instances_.push_back({channel, node, model_.channels[channel].lanes,
                            blocks_ != nullptr && blocks_->partition.shared_instance[key] != 0, {}, kNoVertex});
    }
    return instance_of_[key];
  }

  // The node whose instance of the channel a copy's hop holds.
  std::uint32_t hop_node(const CopyPlan& plan, std::uint32_t hop) const { return copies_.hop_node(model_, plan, hop); }

  void request_hop(VertexId c) {
    CopyPlan& plan = plan_of(c);
    const std::uint32_t channel = path_of(plan).hops[plan.hop];
    const std::uint32_t node = hop_node(plan, plan.hop);
    if (blocks_) {
      if (const std::uint32_t to = blocks_->partition.of_node[node]; to != me_) {  // only a first hop: Partition
        mail(to, {now_, c, static_cast<std::uint32_t>(std::size_t{channel} * map_.model_nodes() + node), round_,
                  Mail::Kind::request},
             now_);
        return;
      }
    }
    const std::uint32_t inst = instance(channel, node);
    if (instances_[inst].shared) {
      defer({now_, round_, inst, c});
      return;
    }
    instances_[inst].waiting.push({now_, c});
    dirty_instances_.insert(inst);
  }

  void start_hop(VertexId c, std::uint32_t inst, TimeNs at) {
    ChannelInstance& ci = instances_[inst];
    CopyPlan& plan = plan_of(c);
    --ci.free_lanes;
    if (plan.hop == 0) {
      const TimeNs ready = ops_.ready_before_start(c);
      ops_.start_at(c, at);
      if (at > ready && ci.last_user != kNoVertex) {
        ops_.set_release(c, ci.last_user, Release::resource);
      }
    }
    ci.last_user = c;
    const TimeNs duration = hop_ns(g_, model_, timing_, ci.channel, c);
    if (options_.record_intervals)
      t_.intervals.push_back({static_cast<std::uint32_t>(map_.processors().size()) + inst, c, at, at + duration});
    ci.busy_ns = core::saturating_add(ci.busy_ns, duration);
    ci.transfers += 1;
    ci.bytes += bytes_of(c);
    const TimeNs end = at + duration;
    if (blocks_) {
      // Who goes on with the copy when the hop ends: the block of its next hop's channel, or after the last hop
      // its own. Told now, the hop's whole duration ahead.
      const std::uint32_t next_owner =
          plan.hop + 1 < path_of(plan).hops.size() ? blocks_->partition.of_node[hop_node(plan, plan.hop + 1)] : owner(c);
      if (next_owner != me_) {
        push(end, c, EventType::hop_end, inst | kLaneOnly);
        mail(next_owner, {core::held(end), c, static_cast<std::uint32_t>(EventType::hop_end), kGoOn, Mail::Kind::event}, at);
        return;
      }
    }
    push(end, c, EventType::hop_end, inst);
  }

  void on_hop_end(VertexId c, std::uint32_t aux) {
    if (aux != kGoOn) {
      const std::uint32_t inst = aux & ~kLaneOnly;
      if (instances_[inst].shared) {
        defer({now_, round_, inst, kNoVertex});
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

  // ---- barriers -------------------------------------------------------------------------

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

  // ---- readiness and firing -------------------------------------------------------------

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
            if (blocks_ && owner(w) != me_)
              mail(owner(w), {core::held(at), w, static_cast<std::uint32_t>(EventType::arrival_effect), v, Mail::Kind::event},
                   now_);
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
  const TaskTiming timing_{g_, map_, model_, {options_.perturb_sigma, options_.perturb_seed}};
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
  CopyPlan& plan_of(VertexId copy) { return copies_.plans[g_.payload(copy)]; }
  const machine::CopyPath& path_of(const CopyPlan& plan) const { return copies_.path_of(plan); }
  std::uint64_t bytes_of(VertexId copy) const { return copy_bytes(g_.copy(copy), model_); }
  PhaseState& phase_of(VertexId phase) { return phase_[g_.payload(phase)]; }
  std::vector<PathUsage> path_usage_;  // this block's, by slot
  // one block among several
  Blocks* blocks_;  // null: the whole replay on this engine
  std::uint32_t me_;
  std::vector<UnackedTimes> unacked_;  // by receiving block
  std::vector<std::uint64_t> acked_seen_ = std::vector<std::uint64_t>(blocks_ ? blocks_->count() : 0, 0);
  TimeNs horizon_ = 0;  // step: no other block has anything left before it
  // ... nor any event, which alone can ask for a lane (a lane it gives out late asks for none): lanes of shared
  // instances are given out before it. Blocks that both owe lanes at one instant do not wait for each other.
  TimeNs request_horizon_ = 0;
  TimeNs published_next_ = -1, published_events_ = -1;  // what publish() last stored
  bool unflushed_ = false;        // mail was sent since publish() last flushed
  bool unacknowledged_ = false;   // mail was taken in since publish() last acknowledged
  std::priority_queue<Deferred, std::vector<Deferred>, Worse<Deferred>> deferred_;
  std::vector<std::uint32_t> touched_;
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
  CoreShare share_;  // the nodes' cores, when the model limits them
  std::vector<TimeNs> startup_free_;  // by model node: when its processors' start-ups are done so far
  DirtySet dirty_procs_;      // processors to offer work to at the end of this instant
  DirtySet dirty_instances_;  // channel instances likewise
  // channels
  std::vector<ChannelInstance> instances_;
  std::vector<std::uint32_t> instance_of_;  // (channel * model nodes + node) -> instance, ~0u if unused
};

}  // namespace

const char* unlogged_time_name(UnloggedTime u) { return u == UnloggedTime::measured ? "measured" : "instant"; }
const char* queue_order_name(QueueOrder o) { return o == QueueOrder::observed ? "observed" : "ready"; }

namespace {

// A moment's wait in a spin loop, easier on the core than nothing.
inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// The replay is over when no block has anything left and every message was taken in. Acknowledgements are read
// first, progress next, what was sent last: each count only grows and no queue acknowledges more than was sent,
// so equal totals mean every message sent by the last read was taken in by the first, when no block had
// anything left (a block publishes its progress before it acknowledges).
bool all_done(Blocks& b) {
  std::uint64_t acknowledged = 0, written = 0;
  for (const auto& q : b.mail) acknowledged += q->acknowledged();
  for (std::uint32_t i = 0; i < b.count(); ++i)
    if (b.progress[i].next.load(std::memory_order_acquire) != kNoTime) return false;
  for (const auto& q : b.mail) written += q->written();
  return acknowledged == written;
}

// Runs the blocks on `threads` oneTBB workers. Block i is worker i mod threads' own; a worker that has long found
// nothing of its own to do steps any other block no worker holds, so the replay goes on at any number of threads.
void run_blocks(std::vector<std::unique_ptr<Engine>>& engines, Blocks& b, std::uint32_t threads) {
  constexpr std::uint32_t kStealAfter = 256;  // idle looks (each a short spin) before a worker steps others' blocks
  std::atomic<bool> finished{false};
  const std::unique_ptr<std::atomic<bool>[]> held(new std::atomic<bool>[b.count()]);
  for (std::uint32_t i = 0; i < b.count(); ++i) held[i].store(false);
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto step = [&](std::uint32_t i) {
    if (held[i].exchange(true, std::memory_order_acquire)) return false;
    bool did = false;
    try {
      did = engines[i]->step();
    } catch (...) {
      if (!failed.exchange(true)) failure = std::current_exception();
      finished.store(true, std::memory_order_release);
    }
    held[i].store(false, std::memory_order_release);
    return did;
  };
  // Each worker steps its own blocks (i mod threads), so that a block's state stays in one core's caches; it steps
  // the others only once it has waited a while with nothing of its own to do, in case their worker is not running
  // (more workers than cores, or a worker the system descheduled): the replay goes on at any number of threads.
  auto work = [&](std::uint32_t worker) {
    std::uint32_t idle = 0;
    while (!finished.load(std::memory_order_acquire)) {
      bool did = false;
      for (std::uint32_t i = worker; i < b.count(); i += threads) did |= step(i);
      if (!did && idle >= kStealAfter)
        for (std::uint32_t k = 1; k < b.count(); ++k) {
          const std::uint32_t i = (worker + k) % b.count();
          if (i % threads != worker) did |= step(i);
        }
      if (did) {
        idle = 0;
      } else if (all_done(b)) {
        finished.store(true, std::memory_order_release);
      } else if (++idle < 4096) {  // another worker is about to publish: wait briefly, without the kernel
        for (int spin = 0; spin < 16; ++spin) pause();
      } else {
        std::this_thread::yield();  // fewer cores than workers, or a long wait
      }
    }
  };
  Handoff handoff;
  handoff.give();
  oneapi::tbb::task_arena arena(static_cast<int>(threads));
  arena.execute([&] {
    oneapi::tbb::parallel_for(std::uint32_t{0}, threads, [&](std::uint32_t worker) {
      handoff.take();
      work(worker);
      handoff.give();
    }, oneapi::tbb::simple_partitioner{});
  });
  handoff.take();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

core::Expected<ReplayResult> run_replay(const graph::EventGraph& g, const MachineMap& map,
                                      const machine::MachineModel& model, const ReplayOptions& options) {
  SharedState shared;
  const Noise noise{options.perturb_sigma, options.perturb_seed};
  Engine first(g, map, model, options, shared);
  Partition partition;
  std::optional<core::InputError> copy_error;
  // Shared cores and start-ups run one engine: a node's clock would have to cross blocks in the same instant, and
  // the issue times they keep (ReplayResult::issued_at) are set up once, before any block would run.
  if (options.blocks < 2 || model.node.cores > 0 || model.runtime.processor_start_ns > 0) {
    copy_error = plan_copies(g, map, model, shared);
    if (!copy_error) init_shared(g, map, noise, shared);
  } else {
    // The split reads the graph and the copies' routes: it is worked out while the shared state is set up.
    Handoff handoff;
    handoff.give();
    oneapi::tbb::parallel_invoke([&] { handoff.take(); init_shared(g, map, noise, shared); handoff.give(); }, [&] {
      handoff.take();
      copy_error = plan_copies(g, map, model, shared);
      if (!copy_error)
        partition = partition_by_node(g, map, model, shared.copies, noise, options.blocks,
                                      {options.min_block_operations, options.min_lookahead_ns});
      handoff.give();
    });
    handoff.take();
  }
  if (copy_error) return *copy_error;
  if (partition.count < 2) {
    if (auto error = first.init_block()) return error->second;
    first.run_alone();
    std::vector<BlockOutput> outputs;
    outputs.push_back(first.take_output());
    assemble_result(g, map, options.stuck_examples, shared, outputs);
    return std::move(shared.r);
  }
  Blocks blocks(std::move(partition));
  std::vector<std::unique_ptr<Engine>> engines;
  for (std::uint32_t i = 0; i < blocks.count(); ++i)
    engines.push_back(std::make_unique<Engine>(g, map, model, options, shared, &blocks, i));
  std::vector<std::optional<std::pair<VertexId, core::InputError>>> errors(blocks.count());
  Handoff handoff;
  handoff.give();
  oneapi::tbb::parallel_for(std::uint32_t{0}, blocks.count(), [&](std::uint32_t i) {
    handoff.take();
    errors[i] = engines[i]->init_block();
    handoff.give();
  });
  handoff.take();
  std::optional<std::pair<VertexId, core::InputError>> error;
  for (auto& e : errors)
    if (e && (!error || e->first < error->first)) error = std::move(e);
  if (error) return error->second;  // the lowest task's, as on one engine
  for (auto& e : engines) e->publish();
  // No more workers than the machine has (oneTBB would not give them, and say so): a worker steps any free block.
  const auto cores = static_cast<std::uint32_t>(std::max(1, oneapi::tbb::info::default_concurrency()));
  run_blocks(engines, blocks, std::min(options.threads ? options.threads : blocks.count(), cores));
  std::vector<BlockOutput> outputs;
  for (auto& e : engines) outputs.push_back(e->take_output());
  assemble_result(g, map, options.stuck_examples, shared, outputs);
  shared.r.blocks = blocks.count();
  return std::move(shared.r);
}

}  // namespace rr::replay
