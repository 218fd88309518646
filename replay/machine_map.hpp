// Maps the traced machine onto a model: traced nodes to model nodes (a node map), traced processors to the model
// processors a task may run on (by placement policy, and by the function moves of a mapping), memories to kinds
// and nodes.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/node_fold.hpp"
#include "core/result.hpp"
#include "core/trace_records.hpp"
#include "machine_models/machine_model.hpp"
#include "machine_models/mapping.hpp"

namespace rr::replay {

struct ModelProcessor {
  std::uint32_t node = 0;
  core::ProcessorKind kind = core::ProcessorKind::cpu;
  std::uint32_t index = 0;  // among the node's processors of this kind
};

struct MemoryPlace {
  core::MemoryKind kind = core::MemoryKind::system;
  std::uint32_t node = 0;
  bool spans_nodes = false;  // GASNet global memory
};

// Where a task's data lives on a processor kind: a GPU's framebuffer, host memory for CPUs and utility processors.
core::MemoryKind home_memory(core::ProcessorKind kind);

class MachineMap {
 public:
  // Fails when a node map does not fit the trace. The placement is the mapping's, else the model's default, else
  // pool.
  static core::Expected<MachineMap> build(const core::TraceRecords& trace, const machine::MachineModel& model,
                                          const machine::MappingSpec& mapping = {});

  // The traced nodes a map of `trace` has: one past the largest node of its files and processors (at least 1).
  static std::uint32_t traced_node_count(const core::TraceRecords& trace);

  std::uint32_t model_nodes() const { return model_nodes_; }
  std::uint32_t traced_nodes() const { return traced_nodes_; }
  machine::Placement placement() const { return placement_; }
  const machine::MappingSpec& mapping() const { return mapping_; }
  const std::vector<ModelProcessor>& processors() const { return processors_; }
  // Model processor `index` (ReplayResult::processor_of), or null for an operation that ran on none.
  const ModelProcessor* processor(std::uint32_t index) const {
    return index < processors_.size() ? &processors_[index] : nullptr;
  }

  // The model processors a task of function `func` requested on `traced` (a processor or group) may run on:
  // under `traced` placement its processor's own model processor (a group: its members'), under `pool` every
  // processor of its kind on its model node; a moved function: every processor of its new kind there.
  const std::vector<std::uint32_t>& targets(std::uint32_t func, std::uint64_t traced) const;
  // Under eft: every processor, of every kind the task may run on (its traced kind, and a moved function's new
  // kind), on its model node.
  const std::vector<std::uint32_t>& candidates(std::uint32_t func, std::uint64_t traced) const;
  // Per model processor: whether the mapping may run traced work on it. Under traced placement, the processors
  // some traced processor or group maps to (and, after a replay, where processors without a record ran); under
  // pool and eft, every processor of a traced kind on a model node with traced processors of it; and the
  // processors of moved functions' kinds on every model node with traced processors.
  std::vector<bool> used_processors() const;
  // The kind of a traced processor or group (CPU for one without a record).
  core::ProcessorKind traced_kind(std::uint64_t traced) const;
  // The move of a function, or null.
  const machine::FunctionMove* move(std::uint32_t func) const;
  // The kind a task of `func` on `traced` runs on under traced or pool placement.
  core::ProcessorKind task_kind(std::uint32_t func, std::uint64_t traced) const;
  MemoryPlace memory(std::uint64_t traced_memory) const;
  // The model node of a traced node (machine::fold_nodes).
  std::uint32_t fold(std::uint32_t traced_node) const { return fold_(traced_node); }  // (inline: twice per edge)
  const core::NodeFold& node_fold() const { return fold_; }
  // Traced processors that had no Processor record (E3 traces): run as CPUs, counted here.
  std::uint64_t unknown_processors() const { return unknown_processors_; }
  // One line per kind and node for reports: "traced node 0 CPU: 2 processor(s) -> model node 0, 2 of its 12".
  std::vector<std::string> describe() const;
  // The same, as data: per traced node and kind, its processors and where they went (reports group them).
  struct PlacedProcessors {
    std::uint32_t traced_node = 0;
    core::ProcessorKind kind = core::ProcessorKind::cpu;
    std::uint32_t count = 0;       // traced processors of the kind on the node
    std::uint32_t model_node = 0;
    std::uint32_t pinned = 0;      // under traced placement: the model processors they are pinned to; else 0
    std::uint32_t available = 0;   // the model node's processors of the kind
  };
  const std::vector<PlacedProcessors>& placed() const { return placed_; }
  // "traced node 3 CPU: 3 processor(s) -> model node 3, 3 of its 12" (pinned) or "..., any of its 12".
  static std::string describe(const PlacedProcessors& p);
  // The mapping against the traced one: placement, node map, moves (one line each).
  std::vector<std::string> changes() const;

 private:
  static std::uint32_t traced_node_count(const core::TraceRecords& trace, const core::MachineRecords& machine);
  const std::vector<std::uint32_t>& pool(std::uint32_t model_node, core::ProcessorKind kind) const;
  std::uint32_t node_of(std::uint64_t traced) const;

  std::uint32_t model_nodes_ = 0;
  std::uint32_t traced_nodes_ = 0;
  machine::Placement placement_ = machine::Placement::traced;
  machine::MappingSpec mapping_;
  core::NodeFold fold_;  // traced node -> model node
  std::vector<ModelProcessor> processors_;  // model processors, node-major then kind then index
  std::vector<std::array<std::vector<std::uint32_t>, core::kModelKindCount>> pools_;  // [model node][kind]: its processors
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> targets_;  // traced placement, by traced id
  std::unordered_map<std::uint64_t, core::ProcessorKind> kinds_;
  std::unordered_map<std::uint64_t, std::uint32_t> traced_node_of_;
  std::unordered_map<std::uint64_t, MemoryPlace> memories_;
  std::unordered_map<std::uint32_t, const machine::FunctionMove*> moves_;
  std::vector<PlacedProcessors> placed_;
  mutable std::uint64_t unknown_processors_ = 0;
  core::IdLayout layout_ = core::IdLayout::for_width(core::IdWidth::bits32);
  mutable std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> fallback_;
  mutable std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> candidates_;  // key: func << 32 ^ traced
  std::vector<std::uint32_t> none_;
};

}  // namespace rr::replay
