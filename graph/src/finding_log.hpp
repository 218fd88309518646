// Findings noted by one piece of the graph build, merged in input order so that the examples kept
// do not depend on how the work was split between threads.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "graph/graph_findings.hpp"

namespace rr::graph {

class FindingLog {
 public:
  explicit FindingLog(std::size_t limit = 0) : limit_(limit) {}

  // Counts the finding; builds its detail text only while examples of its kind are still kept
  // (a broken trace can have millions of findings of one kind).
  template <class MakeDetail>
  void note(core::Stat kind, const core::EventKey& event, MakeDetail&& make_detail) {
    if (counts_[kind]++ < limit_) examples_.push_back({kind, event, make_detail()});
  }
  void note(core::Stat kind, const core::EventKey& event) {
    note(kind, event, [] { return std::string(); });
  }

  // Adds this log to `out`, keeping at most `limit` examples of each kind in all.
  void append_to(GraphFindings& out) const {
    core::StatCounts kept;
    for (const Finding& f : out.examples) ++kept[f.kind];
    for (const Finding& f : examples_)
      if (kept[f.kind]++ < limit_) out.examples.push_back(f);
    out.counts += counts_;
  }

 private:
  std::size_t limit_;
  core::StatCounts counts_;
  std::vector<Finding> examples_;
};

}  // namespace rr::graph
