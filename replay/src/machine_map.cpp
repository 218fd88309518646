// Processor and memory mapping from the trace's Processor/Memory/Group records and the id bit layout.
#include "replay/machine_map.hpp"

#include <algorithm>
#include <map>

namespace rr::replay {

namespace {
std::size_t kind_slot(core::ProcessorKind k) { return static_cast<std::size_t>(k); }
}  // namespace

core::Expected<MachineMap> MachineMap::build(const core::TraceRecords& trace, const machine::MachineModel& model,
                                           std::uint32_t fold_nodes) {
  MachineMap map;
  map.width_ = trace.width == core::IdWidth::unknown ? core::IdWidth::bits32 : trace.width;
  map.layout_ = core::IdLayout::for_width(map.width_);

  // Traced processors by (node, kind), in id order: index = place among that node's processors of that kind.
  std::map<std::uint64_t, core::ProcessorKind> traced;
  std::map<std::uint64_t, std::vector<std::uint64_t>> groups;
  for (const auto& f : trace.files) {
    if (f.node >= 0) map.traced_nodes_ = std::max(map.traced_nodes_, static_cast<std::uint32_t>(f.node) + 1);
    for (const auto& b : f.batches) {
      for (const auto& p : b.processors) traced.emplace(p.id.value(), p.kind);
      for (const auto& g : b.groups)
        groups.emplace(g.id.value(), std::vector<std::uint64_t>(b.group_members.begin() + g.first_member,
                                                                b.group_members.begin() + g.first_member + g.member_count));
      for (const auto& m : b.memories) {
        MemoryPlace place{m.kind, map.layout_.node_of(m.id.value()), m.kind == core::MemoryKind::global};
        map.memories_.emplace(m.id.value(), place);
      }
    }
  }
  for (const auto& [id, kind] : traced) map.traced_nodes_ = std::max(map.traced_nodes_, map.layout_.node_of(id) + 1);
  if (map.traced_nodes_ == 0) map.traced_nodes_ = 1;
  map.model_nodes_ = fold_nodes ? std::min(fold_nodes, map.traced_nodes_) : map.traced_nodes_;

  // Model processors: every model node gets the model's counts of each kind.
  map.first_cpu_of_node_.assign(map.model_nodes_, 0);
  std::vector<std::array<std::uint32_t, 3>> first(map.model_nodes_);
  for (std::uint32_t n = 0; n < map.model_nodes_; ++n) {
    for (auto kind : {core::ProcessorKind::gpu, core::ProcessorKind::cpu, core::ProcessorKind::utility}) {
      first[n][kind_slot(kind)] = static_cast<std::uint32_t>(map.processors_.size());
      for (std::uint32_t i = 0; i < model.processor(kind).count; ++i) map.processors_.push_back({n, kind, i});
    }
    map.first_cpu_of_node_[n] = first[n][kind_slot(core::ProcessorKind::cpu)];
  }

  // (model node, kind) -> traced processors placed so far: folded nodes share a model node's processors
  // in turn, so --fold to the same node count is the identity.
  std::map<std::pair<std::uint32_t, std::size_t>, std::uint32_t> next_index;
  std::map<std::pair<std::uint32_t, std::size_t>, std::uint32_t> traced_count;
  for (const auto& [id, kind] : traced) {
    if (kind != core::ProcessorKind::gpu && kind != core::ProcessorKind::cpu && kind != core::ProcessorKind::utility)
      continue;
    const std::uint32_t node = map.layout_.node_of(id);
    const std::uint32_t count = model.processor(kind).count;
    if (count == 0)
      return core::InputError{core::SourceLocation{model.source, 0, std::nullopt},
                            "the trace has " + std::string(core::processor_kind_name(kind)) + " processors (e.g. " +
                                core::hex(id) + " on node " + std::to_string(node) + ") but machine '" + model.name +
                                "' has no " + std::string(core::processor_kind_name(kind)) + " processor"};
    std::uint32_t model_node = map.fold(node);
    std::uint32_t index = next_index[{model_node, kind_slot(kind)}]++;
    ++traced_count[{node, kind_slot(kind)}];
    map.targets_[id] = {first[model_node][kind_slot(kind)] + index % count};
    map.kinds_[id] = kind;
  }
  for (const auto& [gid, members] : groups) {
    std::vector<std::uint32_t> all;
    core::ProcessorKind kind = core::ProcessorKind::unknown;
    for (auto m : members) {
      auto t = map.targets_.find(m);
      if (t == map.targets_.end()) continue;
      if (kind == core::ProcessorKind::unknown) kind = map.kinds_[m];
      for (auto p : t->second)
        if (std::find(all.begin(), all.end(), p) == all.end()) all.push_back(p);
    }
    if (!all.empty()) {
      map.targets_[gid] = std::move(all);
      map.kinds_[gid] = kind;
    }
  }
  for (const auto& [key, count] : traced_count) {
    auto kind = static_cast<core::ProcessorKind>(key.second);
    map.description_.push_back("traced node " + std::to_string(key.first) + " " +
                               std::string(core::processor_kind_name(kind)) + ": " + std::to_string(count) +
                               " processor(s) -> model node " + std::to_string(map.fold(key.first)) + ", " +
                               std::to_string(std::min(count, model.processor(kind).count)) + " of its " +
                               std::to_string(model.processor(kind).count));
  }
  return map;
}

const std::vector<std::uint32_t>& MachineMap::targets(std::uint64_t id) const {
  auto it = targets_.find(id);
  if (it != targets_.end()) return it->second;
  auto fb = fallback_.find(id);
  if (fb != fallback_.end()) return fb->second;
  // No Processor record: run it on a CPU of the node its id names.
  std::uint32_t node = fold(layout_.node_of(id) % std::max(1u, traced_nodes_));
  auto& slot = fallback_[id];
  slot.push_back(first_cpu_of_node_.empty() ? 0 : first_cpu_of_node_[node]);
  ++unknown_processors_;
  return slot;
}

std::vector<bool> MachineMap::used_processors() const {
  std::vector<bool> used(processors_.size(), false);
  for (const auto* table : std::initializer_list<const std::unordered_map<std::uint64_t, std::vector<std::uint32_t>>*>{&targets_, &fallback_})
    for (const auto& [id, procs] : *table)
      for (auto p : procs)
        if (p < used.size()) used[p] = true;
  return used;
}

core::ProcessorKind MachineMap::kind_of(std::uint64_t id) const {
  auto it = kinds_.find(id);
  return it == kinds_.end() ? core::ProcessorKind::cpu : it->second;
}

MemoryPlace MachineMap::memory(std::uint64_t id) const {
  auto it = memories_.find(id);
  if (it != memories_.end()) {
    MemoryPlace p = it->second;
    p.node = fold(p.node);
    return p;
  }
  return MemoryPlace{core::MemoryKind::system, fold(layout_.node_of(id)), false};
}

std::vector<std::string> MachineMap::describe() const { return description_; }

}  // namespace rr::replay
