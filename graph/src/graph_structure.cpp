// EventGraph::structure_problem: the invariants freeze() and the builders guarantee, checked on a graph whose
// arrays come from outside (a packed trace file), so that nothing reading the graph indexes past an array.
// The checks run in parallel over blocks of vertices; the problem reported is the one at the lowest index of
// the first check that finds any, whatever the thread count.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <mutex>
#include <string>
#include <vector>

#include "graph/event_graph.hpp"
#include "graph/src/structure_limits.hpp"

namespace rr::graph {

namespace {

std::string at(const char* what, std::uint64_t index) { return std::string(what) + " " + std::to_string(index); }

using namespace limits;

// The problem `check(i)` finds at the lowest i in [0, count), or an empty string.
template <class Check>
std::string first_problem(std::uint64_t count, const Check& check) {
  std::mutex mutex;
  std::uint64_t best = ~std::uint64_t{0};
  std::string what;
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, count, 4096), [&](const auto& range) {
    {
      std::lock_guard lock(mutex);
      if (best < range.begin()) return;  // a problem before this block is already known
    }
    for (std::uint64_t i = range.begin(); i != range.end(); ++i)
      if (std::string problem = check(i); !problem.empty()) {
        std::lock_guard lock(mutex);
        if (i < best) best = i, what = std::move(problem);
        return;
      }
  });
  return what;
}

}  // namespace

// One vertex alone (pass 1 of structure_problem).
std::string EventGraph::vertex_problem(std::uint64_t v) const {
  if (succ_offset_[v + 1] < succ_offset_[v]) return at("successor offsets decrease at vertex", v);
  const OpKind k = kind_[v];
  if (static_cast<std::size_t>(k) >= kOpKindCount) return at("an operation of no kind at vertex", v);
  const std::uint32_t p = payload_[v];
  bool payload_ok = true;
  switch (k) {
    case OpKind::task:
    case OpKind::background: payload_ok = p < tasks_.size(); break;
    case OpKind::copy: payload_ok = p < copies_.size(); break;
    case OpKind::barrier_phase: payload_ok = p < phases_.size(); break;
    case OpKind::barrier_alter:
    case OpKind::barrier_arrive: payload_ok = p < barrier_values_.size(); break;
    case OpKind::task_resume: payload_ok = p < waits_.size() && waits_[p].resume == v; break;
    default: break;  // merges: an announced count; the others carry none
  }
  if (!payload_ok) return at("an attribute index out of range at vertex", v);
  if (is_task_like(k)) {
    const TaskInfo& t = tasks_[p];
    if (t.time_ns != kNoTime && (t.time_ns < 0 || t.time_ns > kMaxDuration)) return at("a task time out of range at vertex", v);
    if (t.first_wait != kNoWait && (k != OpKind::task || t.first_wait >= waits_.size() || waits_[t.first_wait].task != v))
      return at("a first wait that is not the task's at vertex", v);
  }
  if (!external_delay_.empty() && (external_delay_[v] < 0 || external_delay_[v] > kMaxDuration))
    return at("an external delay out of range at vertex", v);
  if (!issue_fraction_.empty() && !is_fraction(issue_fraction_[v])) return at("an issue fraction out of range at vertex", v);
  if (!observed_start_.empty() && (!is_observed_time(observed_start_[v]) || !is_observed_time(observed_end_[v])))
    return at("an observed time out of range at vertex", v);
  return {};
}

// One vertex's successor edges and issuer, every kind and payload known good (pass 2).
std::string EventGraph::edges_problem(std::uint64_t v) const {
  const std::uint64_t n = kind_.size();
  for (std::uint64_t e = succ_offset_[v]; e < succ_offset_[v + 1]; ++e) {
    const VertexId w = succ_[e];
    const EdgeKind kind = succ_kind_[e];
    if (w >= n) return at("successor edge to no vertex at edge", e);
    if (static_cast<std::size_t>(kind) >= kEdgeKindCount) return at("successor edge of no kind at edge", e);
    const OpKind from = kind_[v], to = kind_[w];
    bool fits = may_leave(kind, from);
    switch (kind) {
      case EdgeKind::arrival:
      case EdgeKind::phase_order: fits = fits && to == OpKind::barrier_phase; break;
      case EdgeKind::continuation: fits = fits && to == OpKind::task_resume; break;
      // Into a phase come only its arrivals and the phase before it (the replay counts a phase's inputs so).
      default: fits = fits && to != OpKind::barrier_phase; break;
    }
    if (!fits) return at("an edge whose kind does not fit its operations at edge", e);
  }
  const VertexId issuer = issuer_[v];
  if (issuer != kNoVertex) {
    if (issuer >= n || !is_task_like(kind_[issuer])) return at("an issuer that is no task at vertex", v);
    if (position_[v] >= tasks_[payload_[issuer]].action_count) return at("an action beyond its issuer's count at vertex", v);
  }
  return {};
}

