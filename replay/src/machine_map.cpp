// Processor and memory mapping from the trace's Processor/Memory/Group records, the id bit layout, the model's
// processor counts and the mapping (placement, node map, function moves).
#include "replay/machine_map.hpp"

#include <algorithm>
#include <map>

#include "machine_models/machine_limits.hpp"

namespace rr::replay {

namespace {
std::size_t kind_slot(core::ProcessorKind k) { return static_cast<std::size_t>(k); }
bool is_processor_kind(core::ProcessorKind k) {
  return k == core::ProcessorKind::gpu || k == core::ProcessorKind::cpu || k == core::ProcessorKind::utility ||
         k == core::ProcessorKind::external;
}
constexpr core::ProcessorKind kModelKinds[] = {core::ProcessorKind::gpu, core::ProcessorKind::cpu,
                                               core::ProcessorKind::utility, core::ProcessorKind::external};
}  // namespace

core::MemoryKind home_memory(core::ProcessorKind kind) {
  return kind == core::ProcessorKind::gpu ? core::MemoryKind::framebuffer : core::MemoryKind::system;
}

// Model nodes and the node map: each traced node's model node, by the list of a node-map file, or cyclic or
// block over the model's nodes (the traced nodes, or --fold's count).
std::uint32_t MachineMap::traced_node_count(const core::TraceRecords& trace) {
  return traced_node_count(trace, core::machine_records(trace));
}

std::uint32_t MachineMap::traced_node_count(const core::TraceRecords& trace, const core::MachineRecords& machine) {
  const core::IdLayout layout =
      core::IdLayout::for_width(trace.width == core::IdWidth::unknown ? core::IdWidth::bits32 : trace.width);
  std::uint32_t nodes = 0;
  for (const auto& f : trace.files)
    if (f.node >= 0) nodes = std::max(nodes, static_cast<std::uint32_t>(f.node) + 1);
  for (const auto& p : machine.processors) nodes = std::max(nodes, layout.node_of(p.id.value()) + 1);
  return std::max(nodes, 1u);
}

core::Expected<MachineMap> MachineMap::build(const core::TraceRecords& trace, const machine::MachineModel& model,
                                             const machine::MappingSpec& mapping) {
  MachineMap map;
  map.mapping_ = mapping;
  map.layout_ = core::IdLayout::for_width(trace.width == core::IdWidth::unknown ? core::IdWidth::bits32 : trace.width);
  map.placement_ = mapping.placement.value_or(model.default_placement.value_or(machine::Placement::pool));
  for (const auto& m : map.mapping_.moves) map.moves_[m.function] = &m;

  // Traced processors by (node, kind), in id order: index = place among that node's processors of that kind.
  std::map<std::uint64_t, core::ProcessorKind> traced;
  std::map<std::uint64_t, std::vector<std::uint64_t>> groups;
  const core::MachineRecords machine = core::machine_records(trace);
  for (const auto& p : machine.processors) traced.emplace(p.id.value(), p.kind);
  for (const auto& g : machine.groups) groups.emplace(g.id.value(), g.members);
  for (const auto& m : machine.memories)
    map.memories_.emplace(m.id.value(), MemoryPlace{m.kind, map.layout_.node_of(m.id.value()), m.kind == core::MemoryKind::global});
  map.traced_nodes_ = traced_node_count(trace, machine);
  auto fold = machine::fold_nodes(mapping, map.traced_nodes_);
  if (!fold) return fold.error();
  map.fold_ = std::move(*fold);
  map.model_nodes_ = map.fold_.model_nodes;

  // The program's own threads come with the trace, not the machine: a model node has as many as the most any
  // traced node folded onto it had (one per process).
  std::vector<std::uint32_t> program_threads(map.model_nodes_, 0);
  {
    std::map<std::uint32_t, std::uint32_t> per_traced_node;
    for (const auto& [id, kind] : traced)
      if (kind == core::ProcessorKind::external) ++per_traced_node[map.layout_.node_of(id)];
    for (const auto& [node, count] : per_traced_node)
      program_threads[map.fold(node)] = std::max(program_threads[map.fold(node)], count);
  }
  auto count_on = [&](core::ProcessorKind kind, std::uint32_t m) {
    return kind == core::ProcessorKind::external ? program_threads[m] : model.processor(kind).count_on(m);
  };

  // Model processors: every model node gets the model's counts of each kind. The machine file bounds each
  // count; their total over the model nodes is bounded here, before anything is allocated for them.
  std::uint64_t total = 0;
  for (std::uint32_t m = 0; m < map.model_nodes_; ++m)
    for (auto kind : kModelKinds) total += count_on(kind, m);
  if (total > machine::kMaxModelProcessors)
    return core::InputError{core::SourceLocation{model.source, 0, std::nullopt},
                            "machine '" + model.name + "' on " + std::to_string(map.model_nodes_) + " model node(s) has " +
                                std::to_string(total) + " processors, more than the limit of " +
                                std::to_string(machine::kMaxModelProcessors) + " (docs/limits.md)"};
  map.pools_.resize(map.model_nodes_);
  for (std::uint32_t m = 0; m < map.model_nodes_; ++m)
    for (auto kind : kModelKinds)
      for (std::uint32_t i = 0; i < count_on(kind, m); ++i) {
        map.pools_[m][kind_slot(kind)].push_back(static_cast<std::uint32_t>(map.processors_.size()));
        map.processors_.push_back({m, kind, i});
      }

  // Traced placement: the k-th traced processor of a kind on a model node runs on its k-th model processor of
  // that kind (modulo the count); folded nodes share a model node's processors in turn, so --fold to the same
  // node count is the identity.
  std::map<std::pair<std::uint32_t, std::size_t>, std::uint32_t> next_index;
  std::map<std::pair<std::uint32_t, std::size_t>, std::uint32_t> traced_count;
  for (const auto& [id, kind] : traced) {
    if (!is_processor_kind(kind)) continue;
    const std::uint32_t node = map.layout_.node_of(id);
    const std::uint32_t model_node = map.fold(node);
    map.kinds_[id] = kind;
    map.traced_node_of_[id] = node;
    ++traced_count[{node, kind_slot(kind)}];
    const auto& pool = map.pools_[model_node][kind_slot(kind)];
    const std::uint32_t index = next_index[{model_node, kind_slot(kind)}]++;
    map.targets_[id] = pool.empty() ? std::vector<std::uint32_t>{} : std::vector<std::uint32_t>{pool[index % pool.size()]};
  }
  for (const auto& [gid, members] : groups) {
    std::vector<std::uint32_t> all;
    core::ProcessorKind kind = core::ProcessorKind::unknown;
    for (auto m : members) {
      auto t = map.targets_.find(m);
      if (t == map.targets_.end()) continue;
      if (kind == core::ProcessorKind::unknown) {
        kind = map.kinds_[m];
        map.traced_node_of_[gid] = map.traced_node_of_[m];
      }
      for (auto p : t->second)
        if (std::find(all.begin(), all.end(), p) == all.end()) all.push_back(p);
    }
    if (kind != core::ProcessorKind::unknown) {
      map.targets_[gid] = std::move(all);
      map.kinds_[gid] = kind;
    }
  }
  for (const auto& [key, count] : traced_count) {
    auto kind = static_cast<core::ProcessorKind>(key.second);
    const std::uint32_t model_node = map.fold(key.first);
    const std::size_t have = map.pools_[model_node][key.second].size();
    const bool pinned = map.placement_ == machine::Placement::traced;
    map.placed_.push_back({key.first, kind, static_cast<std::uint32_t>(count), model_node,
                           pinned ? static_cast<std::uint32_t>(std::min<std::size_t>(count, have)) : 0u,
                           static_cast<std::uint32_t>(have)});
  }
  return map;
}

std::uint32_t MachineMap::node_of(std::uint64_t traced) const {
  auto it = traced_node_of_.find(traced);
  return fold(it != traced_node_of_.end() ? it->second : layout_.node_of(traced) % std::max(1u, traced_nodes_));
}

const std::vector<std::uint32_t>& MachineMap::pool(std::uint32_t model_node, core::ProcessorKind kind) const {
  if (model_node >= pools_.size() || !is_processor_kind(kind)) return none_;
  return pools_[model_node][kind_slot(kind)];
}

core::ProcessorKind MachineMap::traced_kind(std::uint64_t id) const {
  auto it = kinds_.find(id);
  return it == kinds_.end() ? core::ProcessorKind::cpu : it->second;
}

const machine::FunctionMove* MachineMap::move(std::uint32_t func) const {
  auto it = moves_.find(func);
  return it == moves_.end() ? nullptr : it->second;
}

core::ProcessorKind MachineMap::task_kind(std::uint32_t func, std::uint64_t traced) const {
  const machine::FunctionMove* m = move(func);
  return m ? m->kind : traced_kind(traced);
}

const std::vector<std::uint32_t>& MachineMap::targets(std::uint32_t func, std::uint64_t traced) const {
  if (const machine::FunctionMove* m = move(func)) return pool(node_of(traced), m->kind);
  if (placement_ != machine::Placement::traced) return pool(node_of(traced), traced_kind(traced));
  auto it = targets_.find(traced);
  if (it != targets_.end()) return it->second;
  auto fb = fallback_.find(traced);
  if (fb != fallback_.end()) return fb->second;
  // No Processor record: run it on a CPU of the node its id names.
  const auto& cpus = pool(node_of(traced), core::ProcessorKind::cpu);
  auto& slot = fallback_[traced];
  if (!cpus.empty()) slot.push_back(cpus.front());
  ++unknown_processors_;
  return slot;
}

const std::vector<std::uint32_t>& MachineMap::candidates(std::uint32_t func, std::uint64_t traced) const {
  const std::uint64_t key = std::uint64_t{func} << 40 ^ traced;
  auto it = candidates_.find(key);
  if (it != candidates_.end()) return it->second;
  auto& out = candidates_[key];
  const std::uint32_t node = node_of(traced);
  const auto own = pool(node, traced_kind(traced));
  out = own;
  if (const machine::FunctionMove* m = move(func); m && m->kind != traced_kind(traced)) {
    const auto& other = pool(node, m->kind);
    out.insert(out.end(), other.begin(), other.end());
  }
  return out;
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

std::vector<bool> MachineMap::used_processors() const {
  std::vector<bool> used(processors_.size(), false);
  auto mark = [&](const std::vector<std::uint32_t>& procs) {
    for (auto p : procs)
      if (p < used.size()) used[p] = true;
  };
  for (const auto& [id, procs] : fallback_) mark(procs);
  std::vector<bool> node_has_work(model_nodes_, false);
  for (const auto& [id, kind] : kinds_) {
    const std::uint32_t node = node_of(id);
    if (node < node_has_work.size()) node_has_work[node] = true;
    if (placement_ == machine::Placement::traced) {
      auto t = targets_.find(id);
      if (t != targets_.end()) mark(t->second);
    } else {
      mark(pool(node, kind));
    }
  }
  for (const auto& m : mapping_.moves)
    for (std::uint32_t node = 0; node < model_nodes_; ++node)
      if (node_has_work[node]) mark(pool(node, m.kind));
  return used;
}

std::string MachineMap::describe(const PlacedProcessors& p) {
  return "traced node " + std::to_string(p.traced_node) + " " + std::string(core::processor_kind_name(p.kind)) + ": " +
         std::to_string(p.count) + " processor(s) -> model node " + std::to_string(p.model_node) + ", " +
         (p.pinned ? std::to_string(p.pinned) + " of its " + std::to_string(p.available)
                   : "any of its " + std::to_string(p.available));
}

std::vector<std::string> MachineMap::describe() const {
  std::vector<std::string> out;
  out.reserve(placed_.size());
  for (const auto& p : placed_) out.push_back(describe(p));
  return out;
}

std::vector<std::string> MachineMap::changes() const {
  std::vector<std::string> out;
  std::string placement = std::string("placement: ") + machine::placement_name(placement_);
  // eft chooses among the kinds a task may run on; with no function moved, each has one, and eft is pool.
  if (placement_ == machine::Placement::eft && mapping_.moves.empty())
    placement += " (no function can run on more than one kind: no --map moves one, so eft places as pool does)";
  out.push_back(placement);
  if (model_nodes_ != traced_nodes_ || mapping_.nodes.rule == machine::NodeMapRule::list) {
    std::string line = std::string("nodes: ") + std::to_string(traced_nodes_) + " traced on " +
                       std::to_string(model_nodes_) + " model node(s), " + machine::node_map_rule_name(mapping_.nodes.rule) +
                       ":";
    for (std::uint32_t t = 0; t < fold_.of_traced.size(); ++t) line += " " + std::to_string(t) + "->" + std::to_string(fold_.of_traced[t]);
    out.push_back(line);
  }
  if (mapping_.processors.any()) {
    std::string line = "processors per node:";
    for (std::size_t k = 0; k < machine::kCountedKinds; ++k)
      if (const auto& count = mapping_.processors.of_kind[k])
        line += " " + std::string(core::processor_kind_name(static_cast<core::ProcessorKind>(k))) + " " +
                std::to_string(*count);
    out.push_back(line + " (" + mapping_.processors.source + ")");
  }
  for (const auto& m : mapping_.moves)
    out.push_back("function " + std::to_string(m.function) + " runs on " + std::string(core::processor_kind_name(m.kind)) +
                  (m.factor ? ", busy time x " + std::to_string(*m.factor) : std::string(", busy time as traced")) +
                  " (" + m.source + ")");
  return out;
}

}  // namespace rr::replay
