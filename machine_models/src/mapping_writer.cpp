// Mapping files written (realm-replay tune --write-mapping): the keys load_mapping reads, in the order TOML needs
// (top-level keys before tables), factors to the last bit.
#include "machine_models/mapping.hpp"

#include <sstream>

#include "machine_models/src/toml_number.hpp"

namespace rr::machine {

std::string mapping_toml(const MappingSpec& spec, const std::vector<std::string>& header) {
  std::ostringstream out;
  for (const auto& line : header) out << "# " << line << "\n";
  if (spec.placement) out << "placement = \"" << placement_name(*spec.placement) << "\"\n";
  if (spec.fold) out << "fold = " << spec.fold << "\n";
  switch (spec.nodes.rule) {
    case NodeMapRule::cyclic:
    case NodeMapRule::block: out << "node_map = \"" << node_map_rule_name(spec.nodes.rule) << "\"\n"; break;
    case NodeMapRule::list: {
      out << "node_map = [";
      for (std::size_t i = 0; i < spec.nodes.list.size(); ++i) out << (i ? ", " : "") << spec.nodes.list[i];
      out << "]\n";
      break;
    }
  }
  if (spec.processors.any()) {
    out << "\n[processors]  # per model node, over the machine's counts\n";
    for (std::size_t k = 0; k < kCountedKinds; ++k)
      if (const auto& count = spec.processors.of_kind[k])
        out << kind_key(static_cast<core::ProcessorKind>(k)) << " = " << *count << "\n";
  }
  for (const FunctionMove& m : spec.moves) {
    out << "\n[[move]]\nfunction = " << m.function << "\nto = \"" << kind_key(m.kind) << "\"\n";
    if (m.factor) out << "factor = " << round_trip_number(*m.factor) << "\n";
  }
  return out.str();
}

}  // namespace rr::machine
