// EventGraph::structure_problem: the invariants freeze() and the builders guarantee, checked on a graph whose
// arrays come from outside (a packed trace file), so that nothing reading the graph indexes past an array.
#include <random>
#include <string>
#include <vector>

#include "graph/event_graph.hpp"

namespace rr::graph {

namespace {

std::string at(const char* what, std::uint64_t index) { return std::string(what) + " " + std::to_string(index); }

bool is_task_like(OpKind k) { return k == OpKind::task || k == OpKind::background; }

// Bounds on values the parsers bound (docs/limits.md), kept loose: what the replay's arithmetic stays exact in.
constexpr std::int64_t kMaxDuration = std::int64_t{1} << 62;
constexpr std::int64_t kMaxBarrierValue = std::int64_t{1} << 32;

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
  for (std::uint64_t v = 0; v < n; ++v)
    if (static_cast<std::size_t>(kind_[v]) >= kOpKindCount) return at("an operation of no kind at vertex", v);

  // The reverse CSR holds the same edges as the forward one, kinds included: per vertex, the sum of a keyed
  // hash of its incoming (source, kind) pairs must come out the same both ways. The key is random per check,
  // so that no file can be built to collide; two different multisets agree with probability 2^-64.
  {
    const std::uint64_t key = (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
    const auto mix = [key](VertexId from, EdgeKind k) {
      std::uint64_t z = key ^ ((std::uint64_t{from} << 8) | static_cast<std::uint64_t>(k));
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      return z ^ (z >> 31);
    };
    std::vector<std::uint64_t> balance(n, 0);
    for (std::uint64_t v = 0; v < n; ++v)
      for (std::uint64_t e = succ_offset_[v]; e < succ_offset_[v + 1]; ++e)
        balance[succ_[e]] += mix(static_cast<VertexId>(v), succ_kind_[e]);
    for (std::uint64_t v = 0; v < n; ++v)
      for (std::uint64_t e = pred_offset_[v]; e < pred_offset_[v + 1]; ++e) balance[v] -= mix(pred_[e], pred_kind_[e]);
    for (std::uint64_t v = 0; v < n; ++v)
      if (balance[v] != 0) return at("predecessors that are not the successors reversed at vertex", v);
  }

  // What the replay and the critical path read through an edge's kind: an arrival reaches a phase from an
  // arrive or alter, a continuation a task's later segment, phases follow phases, actions leave task segments.
  for (std::uint64_t v = 0; v < n; ++v)
    for (std::uint64_t e = succ_offset_[v]; e < succ_offset_[v + 1]; ++e) {
      const OpKind from = kind_[v], to = kind_[succ_[e]];
      bool ok = true;
      switch (succ_kind_[e]) {
        case EdgeKind::arrival:
          ok = to == OpKind::barrier_phase && (from == OpKind::barrier_arrive || from == OpKind::barrier_alter);
          break;
        case EdgeKind::phase_order: ok = from == OpKind::barrier_phase && to == OpKind::barrier_phase; break;
        case EdgeKind::continuation: ok = (from == OpKind::task || from == OpKind::task_resume) && to == OpKind::task_resume; break;
        case EdgeKind::issue: ok = from == OpKind::task || from == OpKind::task_resume || from == OpKind::background; break;
        default: break;
      }
      if (!ok) return at("an edge whose kind does not fit its operations at edge", e);
    }

  for (std::uint64_t v = 0; v < n; ++v) {
    const OpKind k = kind_[v];
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
    if (is_task_like(k)) {
      const TaskInfo& t = tasks_[p];
      if (t.time_ns != kNoTime && (t.time_ns < 0 || t.time_ns > kMaxDuration)) return at("a task time out of range at vertex", v);
      const std::uint32_t first = t.first_wait;
      if (first != kNoWait && (k != OpKind::task || first >= waits_.size() || waits_[first].task != v))
        return at("a first wait that is not the task's at vertex", v);
    }
    if (!external_delay_.empty() && (external_delay_[v] < 0 || external_delay_[v] > kMaxDuration))
      return at("an external delay out of range at vertex", v);
  }
  for (std::uint64_t v = 0; v < n; ++v) {  // every payload is known good from here
    const VertexId issuer = issuer_[v];
    if (issuer == kNoVertex) continue;
    if (issuer >= n || !is_task_like(kind_[issuer])) return at("an issuer that is no task at vertex", v);
    if (position_[v] >= tasks_[payload_[issuer]].action_count) return at("an action beyond its issuer's count at vertex", v);
  }
  for (const std::int64_t value : barrier_values_)
    if (value < -kMaxBarrierValue || value > kMaxBarrierValue) return "a barrier arrival count or alteration out of range";
  for (const BarrierPhaseInfo& phase : phases_)
    if (phase.required < -kMaxDuration || phase.required > kMaxDuration) return "a barrier phase's required count out of range";

  // Waits: each task's waits are one run, in position order, that its first_wait starts; each wait is resumed by
  // its own segment, which follows the segment before it (the task, or the previous wait's resume).
  for (std::uint64_t i = 0; i < waits_.size(); ++i) {
    const WaitInfo& w = waits_[i];
    if (w.task >= n || kind_[w.task] != OpKind::task) return at("a wait of no task at wait", i);
    const TaskInfo& t = tasks_[payload_[w.task]];
    const bool starts_run = i == 0 || waits_[i - 1].task != w.task;
    if (starts_run ? t.first_wait != i : waits_[i - 1].position > w.position)
      return at("a wait outside its task's run of waits at wait", i);
    if (w.position >= t.action_count) return at("a wait beyond its task's action count at wait", i);
    if (w.resume >= n || kind_[w.resume] != OpKind::task_resume || payload_[w.resume] != i)
      return at("a wait resumed by no segment at wait", i);
    if (w.awaited != kNoVertex && w.awaited >= n) return at("a wait on no vertex at wait", i);
    if (w.wait_ns < 0 || w.wait_ns > kMaxDuration) return at("a wait time out of range at wait", i);
    const VertexId before = starts_run ? w.task : waits_[i - 1].resume;
    bool follows = false;
    for (std::uint64_t e = pred_offset_[w.resume]; e < pred_offset_[w.resume + 1] && !follows; ++e)
      follows = pred_[e] == before && pred_kind_[e] == EdgeKind::continuation;
    if (!follows) return at("a resume that does not follow its task's previous segment at wait", i);
  }
  for (VertexId v : outside_work_)
    if (v >= n) return at("outside work that is no vertex:", v);

  return {};
}

}  // namespace rr::graph
