// Why findings are expected where they are, and the stats of a trace read and built.
#include "graph/graph_findings.hpp"

#include "core/trace_stats.hpp"

namespace rr::graph {

std::string_view finding_explanation(core::Stat kind, core::TraceFormat format) {
  if (format != core::TraceFormat::legion_prof) return {};
  switch (kind) {
    case core::Stat::external_event:
      return "expected in Legion Prof logs: the profiler records the producer of most events, not of all (work of "
             "Realm's own and events the runtime triggers without a record); each is kept at the time the run saw "
             "it: what waits on it is not ready before its observed ready time, and a wait on it lasts its "
             "measured time";
    default: return {};
  }
}

std::string_view GraphFindings::explanation(core::Stat kind, core::TraceFormat format) const {
  const std::string& here = explained_here[static_cast<std::size_t>(kind)];
  return here.empty() ? finding_explanation(kind, format) : std::string_view(here);
}

std::uint64_t GraphFindings::unexplained(core::TraceFormat format) const {
  std::uint64_t n = 0;
  for (core::Stat kind : core::finding_stats())
    if (explanation(kind, format).empty()) n += counts[kind];
  return n;
}

core::StatCounts trace_stats(const core::TraceRecords& records, const GraphFindings& findings) {
  core::StatCounts counts = core::read_stats(records);
  counts += findings.counts;
  return counts;
}

}  // namespace rr::graph
