// The frozen graph: the CSR freeze, accessors derived from its arrays, and the names of operation and edge kinds.
#include "graph/event_graph.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/saturating.hpp"
#include "platform/huge_pages.hpp"

namespace rr::graph {

VertexId VertexTable::add(OpKind k, std::uint32_t on_node, const core::EventKey& e, std::uint32_t payload_index) {
  node.push_back(on_node);
  return append(k, e, payload_index);
}

VertexId VertexTable::append(OpKind k, const core::EventKey& e, std::uint32_t payload_index) {
  const VertexId v = size();
  kind.push_back(k);
  event.push_back(e);
  payload.push_back(payload_index);
  return v;
}

void EventGraph::check_edge_count(std::uint64_t edges) {
  if (edges > kMaxEdges)
    throw std::length_error("the event graph has " + std::to_string(edges) + " dependencies; it holds at most " +
                            std::to_string(kMaxEdges) + " (32-bit edge offsets)");
}

// Counting sort of the edges into a forward CSR (by source).
EventGraph EventGraph::freeze(VertexTable v, std::span<const std::span<const Edge>> edge_runs) {
  const std::size_t n = v.size();
  v.position.resize(n, 0);  // vertices added after program order was placed are no action of a task
  v.issuer.resize(n, kNoVertex);
  // The optional per-vertex arrays, where given, cover every vertex (resumes added late included).
  if (!v.issue_fraction.empty()) v.issue_fraction.resize(n, -1.0f);
  if (!v.observed_start.empty()) v.observed_start.resize(n, kNoTime);
  if (!v.observed_end.empty()) v.observed_end.resize(n, kNoTime);
  if (!v.external_delay.empty()) v.external_delay.resize(n, 0);
  std::uint64_t m = 0;
  for (const auto& run : edge_runs) m += run.size();
  check_edge_count(m);
  std::vector<EdgeOffset> offset;
  std::vector<VertexId> ends;
  std::vector<EdgeKind> kinds;
  platform::reserve_on_huge_pages(offset, n + 1);
  platform::reserve_on_huge_pages(ends, m);
  platform::reserve_on_huge_pages(kinds, m);
  offset.assign(n + 1, 0);
  for (const auto& run : edge_runs)
    for (const Edge& e : run) ++offset[e.from + 1];
  std::partial_sum(offset.begin(), offset.end(), offset.begin());
  ends.resize(m);
  kinds.resize(m);
  // offset[v] serves as v's cursor while placing, and ends up as offset[v + 1]: shifted back after.
  for (const auto& run : edge_runs)
    for (const Edge& e : run) {
      auto at = offset[e.from]++;
      ends[at] = e.to;
      kinds[at] = e.kind;
    }
  std::copy_backward(offset.begin(), offset.end() - 1, offset.end());
  offset[0] = 0;

  EventGraph g;
  g.kind_ = Column(std::move(v.kind));
  g.node_ = Column(std::move(v.node));
  g.event_ = Column(std::move(v.event));
  g.issuer_ = Column(std::move(v.issuer));
  g.position_ = Column(std::move(v.position));
  g.payload_ = Column(std::move(v.payload));
  g.tasks_ = Column(std::move(v.tasks));
  g.copies_ = Column(std::move(v.copies));
  g.phases_ = Column(std::move(v.phases));
  g.barrier_values_ = Column(std::move(v.barrier_values));
  g.waits_ = Column(std::move(v.waits));
  g.issue_fraction_ = Column(std::move(v.issue_fraction));
  g.observed_start_ = Column(std::move(v.observed_start));
  g.observed_end_ = Column(std::move(v.observed_end));
  g.external_delay_ = Column(std::move(v.external_delay));
  g.outside_work_ = Column(std::move(v.outside_work));
  g.observed_origin_ = v.observed_origin;
  g.set_function_names(std::move(v.function_names));
  g.succ_offset_ = Column(std::move(offset));
  g.succ_ = Column(std::move(ends));
  g.succ_kind_ = Column(std::move(kinds));
  return g;
}

// A counting sort of the forward edges by target. Sources are visited in increasing order, so each vertex's
// in-edges come in order of their sources, and of one source as it lists them.
void EventGraph::build_reverse(ReverseCsr& r) const {
  const std::size_t n = vertex_count();
  const std::size_t m = succ_.size();
  platform::reserve_on_huge_pages(r.offset, n + 1);
  platform::reserve_on_huge_pages(r.from, m);
  platform::reserve_on_huge_pages(r.kind, m);
  r.offset.assign(n + 1, 0);
  for (VertexId w : succ_) ++r.offset[w + 1];
  std::partial_sum(r.offset.begin(), r.offset.end(), r.offset.begin());
  r.from.resize(m);
  r.kind.resize(m);
  for (VertexId v = 0; v < n; ++v)
    for (EdgeOffset e = succ_offset_[v]; e < succ_offset_[v + 1]; ++e) {
      const auto at = r.offset[succ_[e]]++;
      r.from[at] = v;
      r.kind[at] = succ_kind_[e];
    }
  std::copy_backward(r.offset.begin(), r.offset.end() - 1, r.offset.end());
  r.offset[0] = 0;
}

std::string EventGraph::function_name(std::uint32_t func) const {
  auto it = std::lower_bound(function_labels_.begin(), function_labels_.end(), func,
                             [](const auto& entry, std::uint32_t id) { return entry.first < id; });
  if (it != function_labels_.end() && it->first == func) return it->second;
  return unnamed_function_label(func);
}

void EventGraph::set_function_names(FunctionNames names) {
  // One entry per id, by id; of an id given twice, the name that sorts first stays.
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
              names.end());
  function_names_ = std::move(names);
  function_labels_ = function_labels(function_names_);
}

