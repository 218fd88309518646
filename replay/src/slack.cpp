// The slack pass: resource order as extra edges, a forward topological order over both, then latest ends backwards.
#include "replay/slack.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "replay/copy_route.hpp"
#include "replay/replayed_edges.hpp"

namespace rr::replay {

namespace {

using graph::OpKind;
using graph::VertexId;

// next[v]: the operation that ran after v on v's processor or copy lane, or kNoVertex.
std::vector<VertexId> resource_successors(const graph::EventGraph& g, const MachineMap& map,
                                          const machine::MachineModel& model, const ReplayResult& r) {
  const VertexId n = g.vertex_count();
  std::vector<VertexId> next(n, graph::kNoVertex);
  auto by_start = [&](VertexId a, VertexId b) { return r.start(a) != r.start(b) ? r.start(a) < r.start(b) : a < b; };
  // Task segments, by processor.
  std::vector<std::vector<VertexId>> on(map.processors().size());
  // Copies, by (first hop channel, source node): then into lanes, each copy on the lane that freed first.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<VertexId>> copies;
  for (VertexId v = 0; v < n; ++v) {
    if (r.start(v) == kNever || r.end(v) == kNever) continue;
    const OpKind kind = g.kind(v);
    if ((kind == OpKind::task || kind == OpKind::task_resume) && r.processor_of[v] < on.size()) {
      on[r.processor_of[v]].push_back(v);
    } else if (kind == OpKind::copy) {
      const CopyRoute route = copy_route(g, map, v);
      if (route.removed) continue;
      const machine::CopyPath* path = model.path(route.src.kind, route.dst.kind, route.remote);
      if (path && !path->hops.empty()) copies[{path->hops.front(), route.src_node}].push_back(v);
    }
  }
  for (auto& list : on) {
    std::sort(list.begin(), list.end(), by_start);
    for (std::size_t i = 0; i + 1 < list.size(); ++i) next[list[i]] = list[i + 1];
  }
  for (auto& [key, list] : copies) {
    std::sort(list.begin(), list.end(), by_start);
    std::vector<VertexId> lane_last(std::max<std::uint32_t>(1, model.channels[key.first].lanes), graph::kNoVertex);
    for (VertexId c : list) {
      // The lane free longest ago (or never used); a copy that found none free waited for the one that freed first.
      std::size_t best = 0;
      for (std::size_t l = 1; l < lane_last.size(); ++l) {
        const VertexId a = lane_last[l], b = lane_last[best];
        if (b == graph::kNoVertex) break;
        if (a == graph::kNoVertex || r.end(a) < r.end(b)) best = l;
      }
      if (lane_last[best] != graph::kNoVertex) next[lane_last[best]] = c;
      lane_last[best] = c;
    }
  }
  return next;
}

}  // namespace

std::vector<TimeNs> operation_slack(const graph::EventGraph& g, const MachineMap& map,
                                    const machine::MachineModel& model, const ReplayResult& r) {
  const VertexId n = g.vertex_count();
  const std::vector<VertexId> next = resource_successors(g, map, model, r);

  // A forward topological order of the graph and the resource order together (Kahn), walked backwards.
  std::vector<std::uint32_t> incoming(n, 0);
  for (VertexId v = 0; v < n; ++v) {
    for (VertexId w : g.successors(v)) ++incoming[w];
    if (next[v] != graph::kNoVertex) ++incoming[next[v]];
  }
  std::vector<VertexId> order;
  order.reserve(n);
  for (VertexId v = 0; v < n; ++v)
    if (incoming[v] == 0) order.push_back(v);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const VertexId v = order[i];
    for (VertexId w : g.successors(v))
      if (--incoming[w] == 0) order.push_back(w);
    if (next[v] != graph::kNoVertex && --incoming[next[v]] == 0) order.push_back(next[v]);
  }

  // latest[v]: the latest v could end. Each constraint: a target must not start later than its own latest start.
  constexpr TimeNs kFree = std::numeric_limits<TimeNs>::max();
  std::vector<TimeNs> latest(n, kFree);
  ReplayedEdges edges(g, map, model, r);
  auto latest_start = [&](VertexId w) { return latest[w] == kFree ? kFree : latest[w] - (r.end(w) - r.start(w)); };
  std::vector<TimeNs> slack(n, kUnboundedSlack);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const VertexId v = *it;
    if (r.end(v) == kNever) continue;
    TimeNs bound = r.counts(v) ? r.makespan_ns : kFree;
    auto limit = [&](TimeNs room) { bound = std::min(bound, r.end(v) + room); };
    auto succ = g.successors(v);
    auto kinds = g.successor_kinds(v);
    for (std::size_t i = 0; i < succ.size(); ++i) {
      const VertexId w = succ[i];
      if (r.end(w) == kNever || latest[w] == kFree) continue;
      // When v's effect reached w (with a measured wait that starts from it). v moved later by d reaches w at
      // arrival + d, which must not pass w's latest start; the time w waited for its resource is room too.
      const TimeNs arrival = r.end(v) + edges.delay(v, w, kinds[i]) + g.external_delay(w);
      limit(latest_start(w) - arrival);
    }
    if (next[v] != graph::kNoVertex && latest[next[v]] != kFree) limit(latest_start(next[v]) - r.end(v));
    // Never earlier than its own end: the replay's rounding and the recomputed lanes may disagree by a little.
    if (bound != kFree) bound = std::max(bound, r.end(v));
    latest[v] = bound;
    if (bound != kFree) slack[v] = bound - r.end(v);
  }
  return slack;
}

}  // namespace rr::replay
