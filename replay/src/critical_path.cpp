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
      const core::ProcessorKind kind = r.processor_of[v] < map.processors().size()
                                           ? map.processors()[r.processor_of[v]].kind
                                           : map.traced_kind(t.processor.value());
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
      if (r.processor_of[v] < map.processors().size()) {
        const ModelProcessor& p = map.processors()[r.processor_of[v]];
        res.type = PathResource::Type::processors;
        res.kind = p.kind;
        res.node = p.node;
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

CriticalPath critical_path(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                           const ReplayResult& r) {
  CriticalPath cp;
  cp.length_ns = r.makespan_ns;
  // The last operation to finish among those the estimate counts; ties to the lowest id.
  VertexId v = graph::kNoVertex;
  for (VertexId u = 0; u < g.vertex_count(); ++u)
    if (r.end(u) != kNever && r.counts(u) && (v == graph::kNoVertex || r.end(u) > r.end(v))) v = u;

  std::vector<PathStep> reversed;
  auto account = [&](VertexId at, PathClass cls, std::string label, TimeNs begin, TimeNs end) {
    if (end <= begin) return;
    cp.by_class[static_cast<std::size_t>(cls)] += end - begin;
    cp.by_label[label] += end - begin;
    reversed.push_back({at, cls, std::move(label), begin, end});
  };
  auto contend = [&](VertexId at, const PathResource& res, TimeNs begin, TimeNs end) {
    if (end <= begin) return;
    cp.contention[res] += end - begin;
    account(at, PathClass::contention, "contention " + resource_name(res), begin, end);
  };
  const TaskTiming timing(g, map, model, r.noise);
  const bool shared = model.node.cores > 0 || model.runtime.processor_start_ns > 0;

  TimeNs hi = v == graph::kNoVertex ? 0 : r.end(v);
  bool via_issue = false;
  for (std::uint64_t guard = 0; v != graph::kNoVertex && guard <= g.vertex_count(); ++guard) {
    // v's own work, or for an issuer only its part before the action it issued.
    const TimeNs start = std::min(r.start(v), hi);
    if (via_issue) {
      const auto& t = g.task(g.task_of(v));
      account(v, PathClass::issue, "issue " + g.function_name(t.func_id), start, hi);
    } else {
      PathClass cls;
      std::string label = own_label(g, map, r, v, &cls);
      // Past its own work, a thread that took a core shared the node's cores or waited for its start-up.
      TimeNs own = hi;
      if (shared && cls == PathClass::compute) {
        if (const TimeNs alone = own_end(g, r, timing, v); alone != kNever && alone < hi) {
          own = std::max(start, alone);
          const std::uint32_t p = r.processor_of[v];
          PathResource res;
          res.type = model.node.cores > 0 ? PathResource::Type::cores : PathResource::Type::start_ups;
          res.node = p < map.processors().size() ? map.processors()[p].node : 0;
          contend(v, res, own, hi);
        }
      }
      account(v, cls, label, start, own);
    }
    hi = start;
    // Ready before it started: its processor or lane (or a start-up) was taken.
    contend(v, queued_for(g, map, r, v), std::min(r.ready(v), hi), hi);
    hi = std::min(r.ready(v), hi);
    const VertexId next = r.released_by(v);
    switch (r.release(v)) {
      case Release::none:
        contend(v, queued_for(g, map, r, v), 0, hi);
        hi = 0;
        v = graph::kNoVertex;
        continue;
      case Release::observed: {
        // It waited on an event no record produces, its measured delay after the recorded input (or the
        // issue) that came last, which released it before that.
        const TimeNs from = std::max<TimeNs>(0, hi - g.external_delay(v));
        account(v, PathClass::wait, "wait (unrecorded event, measured delay)", from, hi);
        hi = from;
        if (next == graph::kNoVertex) {
          contend(v, queued_for(g, map, r, v), 0, hi);
          hi = 0;
          v = graph::kNoVertex;
          continue;
        }
        via_issue = g.task_of(next) == g.issuer(v);
        if (via_issue) {
          const TimeNs from_issue = std::max(hi - edge_delay_ns(g, map, model, next, v, graph::EdgeKind::issue), r.start(next));
          account(v, PathClass::latency, "latency", from_issue, hi);
          hi = from_issue;
        } else {
          account(v, PathClass::latency, "latency", std::min(r.end(next), hi), hi);
          hi = std::min(r.end(next), hi);
        }
        break;
      }
      case Release::input: {
        // After the segment before it, a resume waits out a wait no record explains: measured, not latency.
        const bool measured_wait = g.kind(v) == OpKind::task_resume && g.resume_wait(v).awaited == graph::kNoVertex;
        if (measured_wait) {
          account(v, PathClass::wait, "wait (measured, unlogged event)", std::min(r.end(next), hi), hi);
        } else {
          // An implied copy of a moved task's data is the last part of the gap; the rest is latency.
          const TimeNs copy = implied_copy_ns(g, map, model, r, next, v);
          const TimeNs copy_from = std::max(std::min(r.end(next), hi), hi - copy);
          account(v, PathClass::copy, "copy implied by a moved function", copy_from, hi);
          account(v, PathClass::latency, "latency", std::min(r.end(next), copy_from), copy_from);
        }
        hi = std::min(r.end(next), hi);
        via_issue = false;
        break;
      }
      case Release::issue: {
        // The issue reached v one network latency later when they are on different nodes.
        const TimeNs delay = edge_delay_ns(g, map, model, next, v, graph::EdgeKind::issue);
        account(v, PathClass::latency, "latency", std::max(hi - delay, r.start(next)), hi);
        hi = std::max(hi - delay, r.start(next));
        via_issue = true;
        break;
      }
    }
    v = next;
  }
  std::reverse(reversed.begin(), reversed.end());
  cp.steps = std::move(reversed);

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
