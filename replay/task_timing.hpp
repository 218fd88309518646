// How long a task's work takes on the model and where in it each of its actions happens (docs/replay.md, Replay
// rules: Tasks and Issue), with the run's noise. The engine schedules by these rules; the critical path's lower
// bound recomputes issue times by the same rules, so a replay need not keep an issue time per operation.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/saturating.hpp"
#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"
#include "replay/timing_rules.hpp"

namespace rr::replay {

// The part [begin, end] of a task's busy time that one of its segments runs.
struct SegmentShape {
  TimeNs begin;
  TimeNs end;
};

// Where a running segment (or background operation) issues its actions: its own work starts at run_start and
// covers `shape` of the task's busy time `busy`.
struct Issuing {
  const graph::TaskInfo* task;
  TimeNs busy;
  TimeNs run_start;
  SegmentShape shape;
};

class TaskTiming {
 public:
  TaskTiming(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model, Noise noise)
      : g_(g), map_(map), model_(model), noise_(noise) {}

  // exp(sigma·z − sigma²/2) with z standard normal from (seed, v): a mean-1 lognormal factor that depends
  // on nothing but the seed and the operation, so samples are the same whatever runs them.
  double noise_factor(graph::VertexId v) const {
    auto mix = [](std::uint64_t x) {
      x += 0x9e3779b97f4a7c15ull;
      x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
      x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
      return x ^ (x >> 31);
    };
    const std::uint64_t a = mix(noise_.seed ^ mix(v));
    const std::uint64_t b = mix(a);
    const double u1 = (static_cast<double>(a >> 11) + 0.5) * 0x1p-53;  // (0, 1)
    const double u2 = static_cast<double>(b >> 11) * 0x1p-53;
    const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    const double s = noise_.sigma;
    return std::exp(s * z - 0.5 * s * s);
  }
  // Keyed by the operation's id in the whole graph, so that a rank replaying from its part (whose graph numbers
  // its vertices locally) draws what one engine draws.
  TimeNs perturbed(TimeNs duration, graph::VertexId v) const {
    if (noise_.sigma <= 0 || duration <= 0) return duration;
    // Noise scales a duration, never removes it: a positive one stays at least 1 ns (a factor of e^-10 would
    // round it to 0), so that a hop between blocks keeps the delay the split replay runs ahead by.
    return std::max<TimeNs>(1, core::held_round(static_cast<double>(duration) * noise_factor(g_.whole_id(v))));
  }

  // Busy time of a task on a processor of `kind`: the traced busy time (× the move's factor when the task runs
  // on another kind than it was traced on), divided by the model's speed of that kind.
  TimeNs task_busy(graph::VertexId task, core::ProcessorKind kind) const {
    const graph::TaskInfo& t = g_.task(task);
    if (t.time_ns == graph::kNoTime) return 0;
    TimeNs busy = std::max<TimeNs>(0, t.time_ns - total_wait_ns(task));
    if (!map_.mapping().moves.empty() && kind != map_.traced_kind(t.processor.value()))
      if (const machine::FunctionMove* m = map_.move(t.func_id); m && m->factor)
        busy = core::held_round(static_cast<double>(busy) * *m->factor);
    return perturbed(model_.scale_busy(kind, t.func_id, busy), task);
  }

  // Realm's own background work (dependent partitioning) holds no modelled processor; it runs as fast as the
  // model's CPUs relative to the traced ones.
  TimeNs background_busy(graph::VertexId v) const {
    const graph::TaskInfo& t = g_.task(v);
    return perturbed(model_.scale_busy(core::ProcessorKind::cpu, t.func_id, std::max<TimeNs>(0, t.time_ns)), v);
  }

  // The runtime's own work on a processor of `kind` before a segment's: the launch cost of a task (its first
  // segment), and the overhead of every segment (ProcessorClass::segment_overhead_ns).
  TimeNs launch_ns(bool first, core::ProcessorKind kind) const {
    return (first ? model_.runtime.task_launch_ns : 0) + model_.processor(kind).segment_overhead_ns;
  }

  // Where action k of K happens in a busy time: where the traced run observed it when the trace says
  // (`fraction` >= 0, Legion Prof logs), else by the issue point rule.
  TimeNs action_offset(TimeNs busy, std::uint32_t k, std::uint32_t count, float fraction = -1) const {
    switch (model_.issue_point) {
      case machine::IssuePoint::start: return 0;
      case machine::IssuePoint::end: return busy;
      case machine::IssuePoint::interpolate: break;
    }
    if (fraction >= 0) return static_cast<TimeNs>(std::llround(static_cast<double>(busy) * fraction));
    // busy * (k+1) can exceed 64 bits for long tasks with many actions: then multiply in 128 bits (whose
    // division is a library call, so not when 64 bits hold the product).
    if (TimeNs product; busy >= 0 && !__builtin_mul_overflow(busy, TimeNs{k} + 1, &product))
      return product / (TimeNs{count} + 1);
    __extension__ using Wide = __int128;
    return static_cast<TimeNs>(static_cast<Wide>(busy) * (Wide{k} + 1) / (Wide{count} + 1));
  }

