// What graph validation found: counts per kind of problem and the first few examples of each, by id.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graph/event_graph.hpp"
#include "core/ids.hpp"
#include "core/trace_records.hpp"

namespace rr::graph {

enum class FindingKind : std::uint8_t {
  external_event,              // awaited, but produced by no record: fired at t=0
  duplicate_producer,          // two records produce the same event
  merge_count_mismatch,        // Event Merge announces n inputs, the trace has m Event Preconditions
  precondition_without_merge,  // Event Precondition whose merged event has no Event Merge
  task_time_without_request,   // Task Time whose finish event no Task Request produces
  zero_byte_copy_orphan,       // Copy Size ... 0, no Copy Request (reduction copies: docs/realm-log-format.md)
  copy_size_without_request,   // Copy Size with bytes but no Copy Request
  task_without_time,           // Task Request with no Task Time
  copy_without_size,           // Copy Request with no Copy Size
  duplicate_task_time,         // a second Task Time for one task
  duplicate_copy_size,         // a second Copy Size for one copy
  wait_without_task,           // Task Wait whose waiting task has no Task Request
  unknown_issuer,              // enclosing event that is not a task of the trace
  barrier_without_creation,    // Alter/Arrive of a barrier with no Barrier Creation
  barrier_phase_incomplete,    // a phase whose arrivals can never reach the required count
  cycle,                       // operations that wait on each other
  wait_on_own_finish,          // Task Wait of a task on its own finish event (it could never end)
};
inline constexpr std::size_t kFindingKindCount = 17;
std::string_view finding_key(FindingKind kind);
std::string_view finding_description(FindingKind kind);
// Why findings of this kind are expected in traces of this format and what the replay does with them; empty
// when they are not expected (a finding to look into).
std::string_view finding_explanation(FindingKind kind, core::TraceFormat format);

struct Finding {
  FindingKind kind;
  core::EventKey event;  // the event the finding is about
  std::string detail;  // e.g. "announced 3, found 2"
};

struct GraphFindings {
  std::array<std::uint64_t, kFindingKindCount> counts{};
  std::vector<Finding> examples;      // the first few of each kind, in a deterministic order
  std::vector<VertexId> cycle;        // the operations of one cycle, in order, when there is one
  std::uint64_t external_references = 0;  // references to external events (each distinct event counted once above)
  // References to a barrier generation before its first phase (Legion waits on the previous
  // phase): already fired when the barrier was created, so fired at t=0 and not a problem.
  std::uint64_t pre_first_phase_references = 0;
  // What the builder noticed about the trace as a whole (e.g. a Legion Prof log recorded without its event
  // graph), for `validate` and the reading summary.
  std::vector<std::string> notes;
  // Why findings of a kind are expected in this very trace, where the builder knows (e.g. the logs of some
  // nodes are missing); empty: finding_explanation's text for the format, if any.
  std::array<std::string, kFindingKindCount> explained_here;

  std::uint64_t count(FindingKind k) const { return counts[static_cast<std::size_t>(k)]; }
  std::uint64_t total() const;
  std::string_view explanation(FindingKind kind, core::TraceFormat format) const;
  std::uint64_t unexplained(core::TraceFormat format) const;  // the findings `explanation` does not explain
};

}  // namespace rr::graph
