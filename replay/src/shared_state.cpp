#include "replay/src/shared_state.hpp"

#include <algorithm>

#include "replay/copy_route.hpp"
#include "replay/core_share.hpp"

namespace rr::replay {

namespace {

using graph::EdgeKind;
using graph::OpKind;
using graph::VertexId;

// Tasks without Task Time, and every operation after them, are left out of the estimate (ReplayResult).
void mark_outside_estimate(const graph::EventGraph& g, ReplayResult& r) {
  const VertexId n = g.vertex_count();
  std::vector<VertexId> todo;
  for (VertexId v = 0; v < n; ++v)
    if (g.kind(v) == OpKind::task && g.task(v).time_ns == graph::kNoTime) {
      ++r.tasks_without_time;
      todo.push_back(v);
    }
  for (VertexId v : g.outside_work()) {
    ++r.outside_work;
    todo.push_back(v);
  }
  if (todo.empty()) return;
  r.outside_estimate.assign(n, 0);
  for (VertexId v : todo) r.outside_estimate[v] = 1;
  // What waits on them is after them; what they issued before they ended is not (it ran on its own).
  while (!todo.empty()) {
    const VertexId v = todo.back();
    todo.pop_back();
    auto succ = g.successors(v);
    auto kinds = g.successor_kinds(v);
    for (std::size_t i = 0; i < succ.size(); ++i) {
      const VertexId w = succ[i];
      if (kinds[i] == EdgeKind::issue || r.outside_estimate[w]) continue;
      r.outside_estimate[w] = 1;
      todo.push_back(w);
    }
  }
  r.after_untimed = count_after_untimed(g, r.outside_estimate, {});
}

}  // namespace

std::uint64_t count_after_untimed(const graph::EventGraph& g, const std::vector<char>& outside,
                                  const std::function<bool(VertexId)>& counted) {
  const VertexId n = g.vertex_count();
  std::vector<char> not_counted(n, 0);
  for (VertexId v : g.outside_work()) not_counted[v] = 1;
  for (VertexId v = 0; v < n; ++v) {
    if (!outside[v]) continue;
    if (g.kind(v) == OpKind::task && g.task(v).time_ns == graph::kNoTime) not_counted[v] = 1;
    const auto succ = g.successors(v);
    const auto kinds = g.successor_kinds(v);
    for (std::size_t i = 0; i < succ.size(); ++i)
      if (kinds[i] == EdgeKind::continuation) not_counted[succ[i]] = 1;  // a later segment is the same task
  }
  std::uint64_t count = 0;
  for (VertexId v = 0; v < n; ++v) count += outside[v] && !not_counted[v] && (!counted || counted(v));
  return count;
}

std::optional<core::InputError> plan_copies(const graph::EventGraph& g, const MachineMap& map,
                                            const machine::MachineModel& model, SharedState& s) {
  CopyPlans& copies = s.copies;
  ReplayResult& r = s.r;
  copies.plans.resize(g.copy_count());
  const VertexId n = g.vertex_count();
  for (VertexId v = 0; v < n; ++v) {
    if (g.kind(v) != OpKind::copy) continue;
    const graph::CopyInfo& c = g.copy(v);
    const CopyRoute route = copy_route(g, map, v);
    const MemoryPlace& src = route.src;
    const MemoryPlace& dst = route.dst;
    CopyPlan& plan = copies.plans[g.payload(v)];
    plan.src_node = route.src_node;
    plan.dst_node = route.dst_node;
    r.copies_retargeted += route.retargeted;
    if (route.removed) {  // it would move the data to where it already is: no path, no time
      ++r.copies_removed;
      continue;
    }
    // One usage slot per distinct (source kind, destination kind, scope); its path is found and its name built
    // once.
    auto [slot, fresh] = copies.slot_of.try_emplace(std::make_tuple(src.kind, dst.kind, route.remote),
                                                    static_cast<std::uint32_t>(copies.path_names.size()));
    if (fresh) {
      const machine::CopyPath* path = model.path(src.kind, dst.kind, route.remote);
      if (path == nullptr)
        return core::InputError{core::SourceLocation{model.source, 0, std::nullopt},
                                "machine '" + model.name + "' has no [[paths]] entry for copies " +
                                    route_name(route) + ", needed by copy " + core::to_string(g.event(v))};
      copies.path_names.push_back(route_name(route));
      copies.slot_path.push_back(path);
    }
    if (c.bytes == graph::kNoValue) ++r.copies_default_size;
    plan.path_slot = slot->second;
  }
  return std::nullopt;
}

void init_shared(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model, Noise noise,
                 SharedState& s) {
  ReplayResult& r = s.r;
  OperationRecords& ops = r.ops;
  const VertexId n = g.vertex_count();
  ops.reset(n);
  r.noise = noise;
  r.processor_of.assign(n, ~0u);
  if (shares_cores(model)) r.issued_at.assign(n, kNever);
  r.processors.assign(map.processors().size(), {});
  s.phase.resize(g.phase_count());

  // Inputs counted along the forward edges (the replay does not need the graph's reverse CSR). A phase
  // waits only for the phase before it; its arrivals count through arrival_effect events. The edges into a
  // phase are its arrivals and its phase order, and arrivals go only into phases (EventGraph::structure_problem
  // holds every graph to it), so an edge counts unless it is an arrival, without a look at where it goes.
  bool first_of = false;
  for (VertexId v = 0; v < n; ++v) {
    first_of |= g.kind(v) == OpKind::first_of;
    auto succ = g.successors(v);
    auto kinds = g.successor_kinds(v);
    for (std::size_t i = 0; i < succ.size(); ++i)
      if (kinds[i] != EdgeKind::arrival) ops.add_pending(succ[i]);
  }
  if (!first_of && !g.has_external_delays()) {  // a Realm trace's graph: nothing to adjust
    mark_outside_estimate(g, r);
    return;
  }
  for (VertexId v = 0; v < n; ++v) {
    std::uint32_t count = ops.pending(v);
    // A completion queue fires on its first input: one input is all it waits for (later ones are ignored).
    if (g.kind(v) == OpKind::first_of) count = std::min<std::uint32_t>(count, 1);
    // An input no record produces: it fires EventGraph::external_delay after the others (Legion Prof logs).
    if (g.external_delay(v) > 0) {
      ++count;
      ops.set_waits_unrecorded(v, true);
    }
    ops.set_pending(v, count);
  }
  mark_outside_estimate(g, r);
}

}  // namespace rr::replay
