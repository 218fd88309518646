// What graph validation found: counts per kind of problem and the first few examples of each, by id.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graph/event_graph.hpp"
#include "core/ids.hpp"
#include "core/stats.hpp"
#include "core/trace_records.hpp"

namespace rr::graph {

// The kinds of finding are the graph builder's stats (core::finding_stats(): key, description, severity).
// Why findings of this kind are expected in traces of this format and what the replay does with them; empty
// when they are not expected (a finding to look into).
std::string_view finding_explanation(core::Stat kind, core::TraceFormat format);

struct Finding {
  core::Stat kind;  // one of core::finding_stats()
  core::EventKey event;  // the event the finding is about
  std::string detail;  // e.g. "announced 3, found 2"
};

struct GraphFindings {
  core::StatCounts counts;  // the graph builder's stats; the others stay 0
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
  std::array<std::string, core::kStatCount> explained_here;

  std::uint64_t count(core::Stat k) const { return counts[k]; }
  std::uint64_t total() const { return counts.total(core::finding_stats()); }
  std::string_view explanation(core::Stat kind, core::TraceFormat format) const;
  std::uint64_t unexplained(core::TraceFormat format) const;  // the findings `explanation` does not explain
};

// Every stat of a trace read and built: the reading's (core::read_stats) and the graph builder's.
core::StatCounts trace_stats(const core::TraceRecords& records, const GraphFindings& findings);

}  // namespace rr::graph
