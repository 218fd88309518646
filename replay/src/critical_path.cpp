// Walks released_by links (the input that made each operation ready) backwards, partitioning [0, makespan] into
// classed steps, and computes the infinite-resource lower bound as a longest path over the replay's own durations
// and edge delays.
#include "replay/critical_path.hpp"

#include <algorithm>

#include "graph/graph_algorithms.hpp"
#include "replay/copy_route.hpp"
#include "replay/replayed_edges.hpp"
#include "replay/task_timing.hpp"
#include "replay/timing_rules.hpp"

namespace rr::replay {

const char* path_class_name(PathClass c) {
  switch (c) {
    case PathClass::compute: return "compute";
    case PathClass::copy: return "copy";
    case PathClass::runtime: return "runtime";
    case PathClass::latency: return "latency";
    case PathClass::contention: return "contention";
    case PathClass::issue: return "issue";
    case PathClass::wait: return "wait";
  }
  return "?";
}

namespace {

using graph::OpKind;
using graph::VertexId;

std::string own_label(const graph::EventGraph& g, const MachineMap& map, const ReplayResult& r, VertexId v,
                      PathClass* cls) {
  switch (g.kind(v)) {
    case OpKind::task:
    case OpKind::task_resume: {
      *cls = PathClass::compute;
      const auto& t = g.task(g.task_of(v));
      // The kind it ran on: its traced kind, or another one when its function was moved.
      const ModelProcessor* p = map.processor(r.processor_of[v]);
      const core::ProcessorKind kind = p ? p->kind : map.traced_kind(t.processor.value());
      return "compute " + std::string(core::processor_kind_name(kind)) + " " + g.function_name(t.func_id);
    }
    case OpKind::background:
      *cls = PathClass::compute;
      return "compute background " + g.function_name(g.task(v).func_id);
    case OpKind::copy:
      *cls = PathClass::copy;
      return "copy " + route_name(copy_route(g, map, v));
    default:
      *cls = PathClass::runtime;
      return std::string("runtime ") + graph::op_kind_name(g.kind(v));
  }
}

// What v queued for when it started after it was ready.
PathResource queued_for(const graph::EventGraph& g, const MachineMap& map, const ReplayResult& r, VertexId v) {
  PathResource res;
  switch (g.kind(v)) {
    case OpKind::task:
    case OpKind::task_resume:
      if (const ModelProcessor* p = map.processor(r.processor_of[v])) {
        res.type = PathResource::Type::processors;
        res.kind = p->kind;
        res.node = p->node;
      }
      break;
    case OpKind::copy: {
      const CopyRoute route = copy_route(g, map, v);
      res.type = PathResource::Type::copy_lanes;
      res.path = route_name(route);
      res.src = route.src.kind;
      res.dst = route.dst.kind;
      res.remote = route.remote;
      res.node = route.src_node;
      break;
    }
    default: break;
  }
  return res;
}

// When v's own work would have ended had it run alone from its start: its launch and its part of the task's busy
// time. Later than that, it shared the node's cores or waited for its processor's start-up. kNever when v is not
// work that takes a core.
TimeNs own_end(const graph::EventGraph& g, const ReplayResult& r, const TaskTiming& timing, VertexId v) {
  const OpKind kind = g.kind(v);
  if (kind == OpKind::background) return r.start(v) + timing.background_busy(v);
  if (kind != OpKind::task && kind != OpKind::task_resume) return kNever;
  const Issuing s = timing.as_replayed(v, r);
  return s.run_start + (s.shape.end - s.shape.begin);
}

}  // namespace

std::string resource_name(const PathResource& r) {
  const std::string node = ", node " + std::to_string(r.node);
  switch (r.type) {
    case PathResource::Type::processors: return std::string(core::processor_kind_name(r.kind)) + " processors" + node;
    case PathResource::Type::copy_lanes: return "copy lanes " + r.path + node;
    case PathResource::Type::cores: return "cores" + node;
    case PathResource::Type::start_ups: return "processor start-ups" + node;
    case PathResource::Type::other: break;
  }
  return "other";
}

std::string resource_group_name(const PathResource& r) {
  switch (r.type) {
    case PathResource::Type::processors: return std::string(core::processor_kind_name(r.kind)) + " processors (all nodes)";
    case PathResource::Type::copy_lanes: return "copy lanes " + r.path + " (all nodes)";
    case PathResource::Type::cores: return "cores (all nodes)";
    case PathResource::Type::start_ups: return "processor start-ups (all nodes)";
    case PathResource::Type::other: break;
  }
  return "other";
}

namespace {

// The walk back from the last operation: `hi` is where the part of the run not yet classed ends; each operation
// classes its own time, the gap from its ready time to its start, and the gap back to what made it ready.
class PathWalk {
 public:
  PathWalk(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model, const ReplayResult& r,
           CriticalPath& cp)
      : g_(g), map_(map), model_(model), r_(r), cp_(cp), timing_(g, map, model, r.noise),
        shared_(model.node.cores > 0 || model.runtime.processor_start_ns > 0) {}

