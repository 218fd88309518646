// Maps the traced machine onto a model: traced processors to model processors (identity by node, kind and
// index modulo the model's count, nodes folded modulo --fold), memories to kinds and nodes.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/result.hpp"
#include "core/trace_records.hpp"
#include "machine_models/machine_model.hpp"

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

class MachineMap {
 public:
  // Fails with a message naming the processor kind the model lacks.
  static core::Expected<MachineMap> build(const core::TraceRecords& trace, const machine::MachineModel& model,
                                        std::uint32_t fold_nodes);

  std::uint32_t model_nodes() const { return model_nodes_; }
  std::uint32_t traced_nodes() const { return traced_nodes_; }
  const std::vector<ModelProcessor>& processors() const { return processors_; }
  // Model processors a traced processor or group may run on (a group: all its members).
  const std::vector<std::uint32_t>& targets(std::uint64_t traced_processor_or_group) const;
  // Per model processor: whether some traced processor or group maps to it (the union of every targets()
  // asked so far, so after a replay it includes where processors without a record ran).
  std::vector<bool> used_processors() const;
  core::ProcessorKind kind_of(std::uint64_t traced_processor_or_group) const;
  MemoryPlace memory(std::uint64_t traced_memory) const;
  std::uint32_t fold(std::uint32_t traced_node) const { return model_nodes_ ? traced_node % model_nodes_ : 0; }
  // Traced processors that had no Processor record (E3 traces): run as CPUs, counted here.
  std::uint64_t unknown_processors() const { return unknown_processors_; }
  // One line per kind and node for reports: "node 0 CPU: 2 traced -> 12 model".
  std::vector<std::string> describe() const;

 private:
  std::uint32_t model_nodes_ = 0;
  std::uint32_t traced_nodes_ = 0;
  std::vector<ModelProcessor> processors_;  // model processors, node-major then kind then index
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> targets_;
  std::unordered_map<std::uint64_t, core::ProcessorKind> kinds_;
  std::unordered_map<std::uint64_t, MemoryPlace> memories_;
  std::vector<std::string> description_;
  mutable std::uint64_t unknown_processors_ = 0;
  core::IdLayout layout_ = core::IdLayout::for_width(core::IdWidth::bits32);
  core::IdWidth width_ = core::IdWidth::bits32;
  // Fallback for a processor without a record: the model's CPUs of its node.
  mutable std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> fallback_;
  std::vector<std::uint32_t> first_cpu_of_node_;
};

}  // namespace rr::replay
