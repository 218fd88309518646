// For tests of Legion Prof graph parts (graph::build_prof_graph_part): a vertex as text with everything a part holds
// of it, the timestamped facts included (observed start and end, launch fraction, measured delay, whether it is
// outside work, a resume's fraction of its task), from the whole graph or from a part, so that a part is compared
// with the whole graph restricted to its vertices line by line.
#pragma once

#include <algorithm>
#include <sstream>
#include <string>

#include "support/graph_part_text.hpp"

namespace rr::testing {

inline std::string describe_prof(const EventGraph& g, VertexId v) {
  std::ostringstream out;
  const auto outside = g.outside_work();
  out << describe(g, v) << " | observed " << g.observed_start(v) << ',' << g.observed_end(v) << " fraction "
      << g.issue_fraction(v) << " delay " << g.external_delay(v) << " outside "
      << std::binary_search(outside.begin(), outside.end(), v);
  if (g.kind(v) == OpKind::task_resume) out << " wait fraction " << g.resume_wait(v).fraction;
  return out.str();
}

inline std::string describe_prof(const GraphPart& p, std::size_t i) {
  std::ostringstream out;
  const auto at = [](const std::vector<std::int64_t>& xs, std::size_t k, std::int64_t none) {
    return xs.empty() ? none : xs[k];
  };
  out << describe(p, i) << " | observed " << at(p.observed_start, i, -1) << ',' << at(p.observed_end, i, -1)
      << " fraction " << (p.issue_fraction.empty() ? -1.0f : p.issue_fraction[i]) << " delay "
      << at(p.external_delay, i, 0) << " outside "
      << std::binary_search(p.outside_work.begin(), p.outside_work.end(), p.ids[i]);
  if (p.kind[i] == OpKind::task_resume) out << " wait fraction " << p.waits[p.local_payload[i]].fraction;
  return out.str();
}

}  // namespace rr::testing
