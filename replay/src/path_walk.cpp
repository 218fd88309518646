// The critical path's walk (path_walk.hpp): each operation's own time, the gap from its ready time to its start,
// and the gap back to what made it ready, classed.
#include "replay/src/path_walk.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "replay/copy_route.hpp"
#include "replay/core_share.hpp"
#include "replay/timing_rules.hpp"

namespace rr::replay {

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

PathWalk::PathWalk(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                   const ReplayResult& r, std::function<bool(VertexId)> mine, std::uint64_t whole_vertices)
    : g_(g), map_(map), model_(model), r_(r), mine_(std::move(mine)), timing_(g, map, model, r.noise),
      shared_(shares_cores(model)),
      longest_(whole_vertices ? whole_vertices : g.vertex_count()) {}

std::optional<PathHandover> PathWalk::from_last(VertexId v) {
  hi_ = v == graph::kNoVertex ? 0 : r_.end(v);
  return walk(v, 0);
}

std::optional<PathHandover> PathWalk::from(const PathHandover& h) {
  check_mine(h.next);
  arrive(h);
  return walk(h.next, h.walked);
}

// Each operation whose record is this process's, back from v: its own time, the wait for its resource, and the
// gap back to what released it. A cycle of releases (a broken replay) ends the walk once it has gone round.
std::optional<PathHandover> PathWalk::walk(VertexId v, std::uint64_t walked) {
  for (; v != graph::kNoVertex && walked <= longest_; ++walked) {
    check_mine(v);
    own_time(v);
    // Ready before it started: its processor or lane (or a start-up) was taken.
    contend(v, queued_for(g_, map_, r_, v), std::min(r_.ready(v), hi_), hi_);
    hi_ = std::min(r_.ready(v), hi_);
    std::optional<PathHandover> h = leave(v, walked + 1);
    if (!h) return std::nullopt;
    if (mine_ && !mine_(h->next)) return h;
    arrive(*h);
    v = h->next;
  }
  return std::nullopt;
}

void PathWalk::check_mine(VertexId v) const {
  if (mine_ && !mine_(v))
    throw std::logic_error("critical path: the walk reached operation " + std::to_string(g_.whole_id(v)) +
                           ", whose record another rank holds");
}

// A step names its operation by whole id, with its event: whoever lays the steps together needs no graph.
void PathWalk::account(VertexId at, PathClass cls, std::string label, TimeNs begin, TimeNs end) {
  if (end <= begin) return;
  reversed_.push_back({g_.whole_id(at), cls, std::move(label), begin, end, g_.event(at)});
}

void PathWalk::contend(VertexId at, const PathResource& res, TimeNs begin, TimeNs end) {
  if (end <= begin) return;
  contention_[res] += end - begin;
  account(at, PathClass::contention, "contention " + resource_name(res), begin, end);
}

// v's own work, or for an issuer only its part before the action it issued; hi_ moves to v's start.
void PathWalk::own_time(VertexId v) {
  const TimeNs start = std::min(r_.start(v), hi_);
  if (via_issue_) {
    // Its node standing still for start-ups held the issue back too.
    TimeNs issued = hi_;
    if (shared_ && !r_.start_ups.empty()) {
      PathResource res;
      res.type = PathResource::Type::start_ups;
      res.node = work_node(v);
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
        PathResource res;
        res.node = work_node(v);
        // The time its node stood still for start-ups, then (with cores given) the time it shared them.
        const TimeNs frozen = model_.node.cores > 0 ? std::min(hi_ - own, frozen_within(res.node, start, hi_)) : hi_ - own;
        res.type = PathResource::Type::cores;
        contend(v, res, own, hi_ - frozen);
        res.type = PathResource::Type::start_ups;
        contend(v, res, hi_ - frozen, hi_);
      }
    }
    account(v, cls, label, start, own);
    if (cls == PathClass::compute && own > start) compute_of(v, own - start);
  }
  hi_ = start;
}

// v's own work on the path, by its function and the kind it ran on.
void PathWalk::compute_of(VertexId v, TimeNs ns) {
  if (g_.kind(v) == OpKind::background) {
    functions_[{g_.task(v).func_id, core::ProcessorKind::cpu}] += ns;
  } else if (const ModelProcessor* p = map_.processor(r_.processor_of[v])) {
    functions_[{g_.task(g_.task_of(v)).func_id, p->kind}] += ns;
  }
}

