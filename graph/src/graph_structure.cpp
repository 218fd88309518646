// EventGraph::structure_problem: the invariants freeze() and the builders guarantee, checked on a graph whose
// arrays come from outside (a packed trace file), so that nothing reading the graph indexes past an array.
#include <string>

#include "graph/event_graph.hpp"

namespace rr::graph {

namespace {

std::string at(const char* what, std::uint64_t index) { return std::string(what) + " " + std::to_string(index); }

bool is_task_like(OpKind k) { return k == OpKind::task || k == OpKind::background; }

}  // namespace

std::string EventGraph::structure_problem() const {
  const std::uint64_t n = kind_.size();
  if (n >= kNoVertex) return "more vertices than a vertex id can number";
  for (auto size : {node_.size(), event_.size(), issuer_.size(), position_.size(), payload_.size()})
    if (size != n) return "a per-vertex array whose length is not the vertex count";
  for (auto size : {issue_fraction_.size(), observed_start_.size(), observed_end_.size(), external_delay_.size()})
    if (size != 0 && size != n) return "an optional per-vertex array whose length is not the vertex count";
  if (observed_start_.empty() != observed_end_.empty()) return "observed starts without observed ends";

  // Both CSRs: offsets that start at 0, never decrease and end at the edge count; ends that are vertices.
  const auto csr_problem = [n](const char* name, const Column<std::uint64_t>& offset, const Column<VertexId>& ends,
                               const Column<EdgeKind>& kinds) -> std::string {
    if (offset.size() != n + 1 || offset[0] != 0) return std::string(name) + " offsets that do not cover every vertex";
    if (ends.size() != kinds.size() || offset[n] != ends.size())
      return std::string(name) + " offsets that do not add up to the edge count";
    for (std::uint64_t v = 0; v < n; ++v)
      if (offset[v + 1] < offset[v]) return at((std::string(name) + " offsets decrease at vertex").c_str(), v);
    for (std::uint64_t e = 0; e < ends.size(); ++e) {
      if (ends[e] >= n) return at((std::string(name) + " edge to no vertex at edge").c_str(), e);
      if (static_cast<std::size_t>(kinds[e]) >= kEdgeKindCount) return at((std::string(name) + " edge of no kind at edge").c_str(), e);
    }
    return {};
  };
  if (auto p = csr_problem("successor", succ_offset_, succ_, succ_kind_); !p.empty()) return p;
  if (auto p = csr_problem("predecessor", pred_offset_, pred_, pred_kind_); !p.empty()) return p;
  // The reverse CSR holds the same edges: every vertex has as many predecessors as edges name it as a target.
  std::vector<std::uint64_t> in_degree(n, 0);
  for (VertexId to : succ_) ++in_degree[to];
  for (std::uint64_t v = 0; v < n; ++v)
    if (in_degree[v] != pred_offset_[v + 1] - pred_offset_[v]) return at("predecessors that the successors do not match at vertex", v);

  for (std::uint64_t v = 0; v < n; ++v) {
    const OpKind k = kind_[v];
    if (static_cast<std::size_t>(k) >= kOpKindCount) return at("an operation of no kind at vertex", v);
    const std::uint32_t p = payload_[v];
    const bool payload_ok = [&] {
      switch (k) {
        case OpKind::task:
        case OpKind::background: return p < tasks_.size();
        case OpKind::copy: return p < copies_.size();
        case OpKind::barrier_phase: return p < phases_.size();
        case OpKind::barrier_alter:
        case OpKind::barrier_arrive: return p < barrier_values_.size();
        case OpKind::task_resume: return p < waits_.size() && waits_[p].resume == v;
        default: return true;  // merges: an announced count; the others carry none
      }
    }();
    if (!payload_ok) return at("an attribute index out of range at vertex", v);
    const VertexId issuer = issuer_[v];
    if (issuer != kNoVertex && (issuer >= n || !is_task_like(kind_[issuer]))) return at("an issuer that is no task at vertex", v);
    if (is_task_like(k)) {
      const std::uint32_t first = tasks_[p].first_wait;
      if (first != kNoWait && (first >= waits_.size() || waits_[first].task != v)) return at("a first wait that is not the task's at vertex", v);
    }
  }
  for (std::uint64_t i = 0; i < waits_.size(); ++i) {
    const WaitInfo& w = waits_[i];
    if (w.task >= n || !is_task_like(kind_[w.task])) return at("a wait of no task at wait", i);
    if (w.resume != kNoVertex && (w.resume >= n || kind_[w.resume] != OpKind::task_resume)) return at("a wait resumed by no segment at wait", i);
    if (w.awaited != kNoVertex && w.awaited >= n) return at("a wait on no vertex at wait", i);
  }
  for (VertexId v : outside_work_)
    if (v >= n) return at("outside work that is no vertex:", v);
  return {};
}

}  // namespace rr::graph
