// Keys and descriptions of the graph findings, and their totals.
#include "graph/graph_findings.hpp"

namespace rr::graph {

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
    {"wait_on_own_finish", "Task Waits of a task on its own finish event (replayed as their measured time)"},
};
}  // namespace

std::string_view finding_key(FindingKind kind) { return kFindings[static_cast<std::size_t>(kind)].key; }
std::string_view finding_description(FindingKind kind) {
  return kFindings[static_cast<std::size_t>(kind)].description;
}

std::string_view finding_explanation(FindingKind kind, core::TraceFormat format) {
  if (format != core::TraceFormat::legion_prof) return {};
  switch (kind) {
    case FindingKind::external_event:
      return "expected in Legion Prof logs: the profiler records the producer of most events, not of all (work of "
             "Realm's own and events the runtime triggers without a record); each is kept at the time the run saw "
             "it: what waits on it is not ready before its observed ready time, and a wait on it lasts its "
             "measured time";
    default: return {};
  }
}

std::string_view GraphFindings::explanation(FindingKind kind, core::TraceFormat format) const {
  const std::string& here = explained_here[static_cast<std::size_t>(kind)];
  return here.empty() ? finding_explanation(kind, format) : std::string_view(here);
}

std::uint64_t GraphFindings::unexplained(core::TraceFormat format) const {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < kFindingKindCount; ++i)
    if (explanation(static_cast<FindingKind>(i), format).empty()) n += counts[i];
  return n;
}

std::uint64_t GraphFindings::total() const {
  std::uint64_t t = 0;
  for (auto c : counts) t += c;
  return t;
}

}  // namespace rr::graph