  void from(VertexId v) {
    hi_ = v == graph::kNoVertex ? 0 : r_.end(v);
    for (std::uint64_t guard = 0; v != graph::kNoVertex && guard <= g_.vertex_count(); ++guard) {
      own_time(v);
      // Ready before it started: its processor or lane (or a start-up) was taken.
      contend(v, queued_for(g_, map_, r_, v), std::min(r_.ready(v), hi_), hi_);
      hi_ = std::min(r_.ready(v), hi_);
      v = back_to_input(v);
    }
    std::reverse(reversed_.begin(), reversed_.end());
    cp_.steps = std::move(reversed_);
  }

 private:
  void account(VertexId at, PathClass cls, std::string label, TimeNs begin, TimeNs end) {
    if (end <= begin) return;
    cp_.by_class[static_cast<std::size_t>(cls)] += end - begin;
    cp_.by_label[label] += end - begin;
    reversed_.push_back({at, cls, std::move(label), begin, end});
  }
  void contend(VertexId at, const PathResource& res, TimeNs begin, TimeNs end) {
    if (end <= begin) return;
    cp_.contention[res] += end - begin;
    account(at, PathClass::contention, "contention " + resource_name(res), begin, end);
  }

  // v's own work, or for an issuer only its part before the action it issued; hi_ moves to v's start.
  void own_time(VertexId v) {
    const TimeNs start = std::min(r_.start(v), hi_);
    if (via_issue_) {
      // Its node standing still for start-ups held the issue back too.
      TimeNs issued = hi_;
      if (shared_ && !r_.start_ups.empty()) {
        const ModelProcessor* p = map_.processor(r_.processor_of[v]);
        PathResource res;
        res.type = PathResource::Type::start_ups;
        res.node = p ? p->node : 0;
        issued = hi_ - frozen_within(res.node, start, hi_);
        contend(v, res, issued, hi_);
      }
      account(v, PathClass::issue, "issue " + g_.function_name(g_.task(g_.task_of(v)).func_id), start, issued);
    } else {
      PathClass cls;
      std::string label = own_label(g_, map_, r_, v, &cls);
      // Past its own work, a thread that took a core shared the node's cores or waited for its start-up.
      TimeNs own = hi_;
      if (shared_ && cls == PathClass::compute) {
        if (const TimeNs alone = own_end(g_, r_, timing_, v); alone != kNever && alone < hi_) {
          own = std::max(start, alone);
          const ModelProcessor* p = map_.processor(r_.processor_of[v]);
          PathResource res;
          res.node = p ? p->node : 0;
          // The time its node stood still for start-ups, then (with cores given) the time it shared them.
          const TimeNs frozen = model_.node.cores > 0 ? std::min(hi_ - own, frozen_within(res.node, start, hi_)) : hi_ - own;
          res.type = PathResource::Type::cores;
          contend(v, res, own, hi_ - frozen);
          res.type = PathResource::Type::start_ups;
          contend(v, res, hi_ - frozen, hi_);
        }
      }
      account(v, cls, label, start, own);
    }
    hi_ = start;
  }

  // How long `node` stood still for start-ups within [from, to).
  TimeNs frozen_within(std::uint32_t node, TimeNs from, TimeNs to) const {
    TimeNs sum = 0;
    for (const StartUp& s : r_.start_ups)
      if (s.node == node && s.from < to && from < s.to) sum += std::min(to, s.to) - std::max(from, s.from);
    return sum;
  }