namespace {

// The end of the contiguous run of `waits` from `first` whose task is `task`, found by galloping then bisecting,
// so that a task with many waits costs a logarithm per call, not a scan (a replay asks once per segment).
std::size_t end_of_wait_run(std::span<const WaitInfo> waits, std::size_t first, VertexId task) {
  std::size_t inside = first, step = 1;
  std::size_t outside = waits.size();
  while (inside + step < waits.size()) {
    if (waits[inside + step].task != task) {
      outside = inside + step;
      break;
    }
    inside += step;
    step *= 2;
  }
  while (outside - inside > 1) {
    const std::size_t mid = inside + (outside - inside) / 2;
    (waits[mid].task == task ? inside : outside) = mid;
  }
  return outside;
}

}  // namespace

std::span<const WaitInfo> VertexTable::waits_of(VertexId task_vertex) const {
  const std::uint32_t first = tasks[payload[task_vertex]].first_wait;
  if (first == kNoWait) return {};
  return {waits.data() + first, end_of_wait_run(waits, first, task_vertex) - first};
}

std::span<const WaitInfo> EventGraph::waits_of(VertexId task_vertex) const {
  const std::uint32_t first = task(task_vertex).first_wait;
  if (first == kNoWait) return {};
  return {waits_.data() + first, end_of_wait_run(waits_, first, task_vertex) - first};
}

std::int64_t EventGraph::wait_ns(VertexId task_vertex) const {
  std::int64_t total = 0;
  // Held: a task may list any number of waits, each up to the parser's bound.
  for (const WaitInfo& w : waits_of(task_vertex)) total = core::saturating_add(total, w.wait_ns);
  return total;
}

const char* op_kind_name(OpKind kind) {
  switch (kind) {
    case OpKind::task: return "task";
    case OpKind::copy: return "copy";
    case OpKind::merge: return "merge";
    case OpKind::trigger: return "trigger";
    case OpKind::barrier_alter: return "barrier_alter";
    case OpKind::barrier_arrive: return "barrier_arrive";
    case OpKind::barrier_phase: return "barrier_phase";
    case OpKind::task_resume: return "task_resume";
    case OpKind::first_of: return "first_of";
    case OpKind::background: return "background";
  }
  return "?";
}

const char* edge_kind_name(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::precondition: return "precondition";
    case EdgeKind::issue: return "issue";
    case EdgeKind::merge_input: return "merge_input";
    case EdgeKind::wait: return "wait";
    case EdgeKind::arrival: return "arrival";
    case EdgeKind::phase_order: return "phase_order";
    case EdgeKind::continuation: return "continuation";
  }
  return "?";
}

}  // namespace rr::graph
