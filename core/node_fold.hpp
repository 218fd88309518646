// Which model node each traced node replays on: the one rule of a fold or node map (docs/mapping.md). The mapping's
// rule makes one (machine::fold_nodes); the replay's MachineMap folds by it, and so does the split of a graph built in
// parts (graph::NodeRanks), so that a vertex's rank follows its model node as the replay places it.
#pragma once

#include <cstdint>
#include <vector>

namespace rr::core {

struct NodeFold {
  std::uint32_t model_nodes = 0;
  std::vector<std::uint32_t> of_traced;  // traced node n -> model node, for the trace's traced nodes

  // The model node of traced node n; a node past those listed (an id whose node bits name no traced node) goes
  // round the model nodes.
  std::uint32_t operator()(std::uint32_t traced_node) const {
    if (traced_node < of_traced.size()) return of_traced[traced_node];
    return model_nodes ? traced_node % model_nodes : 0;
  }
  // Whether every traced node is its own model node.
  bool identity() const {
    for (std::uint32_t n = 0; n < of_traced.size(); ++n)
      if (of_traced[n] != n) return false;
    return model_nodes == of_traced.size();
  }
  friend bool operator==(const NodeFold&, const NodeFold&) = default;
};

}  // namespace rr::core
