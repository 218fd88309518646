// Walks released_by links (the input that made each operation ready) backwards, partitioning [0, makespan] into
// classed steps, and computes the infinite-resource lower bound as a longest path over the replay's own durations
// and edge delays.
#include "replay/critical_path.hpp"

#include <algorithm>

#include "graph/graph_algorithms.hpp"
#include "replay/replayed_edges.hpp"
#include "replay/src/network_critical_path.hpp"
#include "replay/src/path_walk.hpp"

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

using graph::OpKind;
using graph::VertexId;

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

TimeNs infinite_resource_bound(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                               const ReplayResult& r) {
  // Every operation takes its replayed duration and every edge its delay, but nothing queues.
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
  return graph::longest_path_length(g, weight, edge);
}

}  // namespace

CriticalPath critical_path(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                           const ReplayResult& r) {
  if (r.over_ranks) return critical_path_over_ranks(g, map, model, r);
  CriticalPath cp;
  cp.length_ns = r.makespan_ns;
  // The last operation to finish among those the estimate counts; ties to the lowest id.
  VertexId v = graph::kNoVertex;
  for (VertexId u = 0; u < g.vertex_count(); ++u)
    if (r.end(u) != kNever && r.counts(u) && (v == graph::kNoVertex || r.end(u) > r.end(v))) v = u;
  PathWalk walk(g, map, model, r);
  walk.from_last(v);
  lay_steps(std::move(walk.walked_steps()), cp);
  cp.contention = std::move(walk.contention());
  cp.compute_by_function = std::move(walk.compute_by_function());
  cp.lower_bound_ns = infinite_resource_bound(g, map, model, r);
  return cp;
}

}  // namespace rr::replay
