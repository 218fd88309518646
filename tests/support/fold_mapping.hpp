// Test helper: a mapping that folds the traced nodes onto `model_nodes` model nodes by `rule` (cyclic, block, or
// the given list), what the fold and node-map tests of the graph built in parts and of the replay from parts ask.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "machine_models/mapping.hpp"

namespace rr::testing {

inline machine::MappingSpec fold_of(std::uint32_t model_nodes,
                                    machine::NodeMapRule rule = machine::NodeMapRule::cyclic,
                                    std::vector<std::uint32_t> list = {}) {
  machine::MappingSpec mapping;
  mapping.fold = model_nodes;
  mapping.nodes.rule = rule;
  mapping.nodes.list = std::move(list);
  return mapping;
}

}  // namespace rr::testing
