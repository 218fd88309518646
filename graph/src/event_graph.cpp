// Names of operation and edge kinds, finding descriptions, and the EventGraph accessors derived from its arrays.
#include "graph/event_graph.hpp"

#include "graph/graph_findings.hpp"

namespace rr::graph {

std::span<const WaitInfo> EventGraph::waits_of(VertexId task_vertex) const {
  const std::uint32_t first = task(task_vertex).first_wait;
  if (first == kNoWait) return {};
  std::size_t end = first;
  while (end < waits_.size() && waits_[end].task == task_vertex) ++end;
  return {waits_.data() + first, end - first};
}

std::uint64_t EventGraph::wait_us(VertexId task_vertex) const {
  std::uint64_t total = 0;
  for (const WaitInfo& w : waits_of(task_vertex)) total += w.micros;
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

namespace {
struct FindingText {
  std::string_view key;
  std::string_view description;
};
constexpr FindingText kFindings[kFindingKindCount] = {
    {"external_event", "awaited events that no record produces (fired at t=0)"},
    {"duplicate_producer", "events produced by more than one record"},
    {"merge_count_mismatch", "merges whose announced input count differs from their preconditions"},
    {"precondition_without_merge", "Event Preconditions whose merged event has no Event Merge"},
    {"task_time_without_request", "Task Times with no Task Request"},
    {"zero_byte_copy_orphan", "0-byte Copy Sizes with no Copy Request (reduction copies)"},
    {"copy_size_without_request", "Copy Sizes with bytes but no Copy Request"},
    {"task_without_time", "tasks with no Task Time"},
    {"copy_without_size", "copies with no Copy Size"},
    {"duplicate_task_time", "tasks with more than one Task Time"},
    {"duplicate_copy_size", "copies with more than one Copy Size"},
    {"wait_without_task", "Task Waits whose waiting task has no Task Request"},
    {"unknown_issuer", "operations whose enclosing event is not a task of the trace"},
    {"barrier_without_creation", "barriers with no Barrier Creation"},
    {"barrier_phase_incomplete", "barrier phases whose arrivals never reach the required count"},
    {"cycle", "operations that wait on each other in a cycle"},
};
}  // namespace

std::string_view finding_key(FindingKind kind) { return kFindings[static_cast<std::size_t>(kind)].key; }
std::string_view finding_description(FindingKind kind) {
  return kFindings[static_cast<std::size_t>(kind)].description;
}

std::uint64_t GraphFindings::total() const {
  std::uint64_t t = 0;
  for (auto c : counts) t += c;
  return t;
}

}  // namespace rr::graph
