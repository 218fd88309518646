// What `realm-replay tune` may change in a mapping (docs/mapping.md, Tuning): which functions may move to which
// processor kinds and at what busy-time factor, which processor counts it varies within what budget per node,
// and whether the node map matters. Worked out once, from the trace, the machine, the starting mapping and a
// factors file.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/kinds.hpp"
#include "core/result.hpp"
#include "machine_models/factors_file.hpp"
#include "machine_models/machine_model.hpp"
#include "machine_models/mapping.hpp"
#include "session/session.hpp"

namespace rr::tuning {

// A move the search may make: every task of `function` to `kind`, its busy time there × `factor` (a factors
// file's), or without a factor where the machine's function_speed alone prices it there.
struct MoveOption {
  std::uint32_t function = 0;
  core::ProcessorKind kind = core::ProcessorKind::gpu;
  std::optional<double> factor;
  std::string source;  // "factors.toml:3", or "titan: processors.gpu.function_speed.18 = 10"
};

// The processor counts the search varies: the kinds, each node's budget for all of them together, and the fewest
// of each kind a node keeps.
struct CountRange {
  std::vector<core::ProcessorKind> kinds;  // CPU and utility, where the machine has some
  std::uint32_t budget = 0;                // processors of these kinds on one node, at most
  std::string budget_source;               // "--cores 4", "node.cores of titan", "the starting mapping's 12 CPU + 2 utility"
  std::array<std::uint32_t, machine::kCountedKinds> least{};  // by kind: 1 where the trace has work for it
};

struct SearchSpace {
  std::vector<MoveOption> moves;  // by function, then kind
  CountRange counts;
  // The starting counts of every kind: the starting mapping's, else the machine's (the most on any node).
  std::array<std::uint32_t, machine::kCountedKinds> start_counts{};
  bool node_maps = false;  // the trace is folded onto fewer model nodes, where cyclic and block differ
  std::uint32_t traced_nodes = 0, model_nodes = 0;
  // What the factors allowed no move for, and why, for the report: a function the trace has no task of, a
  // factor for the only kind a function ran on, a kind the machine has no processor of.
  std::vector<std::string> notes;
};

struct SpaceInputs {
  const machine::FunctionFactors* factors = nullptr;  // --factors; null: none
  std::uint32_t cores = 0;                            // --cores: the budget per node; 0: node.cores, else the start's
};

// The search space of `trace` on `model` from the starting mapping `start`. Fails when the starting mapping does
// not fit the trace (a node map that is too short).
core::Expected<SearchSpace> search_space(const session::LoadedTrace& trace, const machine::MachineModel& model,
                                         const machine::MappingSpec& start, const SpaceInputs& inputs);

// The count of `kind` in `mapping`: its own, else the space's starting one.
std::uint32_t count_of(const SearchSpace& space, const machine::MappingSpec& mapping, core::ProcessorKind kind);

}  // namespace rr::tuning
