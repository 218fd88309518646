// How a trace's work is placed on a model (issue of what-ifs without a new trace): the placement policy, task
// functions moved to another processor kind, and which traced nodes share a model node. A mapping file (TOML,
// docs/mapping.md) or command-line options give it; the replay's MachineMap applies it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/kinds.hpp"
#include "core/node_fold.hpp"
#include "core/result.hpp"

namespace rr::machine {

// traced: each traced processor runs on one model processor (the k-th of its kind on its node, modulo the
// count). pool: a ready task runs on any free processor of its kind on its model node. eft: a ready task goes to
// the processor of its node, among every kind it may run on, where it would finish first.
enum class Placement : std::uint8_t { traced, pool, eft };
const char* placement_name(Placement p);
std::optional<Placement> placement_from_name(std::string_view name);

// Task function `function` runs on `kind` (under eft: may run on its traced kind or `kind`). Its busy time there
// is its traced busy time × factor, divided by the model's speed of `kind`; without a factor, × 1.
struct FunctionMove {
  std::uint32_t function = 0;
  core::ProcessorKind kind = core::ProcessorKind::cpu;
  std::optional<double> factor;
  std::string source;  // where it was given: "--map 7=gpu:0.2" or "mapping.toml:12"
};

// Which traced nodes share a model node when the model has fewer (--fold M).
enum class NodeMapRule : std::uint8_t { cyclic, block, list };
struct NodeMap {
  NodeMapRule rule = NodeMapRule::cyclic;  // cyclic: n -> n mod M; block: n -> n·M/N (consecutive nodes together)
  std::vector<std::uint32_t> list;         // list: traced node i -> list[i]
  std::string source;                      // the file of a list
};
const char* node_map_rule_name(NodeMapRule r);

// The most model nodes a trace can be folded onto (--fold, a mapping file's fold).
inline constexpr std::uint32_t kMaxFold = 65536;

// The kinds whose processors a mapping may count (gpu, cpu, utility: the sections of a machine file), indexed like
// core::ProcessorKind.
inline constexpr std::size_t kCountedKinds = 3;

// Processors of each kind on every model node (a mapping file's [processors] table), laid over the machine's
// count and per_node; a kind not given keeps the machine's.
struct ProcessorCounts {
  std::array<std::optional<std::uint32_t>, kCountedKinds> of_kind;
  std::string source;  // where they were given: "best.toml:4"

  bool any() const;
  std::optional<std::uint32_t> of(core::ProcessorKind kind) const;
};

struct MappingSpec {
  std::optional<Placement> placement;  // unset: traced on the traced machine, pool on any other
  std::vector<FunctionMove> moves;
  std::uint32_t fold = 0;              // model nodes, 1 to kMaxFold; 0: the traced node count (or the node map's)
  NodeMap nodes;
  ProcessorCounts processors;

  bool moves_function(std::uint32_t f) const;
};

// Which model node each of `traced_nodes` traced nodes replays on under the mapping's node map and fold (cyclic
// n -> n mod M, block n -> n·M/N, or the list), M the fold (at most the traced node count under cyclic and block), the
// list's largest node plus one, or the traced node count. The replay's MachineMap and the split of a graph built in
// parts both fold by it. An error when a list names fewer traced nodes than the trace has, or a model node past the
// fold.
core::Expected<core::NodeFold> fold_nodes(const MappingSpec& mapping, std::uint32_t traced_nodes);

// "FUNC=KIND[:FACTOR]" as --map takes it (KIND: gpu, cpu, utility).
core::Expected<FunctionMove> parse_move(const std::string& text);
// "cyclic", "block", or a TOML file with node_map = [...] (traced node i -> model node).
core::Expected<NodeMap> parse_node_map(const std::string& text);
// A mapping file: placement, fold, node_map ("cyclic", "block" or a list), a [processors] table (gpu, cpu,
// utility: processors per node) and [[move]] tables (function, to, factor). Every key is checked; errors name the
// file and line.
core::Expected<MappingSpec> load_mapping(const std::string& path);
// A mapping file that load_mapping reads back as `spec` (factors to the last bit), with `header` as its first
// comment lines.
std::string mapping_toml(const MappingSpec& spec, const std::vector<std::string>& header = {});
// "gpu", "cpu" or "utility": a processor kind as mapping files, factors files and --map name it; and back.
std::string_view kind_key(core::ProcessorKind kind);
std::optional<core::ProcessorKind> kind_from_key(std::string_view key);

}  // namespace rr::machine