  // The sum of a task's measured waits, summed once per task: every segment of the task asks for it, and a
  // task with many waits made that quadratic.
  TimeNs total_wait_ns(graph::VertexId task) const {
    const std::uint32_t first = g_.task(task).first_wait;
    if (first == graph::kNoWait) return 0;
    if (wait_total_.empty()) wait_total_.assign(g_.waits().size(), -1);
    if (wait_total_[first] < 0) wait_total_[first] = g_.wait_ns(task);
    return wait_total_[first];
  }

  SegmentShape segment_shape(graph::VertexId segment, graph::VertexId task, TimeNs busy) const {
    const graph::TaskInfo& t = g_.task(task);
    auto waits = g_.waits_of(task);
    std::uint32_t index = 0;  // 0 = the task vertex itself, i = after wait i-1
    if (g_.kind(segment) == graph::OpKind::task_resume) index = g_.payload(segment) - t.first_wait + 1;
    TimeNs begin = index == 0 ? 0 : action_offset(busy, waits[index - 1].position, t.action_count, waits[index - 1].fraction);
    TimeNs end = index == waits.size() ? busy : action_offset(busy, waits[index].position, t.action_count, waits[index].fraction);
    return {begin, std::max(begin, end)};
  }

  // A task segment started at `start` on model processor `processor`.
  Issuing segment(graph::VertexId v, graph::VertexId task, TimeNs start, std::uint32_t processor) const {
    const core::ProcessorKind kind = map_.processors()[processor].kind;
    const TimeNs busy = task_busy(task, kind);
    return {&g_.task(task), busy, start + launch_ns(v == task, kind), segment_shape(v, task, busy)};
  }
  // A background operation started at `start`.
  Issuing background(graph::VertexId v, TimeNs start) const {
    const TimeNs busy = background_busy(v);
    return {&g_.task(v), busy, start, {0, busy}};
  }
  // How issuer v ran in replay r, which started it (on a model processor, for a segment): a task segment, or a
  // background operation.
  Issuing as_replayed(graph::VertexId v, const ReplayResult& r) const {
    if (g_.kind(v) == graph::OpKind::background) return background(v, r.start(v));
    return segment(v, g_.task_of(v), r.start(v), r.processor_of[v]);
  }
  // When the running segment reaches `action`, before the issue crosses to the action's node.
  TimeNs issue_point(const Issuing& s, graph::VertexId action) const {
    const TimeNs offset = action_offset(s.busy, g_.position(action), s.task->action_count, g_.issue_fraction(action));
    return s.run_start + std::clamp(offset, s.shape.begin, s.shape.end) - s.shape.begin;
  }
  // When the issue of `action` by `issuer`, running as `s`, reaches the action's node: its ready time, as far as
  // the issue goes.
  TimeNs issue_arrival(const Issuing& s, graph::VertexId issuer, graph::VertexId action) const {
    return issue_point(s, action) + edge_delay_ns(g_, map_, model_, issuer, action, graph::EdgeKind::issue);
  }

 private:
  const graph::EventGraph& g_;
  const MachineMap& map_;
  const machine::MachineModel& model_;
  Noise noise_;
  mutable std::vector<TimeNs> wait_total_;  // total_wait_ns at each waiting task's first wait; -1 until asked
};

// When `issuer` (a task segment or background operation that started in replay r) issued `action`, the issue
// crossed to the action's node included: what the engine contributed to the action's ready time. kNever when
// the issuer never started or issues nothing (it is not a task segment or background work). Each call sets up
// its own TaskTiming: for many operations, keep one and use as_replayed once per issuer, then issue_arrival.
inline TimeNs issue_time(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                         const ReplayResult& r, graph::VertexId issuer, graph::VertexId action) {
  const graph::OpKind kind = g.kind(issuer);
  const bool segment = kind == graph::OpKind::task || kind == graph::OpKind::task_resume;
  if (!segment && kind != graph::OpKind::background) return kNever;
  if (r.start(issuer) == kNever || (segment && r.processor_of[issuer] >= map.processors().size())) return kNever;
  if (!r.issued_at.empty()) return r.issued_at[action];  // cores were shared: the engine kept it
  const TaskTiming timing(g, map, model, r.noise);
  return timing.issue_arrival(timing.as_replayed(issuer, r), issuer, action);
}

}  // namespace rr::replay
