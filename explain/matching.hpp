// Which operation of one run is which of another (docs/explain.md, Matching). Tasks and background work are
// keyed by function (its name: a Legion Prof log's task or meta-task name, a 2015 log's id), node and processor
// kind; copies by their path (source and destination memory kinds, local or remote) and node. Within one key,
// the k-th operation of one run is the k-th of the other, in launch order: the order a Legion Prof log saw them
// start in, a 2015 log's order of records. O(n log n) in the operations, 32 bytes per operation while matching.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/kinds.hpp"
#include "graph/event_graph.hpp"
#include "replay/machine_map.hpp"

namespace rr::explain {

inline constexpr std::uint32_t kNoGroup = 0xffffffffu;
// The kind a compared operation is counted under: a processor kind, background work, or a copy.
enum class OpClass : std::uint8_t { gpu, cpu, utility, external, background, copy };
const char* op_class_name(OpClass c);  // "GPU", "CPU", "utility", "program", "background", "copy"

// A key both runs share: a function (or copy path) by name, on a node, of one class.
struct GroupKey {
  std::uint32_t name = 0;  // into Matching::names
  std::uint32_t node = 0;
  OpClass op_class = OpClass::cpu;
  friend auto operator<=>(const GroupKey&, const GroupKey&) = default;
};

// One run's side of the match: per vertex, its name (kNoGroup for an operation that is not compared: merges,
// triggers, barriers, a task's later segments) and class.
struct MatchSide {
  std::vector<std::uint32_t> name;
  std::vector<OpClass> op_class;
  std::vector<graph::VertexId> other;  // its match in the other run, or graph::kNoVertex
  std::uint64_t compared = 0;          // operations with a name
  std::uint64_t unmatched = 0;         // of them, without a match
};

struct Matching {
  std::vector<std::string> names;  // functions and copy paths, sorted (one list for both runs)
  MatchSide a, b;
  std::uint64_t matched = 0;
  // The share of the two runs' compared operations that matched: 2·matched / (compared A + compared B).
  double matched_share() const;
};

// Matches the compared operations of `a` and `b`; `map_a` and `map_b` give their processors' and memories' kinds.
Matching match_operations(const graph::EventGraph& a, const replay::MachineMap& map_a, const graph::EventGraph& b,
                          const replay::MachineMap& map_b);

// The name of a copy path, as Matching::names holds it: "copy system->framebuffer", "copy system->system remote".
std::string copy_path_name(core::MemoryKind src, core::MemoryKind dst, bool remote);

}  // namespace rr::explain
