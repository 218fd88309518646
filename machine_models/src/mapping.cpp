// Mapping files and options: strict TOML (toml++) like machine files, errors with file and line.
#include "machine_models/mapping.hpp"

#include "machine_models/src/toml_file.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/nearest_name.hpp"
#include "core/text_file.hpp"
#include "machine_models/machine_limits.hpp"

namespace rr::machine {

namespace {

core::InputError error(const std::string& where, std::uint64_t line, std::string message) {
  return file_error(where, line, std::move(message));
}

bool factor_in_range(double v) { return busy_factor_in_range(v); }

core::Expected<std::vector<std::uint32_t>> node_list(const toml::array& arr, const std::string& file) {
  std::vector<std::uint32_t> out;
  for (const auto& item : arr) {
    auto v = item.value_exact<std::int64_t>();
    if (!v || *v < 0 || *v > 65535)
      return error(file, line_of(item), "'node_map' lists model node numbers (0 to 65535), one per traced node");
    out.push_back(static_cast<std::uint32_t>(*v));
  }
  if (out.empty()) return error(file, line_of(arr), "'node_map' is empty");
  return out;
}

core::Expected<toml::table> parse_file(const std::string& path) { return parse_toml_file(path, "mapping file"); }

}  // namespace

const char* placement_name(Placement p) {
  switch (p) {
    case Placement::traced: return "traced";
    case Placement::pool: return "pool";
    case Placement::eft: return "eft";
  }
  return "?";
}

std::optional<Placement> placement_from_name(std::string_view name) {
  if (name == "traced") return Placement::traced;
  if (name == "pool") return Placement::pool;
  if (name == "eft") return Placement::eft;
  return std::nullopt;
}

const char* node_map_rule_name(NodeMapRule r) {
  switch (r) {
    case NodeMapRule::cyclic: return "cyclic";
    case NodeMapRule::block: return "block";
    case NodeMapRule::list: return "list";
  }
  return "?";
}

bool ProcessorCounts::any() const {
  for (const auto& c : of_kind)
    if (c) return true;
  return false;
}

std::optional<std::uint32_t> ProcessorCounts::of(core::ProcessorKind kind) const {
  const auto k = static_cast<std::size_t>(kind);
  return k < kCountedKinds ? of_kind[k] : std::nullopt;
}

std::optional<core::ProcessorKind> kind_from_key(std::string_view key) {
  if (key == "gpu") return core::ProcessorKind::gpu;
  if (key == "cpu") return core::ProcessorKind::cpu;
  if (key == "utility") return core::ProcessorKind::utility;
  return std::nullopt;
}

std::string_view kind_key(core::ProcessorKind kind) {
  switch (kind) {
    case core::ProcessorKind::gpu: return "gpu";
    case core::ProcessorKind::cpu: return "cpu";
    case core::ProcessorKind::utility: return "utility";
    default: return "?";
  }
}

bool MappingSpec::moves_function(std::uint32_t f) const {
  for (const auto& m : moves)
    if (m.function == f) return true;
  return false;
}

core::Expected<FunctionMove> parse_move(const std::string& text) {
  const std::string where = "--map " + text;
  auto fail = [&](const std::string& why) { return error(where, 0, why + " (--map takes FUNC=KIND[:FACTOR], e.g. 7=gpu:0.25)"); };
  const auto eq = text.find('=');
  if (eq == std::string::npos) return fail("no '='");
  if (eq == 0) return fail("the task function id before '=' is missing");
  FunctionMove m;
  m.source = where;
  try {
    std::size_t used = 0;
    const unsigned long f = std::stoul(text.substr(0, eq), &used);
    if (used != eq || f > 0xffffffffu) return fail("the function must be a task function id");
    m.function = static_cast<std::uint32_t>(f);
  } catch (const std::exception&) {
    return fail("the function must be a task function id");
  }
  const std::string rest = text.substr(eq + 1);
  const auto colon = rest.find(':');
  auto kind = kind_from_key(rest.substr(0, colon));
  if (!kind) return fail("unknown processor kind '" + rest.substr(0, colon) + "' (gpu, cpu or utility)");
  m.kind = *kind;
  if (colon != std::string::npos) {
    char* end = nullptr;
    const std::string factor = rest.substr(colon + 1);
    const double v = std::strtod(factor.c_str(), &end);
    if (factor.empty() || *end != '\0' || !factor_in_range(v))
      return fail("the factor must be a number from 1e-6 to 1e6, not '" + factor + "'");
    m.factor = v;
  }
  return m;
}

core::Expected<core::NodeFold> fold_nodes(const MappingSpec& mapping, std::uint32_t traced_nodes) {
  const NodeMap& nodes = mapping.nodes;
  const std::uint32_t n = traced_nodes;
  core::NodeFold fold;
  if (nodes.rule == NodeMapRule::list) {
    if (nodes.list.size() < n)
      return core::InputError{core::SourceLocation{nodes.source, 0, std::nullopt},
                              "the node map lists " + std::to_string(nodes.list.size()) + " traced node(s); the trace has " +
                                  std::to_string(n)};
    fold.model_nodes = n == 0 ? 1 : *std::max_element(nodes.list.begin(), nodes.list.begin() + n) + 1;
    if (mapping.fold && mapping.fold < fold.model_nodes)
      return core::InputError{core::SourceLocation{nodes.source, 0, std::nullopt},
                              "the node map names model node " + std::to_string(fold.model_nodes - 1) +
                                  " but --fold is " + std::to_string(mapping.fold)};
    if (mapping.fold) fold.model_nodes = mapping.fold;
    fold.of_traced.assign(nodes.list.begin(), nodes.list.begin() + n);
    return fold;
  }
  fold.model_nodes = mapping.fold ? std::min(mapping.fold, n) : n;
  for (std::uint32_t t = 0; t < n; ++t)
    fold.of_traced.push_back(nodes.rule == NodeMapRule::block
                                 ? static_cast<std::uint32_t>(std::uint64_t{t} * fold.model_nodes / n)
                                 : t % fold.model_nodes);
  return fold;
}

core::Expected<NodeMap> parse_node_map(const std::string& text) {
  if (text == "cyclic") return NodeMap{NodeMapRule::cyclic, {}, {}};
  if (text == "block") return NodeMap{NodeMapRule::block, {}, {}};
  auto root = parse_file(text);
  // A bare word (no '/' or '.') that is no file is most likely a misspelt rule: say what it is not, and the rule
  // it may have meant.
  std::error_code ec;
  if (!root && text.find_first_of("/.") == std::string::npos && !std::filesystem::exists(text, ec))
    return error("--node-map " + text, 0,
                 "neither cyclic, nor block, nor a readable file" + core::did_you_mean(text, {"cyclic", "block"}));
  if (!root) return root.error();
  for (const auto& [key, value] : *root)
    if (key != "node_map") return error(text, line_of(value), "unknown key '" + std::string(key.str()) + "' (a node map file holds node_map = [...])");
  const toml::array* arr = (*root)["node_map"].as_array();
  if (!arr) return error(text, 1, "a node map file holds node_map = [model node of traced node 0, of node 1, ...]");
  auto list = node_list(*arr, text);
  if (!list) return list.error();
  return NodeMap{NodeMapRule::list, std::move(*list), text};
}

namespace {

// [processors]: gpu, cpu and utility, each a count of processors per model node.
std::optional<core::InputError> read_processor_counts(const toml::node& value, const std::string& path,
                                                      ProcessorCounts& counts) {
  const toml::table* t = value.as_table();
  if (!t) return error(path, line_of(value), "'processors' must be a table: [processors] with gpu, cpu, utility = N");
  counts.source = path + ":" + std::to_string(line_of(value));
  for (const auto& [key, count] : *t) {
    const std::string name(key.str());
    const auto kind = kind_from_key(name);
    if (!kind)
      return error(path, line_of(count), "unknown key 'processors." + name + "' (gpu, cpu or utility)" +
                                             core::did_you_mean(name, {"gpu", "cpu", "utility"}));
    auto v = count.value_exact<std::int64_t>();
    if (!v || *v < 0 || *v > kMaxProcessorsPerNode)
      return error(path, line_of(count), "'processors." + name + "' must be a processor count per node (0 to " +
                                             std::to_string(kMaxProcessorsPerNode) + ")");
    counts.of_kind[static_cast<std::size_t>(*kind)] = static_cast<std::uint32_t>(*v);
  }
  return std::nullopt;
}

}  // namespace

core::Expected<MappingSpec> load_mapping(const std::string& path) {
  auto root = parse_file(path);
  if (!root) return root.error();
  MappingSpec spec;
  for (const auto& [key, value] : *root) {
    const std::string k(key.str());
    const auto line = line_of(value);
    if (k == "placement") {
      auto name = value.value_exact<std::string>();
      auto p = name ? placement_from_name(*name) : std::nullopt;
      if (!p) return error(path, line, "'placement' must be \"traced\", \"pool\" or \"eft\"");
      spec.placement = p;
    } else if (k == "fold") {
      auto v = value.value_exact<std::int64_t>();
      if (!v || *v < 1 || *v > kMaxFold)
        return error(path, line, "'fold' must be a node count (1 to " + std::to_string(kMaxFold) + ")");
      spec.fold = static_cast<std::uint32_t>(*v);
    } else if (k == "node_map") {
      if (auto name = value.value_exact<std::string>()) {
        if (*name != "cyclic" && *name != "block")
          return error(path, line, "'node_map' must be \"cyclic\", \"block\" or a list of model nodes");
        spec.nodes.rule = *name == "block" ? NodeMapRule::block : NodeMapRule::cyclic;
      } else if (const toml::array* arr = value.as_array()) {
        auto list = node_list(*arr, path);
        if (!list) return list.error();
        spec.nodes = NodeMap{NodeMapRule::list, std::move(*list), path};
      } else {
        return error(path, line, "'node_map' must be \"cyclic\", \"block\" or a list of model nodes");
      }
    } else if (k == "processors") {
      if (auto problem = read_processor_counts(value, path, spec.processors)) return *problem;
    } else if (k == "move") {
      const toml::array* arr = value.as_array();
      if (!arr || !arr->is_array_of_tables()) return error(path, line, "'move' must be [[move]] tables");
      for (const auto& entry : *arr) {
        const toml::table& t = *entry.as_table();
        const auto at = line_of(t);
        FunctionMove m;
        m.source = path + ":" + std::to_string(at);
        for (const auto& [mk, mv] : t) {
          const std::string name(mk.str());
          if (name == "function") {
            auto f = mv.value_exact<std::int64_t>();
            if (!f || *f < 0 || *f > 0xffffffffll) return error(path, line_of(mv), "'move.function' must be a task function id");
            m.function = static_cast<std::uint32_t>(*f);
          } else if (name == "to") {
            auto s = mv.value_exact<std::string>();
            auto kind = s ? kind_from_key(*s) : std::nullopt;
            if (!kind) return error(path, line_of(mv), "'move.to' must be \"gpu\", \"cpu\" or \"utility\"");
            m.kind = *kind;
          } else if (name == "factor") {
            double v = 0;
            if (auto i = mv.value_exact<std::int64_t>()) v = static_cast<double>(*i);
            else if (auto d = mv.value_exact<double>()) v = *d;
            else return error(path, line_of(mv), "'move.factor' must be a number");
            if (!factor_in_range(v)) return error(path, line_of(mv), "'move.factor' must be > 0, a number from 1e-6 to 1e6");
            m.factor = v;
          } else {
            return error(path, line_of(mv), "unknown key 'move." + name + "'");
          }
        }
        if (!t.contains("function") || !t.contains("to")) return error(path, at, "each [[move]] needs function and to");
        if (spec.moves_function(m.function))
          return error(path, at, "function " + std::to_string(m.function) + " is moved twice");
        spec.moves.push_back(std::move(m));
      }
    } else {
      return error(path, line, "unknown key '" + k + "' (placement, fold, node_map, [processors], [[move]])" +
                                   core::did_you_mean(k, {"placement", "fold", "node_map", "processors", "move"}));
    }
  }
  return spec;
}

}  // namespace rr::machine