// The node whose cores v's work took (CoreShare): its processor's, or background work's own node's. A rank walks
// only its own operations, and so reads only its own nodes' start-ups.
std::uint32_t PathWalk::work_node(VertexId v) const {
  if (g_.kind(v) == OpKind::background) return map_.fold(g_.node(v));
  const ModelProcessor* p = map_.processor(r_.processor_of[v]);
  return p ? p->node : 0;
}

// How long `node` stood still for start-ups within [from, to).
TimeNs PathWalk::frozen_within(std::uint32_t node, TimeNs from, TimeNs to) const {
  TimeNs sum = 0;
  for (const StartUp& s : r_.start_ups)
    if (s.node == node && s.from < to && from < s.to) sum += std::min(to, s.to) - std::max(from, s.from);
  return sum;
}

// What of the gap back from v its own record and graph data class (a measured wait on an unrecorded event), and
// the hand-over to what released it; nothing when nothing did (the walk has reached the start of the run).
std::optional<PathHandover> PathWalk::leave(VertexId v, std::uint64_t walked) {
  PathHandover h{v, r_.released_by(v), 0, walked, r_.release(v), 0, graph::kNoVertex};
  switch (h.release) {
    case Release::none:
      to_start(v);
      return std::nullopt;
    case Release::observed: {
      // It waited on an event no record produces, its measured delay after the recorded input (or the issue)
      // that came last, which released it before that.
      const TimeNs from = std::max<TimeNs>(0, hi_ - g_.external_delay(v));
      account(v, PathClass::wait, "wait (unrecorded event, measured delay)", from, hi_);
      hi_ = from;
      if (h.next == graph::kNoVertex) {
        to_start(v);
        return std::nullopt;
      }
      h.issuer = g_.issuer(v);
      break;
    }
    case Release::input:
      // After the segment before it, a resume waits out a wait no record explains: measured, not latency.
      h.measured_wait = g_.kind(v) == OpKind::task_resume && g_.resume_wait(v).awaited == graph::kNoVertex;
      break;
    case Release::issue: break;
  }
  h.hi = hi_;
  return h;
}

// The gap between h.from's ready time and h.next's end (or its issue), classed from h.next's record and the edge
// that leaves it.
void PathWalk::arrive(const PathHandover& h) {
  const VertexId v = h.from, next = h.next;
  hi_ = h.hi;
  switch (h.release) {
    case Release::observed:
      via_issue_ = g_.task_of(next) == h.issuer;
      if (via_issue_) {
        const TimeNs from_issue =
            std::max(hi_ - edge_delay_ns(g_, map_, model_, next, v, graph::EdgeKind::issue), r_.start(next));
        account(v, PathClass::latency, "latency", from_issue, hi_);
        hi_ = from_issue;
      } else {
        account(v, PathClass::latency, "latency", std::min(r_.end(next), hi_), hi_);
        hi_ = std::min(r_.end(next), hi_);
      }
      return;
    case Release::input: {
      if (h.measured_wait) {
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
      return;
    }
    case Release::issue: {
      // The issue reached v one network latency later when they are on different nodes.
      const TimeNs delay = edge_delay_ns(g_, map_, model_, next, v, graph::EdgeKind::issue);
      account(v, PathClass::latency, "latency", std::max(hi_ - delay, r_.start(next)), hi_);
      hi_ = std::max(hi_ - delay, r_.start(next));
      via_issue_ = true;
      return;
    }
    case Release::none: break;
  }
  throw std::logic_error("critical path: a hand-over without a release");
}

// Nothing released v: from the start of the run it waited for its resource.
void PathWalk::to_start(VertexId v) {
  contend(v, queued_for(g_, map_, r_, v), 0, hi_);
  hi_ = 0;
}

void lay_steps(std::vector<PathStep> reversed, CriticalPath& cp) {
  std::reverse(reversed.begin(), reversed.end());
  for (const PathStep& s : reversed) {
    cp.by_class[static_cast<std::size_t>(s.cls)] += s.end - s.begin;
    cp.by_label[s.label] += s.end - s.begin;
  }
  cp.steps = std::move(reversed);
}

}  // namespace rr::replay