  // The gap between v's ready time and what made it ready, classed; returns that operation (kNoVertex at the start).
  VertexId back_to_input(VertexId v) {
    const VertexId next = r_.released_by(v);
    switch (r_.release(v)) {
      case Release::none:
        return to_start(v);
      case Release::observed: {
        // It waited on an event no record produces, its measured delay after the recorded input (or the
        // issue) that came last, which released it before that.
        const TimeNs from = std::max<TimeNs>(0, hi_ - g_.external_delay(v));
        account(v, PathClass::wait, "wait (unrecorded event, measured delay)", from, hi_);
        hi_ = from;
        if (next == graph::kNoVertex) return to_start(v);
        via_issue_ = g_.task_of(next) == g_.issuer(v);
        if (via_issue_) {
          const TimeNs from_issue =
              std::max(hi_ - edge_delay_ns(g_, map_, model_, next, v, graph::EdgeKind::issue), r_.start(next));
          account(v, PathClass::latency, "latency", from_issue, hi_);
          hi_ = from_issue;
        } else {
          account(v, PathClass::latency, "latency", std::min(r_.end(next), hi_), hi_);
          hi_ = std::min(r_.end(next), hi_);
        }
        return next;
      }
      case Release::input: {
        // After the segment before it, a resume waits out a wait no record explains: measured, not latency.
        const bool measured_wait = g_.kind(v) == OpKind::task_resume && g_.resume_wait(v).awaited == graph::kNoVertex;
        if (measured_wait) {
          account(v, PathClass::wait, "wait (measured, unlogged event)", std::min(r_.end(next), hi_), hi_);
        } else {
          // An implied copy of a moved task's data is the last part of the gap; the rest is latency.
          const TimeNs copy = implied_copy_ns(g_, map_, model_, r_, next, v);
          const TimeNs copy_from = std::max(std::min(r_.end(next), hi_), hi_ - copy);
          account(v, PathClass::copy, "copy implied by a moved function", copy_from, hi_);
          account(v, PathClass::latency, "latency", std::min(r_.end(next), copy_from), copy_from);
        }
        hi_ = std::min(r_.end(next), hi_);
        via_issue_ = false;
        return next;
      }
      case Release::issue: {
        // The issue reached v one network latency later when they are on different nodes.
        const TimeNs delay = edge_delay_ns(g_, map_, model_, next, v, graph::EdgeKind::issue);
        account(v, PathClass::latency, "latency", std::max(hi_ - delay, r_.start(next)), hi_);
        hi_ = std::max(hi_ - delay, r_.start(next));
        via_issue_ = true;
        return next;
      }
    }
    return graph::kNoVertex;
  }

  // Nothing released v: from the start of the run it waited for its resource.
  VertexId to_start(VertexId v) {
    contend(v, queued_for(g_, map_, r_, v), 0, hi_);
    hi_ = 0;
    return graph::kNoVertex;
  }

  const graph::EventGraph& g_;
  const MachineMap& map_;
  const machine::MachineModel& model_;
  const ReplayResult& r_;
  CriticalPath& cp_;
  const TaskTiming timing_;
  const bool shared_;
  TimeNs hi_ = 0;
  bool via_issue_ = false;
  std::vector<PathStep> reversed_;
};

}  // namespace

CriticalPath critical_path(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                           const ReplayResult& r) {
  CriticalPath cp;
  cp.length_ns = r.makespan_ns;
  // The last operation to finish among those the estimate counts; ties to the lowest id.
  VertexId v = graph::kNoVertex;
  for (VertexId u = 0; u < g.vertex_count(); ++u)
    if (r.end(u) != kNever && r.counts(u) && (v == graph::kNoVertex || r.end(u) > r.end(v))) v = u;
  PathWalk(g, map, model, r, cp).from(v);

  // Lower bound: every operation takes its replayed duration and every edge its delay, but nothing queues.
  // An issued operation starts from its issuer's issue point, which is (end - issue time) before the issuer's end.
  // A phase's own span is spent waiting for its arrivals, which the edges already carry: it weighs nothing.
  // Operations outside the estimate weigh nothing, nor do the edges into them: they cannot lengthen the bound.
  const OperationRecords& times = r.ops;
  auto weight = [&](VertexId u) -> std::int64_t {
    if (!times.ended(u) || g.kind(u) == OpKind::barrier_phase || !r.counts(u)) return 0;
    return times.run(u);
  };
  ReplayedEdges edges(g, map, model, r);
  auto edge = [&](VertexId from, VertexId to, graph::EdgeKind kind) -> std::int64_t {
    if (!times.ended(from) || !times.ended(to) || !r.counts(to)) return 0;
    return edges.delay(from, to, kind);
  };
  cp.lower_bound_ns = graph::longest_path_length(g, weight, edge);
  return cp;
}

}  // namespace rr::replay
