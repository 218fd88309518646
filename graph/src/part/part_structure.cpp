// GraphPart::structure_problem: what a part that comes from outside (a packed trace read rank by rank) must hold so
// that walking it indexes no array past its end, as far as the part's own rows tell.
#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "graph/graph_part.hpp"
#include "graph/src/structure_limits.hpp"

namespace rr::graph {

namespace {

using namespace limits;

std::string at(const char* what, std::uint64_t id) { return std::string(what) + " " + std::to_string(id); }

// The size of the local array a vertex of kind k names by local_payload; 0 for kinds that name none.
std::size_t payload_room(const GraphPart& p, OpKind k, bool& names_one) {
  names_one = true;
  switch (k) {
    case OpKind::task:
    case OpKind::background: return p.tasks.size();
    case OpKind::copy: return p.copies.size();
    case OpKind::barrier_phase: return p.phases.size();
    case OpKind::barrier_alter:
    case OpKind::barrier_arrive: return p.barrier_values.size();
    case OpKind::task_resume: return p.waits.size();
    default: names_one = false; return 0;
  }
}

std::string wait_problem(const GraphPart& p, std::size_t i) {
  const WaitInfo& w = p.waits[p.local_payload[i]];
  if (w.resume != p.ids[i]) return at("a wait resumed by no segment at vertex", p.ids[i]);
  if (w.task >= p.whole_vertices) return at("a wait of no task at vertex", p.ids[i]);
  if (w.awaited != kNoVertex && w.awaited >= p.whole_vertices) return at("a wait on no vertex at vertex", p.ids[i]);
  if (w.wait_ns < 0 || w.wait_ns > kMaxDuration) return at("a wait time out of range at vertex", p.ids[i]);
  if (!is_fraction(w.fraction)) return at("a wait's fraction of its task out of range at vertex", p.ids[i]);
  return {};
}

// One vertex alone and the edges leaving it.
std::string vertex_problem(const GraphPart& p, std::size_t i) {
  const VertexId v = p.ids[i];
  if (i > 0 && v <= p.ids[i - 1]) return at("ids not in ascending order at vertex", v);
  if (v >= p.whole_vertices) return at("a vertex outside the graph:", v);
  if (p.edge_offset[i + 1] < p.edge_offset[i]) return at("successor offsets decrease at vertex", v);
  const OpKind k = p.kind[i];
  if (static_cast<std::size_t>(k) >= kOpKindCount) return at("an operation of no kind at vertex", v);
  bool names_one = false;
  const std::size_t room = payload_room(p, k, names_one);
  if (names_one && p.local_payload[i] >= room) return at("an attribute index out of range at vertex", v);
  if (is_task_like(k)) {
    const TaskInfo& t = p.tasks[p.local_payload[i]];
    if (t.time_ns != kNoTime && (t.time_ns < 0 || t.time_ns > kMaxDuration)) return at("a task time out of range at vertex", v);
    if (t.first_wait != kNoWait && k != OpKind::task) return at("a first wait that is not the task's at vertex", v);
  }
  if (k == OpKind::task_resume)
    if (std::string problem = wait_problem(p, i); !problem.empty()) return problem;
  if (p.issuer[i] != kNoVertex && p.issuer[i] >= p.whole_vertices) return at("an issuer that is no task at vertex", v);
  for (EdgeOffset e = p.edge_offset[i]; e < p.edge_offset[i + 1]; ++e) {
    if (p.successors[e] >= p.whole_vertices) return at("successor edge to no vertex at vertex", v);
    const EdgeKind kind = p.successor_kinds[e];
    if (static_cast<std::size_t>(kind) >= kEdgeKindCount) return at("successor edge of no kind at vertex", v);
    if (!may_leave(kind, k)) return at("an edge whose kind does not fit its operations at vertex", v);
  }
  return {};
}

}  // namespace

std::string GraphPart::structure_problem() const {
  const std::size_t n = ids.size();
  for (std::size_t size : {kind.size(), node.size(), event.size(), issuer.size(), position.size(), payload.size(),
                           local_payload.size()})
    if (size != n) return "a per-vertex array whose length is not the vertex count";
  for (std::size_t size : {issue_fraction.size(), observed_start.size(), observed_end.size(), external_delay.size()})
    if (size != 0 && size != n) return "a Legion Prof per-vertex array whose length is not the vertex count";
  if (edge_offset.size() != n + 1 || edge_offset[0] != 0) return "successor offsets that do not cover every vertex";
  if (successors.size() != successor_kinds.size() || edge_offset[n] != successors.size())
    return "successor offsets that do not add up to the edge count";
  for (std::size_t i = 0; i < n; ++i)
    if (std::string problem = vertex_problem(*this, i); !problem.empty()) return problem;
  for (const std::int64_t value : barrier_values)
    if (value < -kMaxBarrierValue || value > kMaxBarrierValue) return "a barrier arrival count or alteration out of range";
  for (const BarrierPhaseInfo& phase : phases)
    if (phase.required < -kMaxDuration || phase.required > kMaxDuration) return "a barrier phase's required count out of range";
  // Per-copy and per-phase state lives in arrays indexed by the whole graph's payload: no two may share one. Named
  // as the whole check names it: the first vertex whose attribute an earlier one has.
  std::vector<std::tuple<OpKind, std::uint32_t, VertexId>> shared;
  for (std::size_t i = 0; i < n; ++i)
    if (kind[i] == OpKind::copy || kind[i] == OpKind::barrier_phase) shared.emplace_back(kind[i], payload[i], ids[i]);
  std::sort(shared.begin(), shared.end());
  VertexId first_shared = kNoVertex;
  for (std::size_t k = 1; k < shared.size(); ++k)
    if (std::get<0>(shared[k]) == std::get<0>(shared[k - 1]) && std::get<1>(shared[k]) == std::get<1>(shared[k - 1]))
      first_shared = std::min(first_shared, std::get<2>(shared[k]));
  if (first_shared != kNoVertex) return at("an attribute shared with an earlier copy or phase at vertex", first_shared);
  return {};
}

}  // namespace rr::graph
