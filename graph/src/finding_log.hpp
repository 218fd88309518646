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
  void note(FindingKind kind, const core::EventKey& event, MakeDetail&& make_detail) {
    if (counts_[static_cast<std::size_t>(kind)]++ < limit_) examples_.push_back({kind, event, make_detail()});
  }
  void note(FindingKind kind, const core::EventKey& event) {
    note(kind, event, [] { return std::string(); });
  }

  // Adds this log to `out`, keeping at most `limit` examples of each kind in all.
  void append_to(GraphFindings& out) const {
    std::array<std::uint64_t, kFindingKindCount> kept{};
    for (const Finding& f : out.examples) ++kept[static_cast<std::size_t>(f.kind)];
    for (const Finding& f : examples_)
      if (kept[static_cast<std::size_t>(f.kind)]++ < limit_) out.examples.push_back(f);
    for (std::size_t k = 0; k < kFindingKindCount; ++k) out.counts[k] += counts_[k];
  }

 private:
  std::size_t limit_;
  std::array<std::uint64_t, kFindingKindCount> counts_{};
  std::vector<Finding> examples_;
};

}  // namespace rr::graph
