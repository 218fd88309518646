// What changed between two matched runs, before any replay (explain.hpp, Changes), and per function or copy path
// the numbers the classes are chosen by.
#pragma once

#include <vector>

#include "explain/explain.hpp"
#include "machine_diff.hpp"

namespace rr::explain {

// Per name of Matching::names: its operations in each run, their facts (busy ns or bytes), and how the matched
// ones changed.
struct NameStats {
  WorkChange work;
  std::int64_t matched_delta = 0;  // Σ over matched operations of B's fact less A's
  bool differs = false;            // some matched operation's fact (or a wait's measured duration) differs
};

std::vector<NameStats> name_stats(const graph::EventGraph& a, const graph::EventGraph& b, const Matching& m);

Changes summarise_changes(const graph::EventGraph& a, const replay::MachineMap& map_a, const graph::EventGraph& b,
                          const replay::MachineMap& map_b, const Matching& m, const std::vector<NameStats>& stats,
                          const MachineDifferences& machines);

}  // namespace rr::explain