// One wait (pass 3).
std::string EventGraph::wait_problem(std::uint64_t i) const {
  const std::uint64_t n = kind_.size();
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
  if (!is_fraction(w.fraction)) return at("a wait's fraction of its task out of range at wait", i);
  const VertexId before = segment_before_wait(i);
  if (before >= n) return at("a resume that does not follow its task's previous segment at wait", i);
  for (std::uint64_t e = succ_offset_[before]; e < succ_offset_[before + 1]; ++e)
    if (succ_[e] == w.resume && succ_kind_[e] == EdgeKind::continuation) return {};
  return at("a resume that does not follow its task's previous segment at wait", i);
}

std::string EventGraph::structure_problem() const {
  const std::uint64_t n = kind_.size();
  if (n >= kNoVertex) return "more vertices than a vertex id can number";
  for (auto size : {node_.size(), event_.size(), issuer_.size(), position_.size(), payload_.size()})
    if (size != n) return "a per-vertex array whose length is not the vertex count";
  for (auto size : {issue_fraction_.size(), observed_start_.size(), observed_end_.size(), external_delay_.size()})
    if (size != 0 && size != n) return "an optional per-vertex array whose length is not the vertex count";
  if (observed_start_.empty() != observed_end_.empty()) return "observed starts without observed ends";
  if (succ_offset_.size() != n + 1 || succ_offset_[0] != 0) return "successor offsets that do not cover every vertex";
  if (succ_.size() != succ_kind_.size() || succ_offset_[n] != succ_.size())
    return "successor offsets that do not add up to the edge count";

  // 1. Each vertex alone: offsets that never decrease (so every edge index is in range), a kind, its
  //    attributes in range, a task's time and first wait.
  std::string problem = first_problem(n, [&](std::uint64_t v) { return vertex_problem(v); });
  if (!problem.empty()) return problem;

  // Per-copy and per-phase state lives in arrays indexed by payload (copy_count, phase_count): no two
  // copies, nor two phases, may share one. A serial pass, so that the vertex named is always the second.
  {
    std::vector<std::uint8_t> copy_seen(copies_.size(), 0), phase_seen(phases_.size(), 0);
    for (std::uint64_t v = 0; v < n; ++v) {
      const OpKind k = kind_[v];
      if (k != OpKind::copy && k != OpKind::barrier_phase) continue;
      std::uint8_t& seen = (k == OpKind::copy ? copy_seen : phase_seen)[payload_[v]];
      if (seen) return at("an attribute shared with an earlier copy or phase at vertex", v);
      seen = 1;
    }
  }

  // 2. Edges and issuers, every kind and payload now known good. What the replay and the critical path read
  //    through an edge's kind: an arrival reaches a phase from an arrive or alter, a continuation a task's later
  //    segment, phases follow phases, actions leave task segments (or background work), and nothing else reaches
  //    a phase.
  problem = first_problem(n, [&](std::uint64_t v) { return edges_problem(v); });
  if (!problem.empty()) return problem;

  // 3. Waits: each task's waits are one run, in position order, that its first_wait starts; each wait is resumed
  //    by its own segment, which follows the segment before it (the task, or the previous wait's resume).
  problem = first_problem(waits_.size(), [&](std::uint64_t i) { return wait_problem(i); });
  if (!problem.empty()) return problem;

  for (const std::int64_t value : barrier_values_)
    if (value < -kMaxBarrierValue || value > kMaxBarrierValue) return "a barrier arrival count or alteration out of range";
  for (const BarrierPhaseInfo& phase : phases_)
    if (phase.required < -kMaxDuration || phase.required > kMaxDuration) return "a barrier phase's required count out of range";
  for (VertexId v : outside_work_)
    if (v >= n) return at("outside work that is no vertex:", v);
  if (observed_origin_ < -kMaxObservedOrigin || observed_origin_ > kMaxObservedOrigin) return "an observed origin out of range";
  return {};
}

}  // namespace rr::graph
