#include "replay/src/model_node_ranks.hpp"

namespace rr::replay {

ModelNodeRanks model_node_ranks(const graph::NodeRanks& ranks, const MachineMap& map) {
  const std::uint32_t nodes = map.model_nodes();
  constexpr std::uint32_t kUnset = 0xffffffffu;
  ModelNodeRanks out;
  out.of_node.assign(nodes, kUnset);
  std::vector<std::uint32_t> first_traced(nodes, kUnset);
  for (std::uint32_t t = 0; t < map.traced_nodes(); ++t) {
    const std::uint32_t m = map.fold(t), r = ranks.rank_of(t);
    if (m >= nodes) continue;  // (a map folds every traced node onto one of its model nodes)
    if (out.of_node[m] == kUnset) {
      out.of_node[m] = r;
      first_traced[m] = t;
    } else if (out.of_node[m] != r && out.why_not.empty()) {
      out.why_not = "traced nodes " + std::to_string(first_traced[m]) + " and " + std::to_string(t) +
                    " replay on model node " + std::to_string(m) + ", and their parts are ranks " +
                    std::to_string(out.of_node[m]) + " and " + std::to_string(r) + "'s";
    }
  }
  const graph::NodeRanks over_model_nodes{ranks.ranks, nodes, {}};
  for (std::uint32_t m = 0; m < nodes; ++m)
    if (out.of_node[m] == kUnset) out.of_node[m] = over_model_nodes.rank_of_model(m);
  return out;
}

}  // namespace rr::replay
