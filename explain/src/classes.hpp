// Which classes of facts two runs are compared by (docs/explain.md, Classes), at most kMaxPlayers of them:
// durations per function (grouped by processor kind, then into one, when there are too many), copies, the
// machine's costs, its processors and the structure left over.
#pragma once

#include <vector>

#include "changes.hpp"
#include "explain/explain.hpp"

namespace rr::explain {

struct ClassPlan {
  std::vector<FactClass> classes;           // in bit order: durations, copies, costs, processors, structure
  std::vector<std::uint8_t> class_of_name;  // per name of Matching::names: its class (durations, copies) or kNoClass
  int costs = -1, processors = -1, structure = -1;  // bits of those classes, or -1
  std::vector<std::string> notes;
};

// `structure_differs`: whether the graphs are more than one program with other facts (the "structure" class).
ClassPlan plan_classes(const Matching& m, const std::vector<NameStats>& stats, const MachineDifferences& machines,
                       bool structure_differs);

}  // namespace rr::explain
