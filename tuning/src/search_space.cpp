// The search space: moves from a factors file and the machine's function_speed, processor counts within a budget
// per node, node maps where the trace is folded.
#include "tuning/search_space.hpp"

#include <algorithm>
#include <map>

#include "replay/machine_map.hpp"
#include "tuning/src/labels.hpp"

namespace rr::tuning {

namespace {

using labels::function_label;
using labels::kind_name;
using labels::number;
using labels::slot;

using core::ProcessorKind;

constexpr ProcessorKind kCounted[] = {ProcessorKind::gpu, ProcessorKind::cpu, ProcessorKind::utility};
// The kinds of processor each task function's tasks were traced on (GPU, CPU, utility: bits by kind); the
// program's own thread is no processor a function could leave.
std::map<std::uint32_t, unsigned> traced_kinds(const graph::EventGraph& g, const replay::MachineMap& map) {
  std::map<std::uint32_t, unsigned> kinds;
  for (graph::VertexId v = 0; v < g.vertex_count(); ++v) {
    if (g.kind(v) != graph::OpKind::task) continue;
    const graph::TaskInfo& t = g.task(v);
    const ProcessorKind k = map.traced_kind(t.processor.value());
    kinds[t.func_id] |= slot(k) < machine::kCountedKinds ? 1u << slot(k) : 0u;
  }
  return kinds;
}

bool machine_has(const machine::MachineModel& model, ProcessorKind kind) {
  const machine::ProcessorClass& p = model.processor(kind);
  return p.count > 0 || std::any_of(p.per_node.begin(), p.per_node.end(), [](std::uint32_t c) { return c > 0; });
}

// The most processors of a kind any node of the machine has.
std::uint32_t machine_count(const machine::MachineModel& model, ProcessorKind kind) {
  const machine::ProcessorClass& p = model.processor(kind);
  std::uint32_t most = p.count;
  for (std::uint32_t c : p.per_node) most = std::max(most, c);
  return most;
}

// A move of f to `kind` is one when some of f's tasks ran on another kind, and the machine has the kind.
void add_move(SearchSpace& s, const graph::EventGraph& g, const machine::MachineModel& model, unsigned kinds_of_f,
              MoveOption option) {
  const std::string label = function_label(g, option.function);
  if ((kinds_of_f & ~(1u << slot(option.kind))) == 0) {
    s.notes.push_back(label + " ran on " + kind_name(option.kind) + " only: its factor there (" + option.source +
                      ") moves nothing");
    return;
  }
  if (!machine_has(model, option.kind)) {
    s.notes.push_back(label + ": machine '" + model.name + "' has no " + kind_name(option.kind) + " processor (" +
                      option.source + ")");
    return;
  }
  s.moves.push_back(std::move(option));
}

void add_moves(SearchSpace& s, const session::LoadedTrace& trace, const machine::MachineModel& model,
               const std::map<std::uint32_t, unsigned>& kinds, const machine::FunctionFactors* factors) {
  const graph::EventGraph& g = trace.graph();
  std::size_t unused = 0;
  std::string unused_list;
  if (factors)
    for (const auto& [f, given] : factors->of_function) {
      const auto it = kinds.find(f);
      if (it == kinds.end() || it->second == 0) {
        if (unused++ < 8) unused_list += (unused_list.empty() ? "" : ", ") + std::to_string(f);
        continue;
      }
      for (const machine::KindFactor& k : given) add_move(s, g, model, it->second, {f, k.kind, k.factor, k.source});
    }
  if (unused)
    s.notes.push_back(std::to_string(unused) + " function(s) of " + factors->file + " have no task in this trace (" +
                      unused_list + (unused > 8 ? ", ..." : "") + ")");
  // The machine's function_speed of a kind says how fast a function runs there: it may move there, priced by it.
  for (ProcessorKind kind : kCounted)
    for (const auto& [f, speed] : model.processor(kind).function_speed) {
      const auto it = kinds.find(f);
      if (it == kinds.end() || it->second == 0 || (it->second & ~(1u << slot(kind))) == 0) continue;
      const bool in_file = factors && factors->of_function.count(f) &&
                           std::any_of(factors->of_function.at(f).begin(), factors->of_function.at(f).end(),
                                       [&](const machine::KindFactor& k) { return k.kind == kind; });
      if (in_file) continue;  // the file's factor, with the speed on top, is the move already listed
      add_move(s, g, model, it->second,
               {f, kind, std::nullopt,
                model.name + ": processors." + std::string(machine::kind_key(kind)) + ".function_speed." +
                    std::to_string(f) + " = " + number(speed)});
    }
  std::sort(s.moves.begin(), s.moves.end(), [](const MoveOption& a, const MoveOption& b) {
    return a.function != b.function ? a.function < b.function : slot(a.kind) < slot(b.kind);
  });
}

void set_counts(SearchSpace& s, const machine::MachineModel& model, const machine::MappingSpec& start,
                const std::map<std::uint32_t, unsigned>& kinds, std::uint32_t cores) {
  unsigned used = 0;  // kinds the trace has work for, or the moves would give some
  for (const auto& [f, k] : kinds) used |= k;
  for (const MoveOption& m : s.moves) used |= 1u << slot(m.kind);
  std::uint32_t total = 0;
  std::string parts;
  for (ProcessorKind kind : kCounted) {
    s.start_counts[slot(kind)] = start.processors.of(kind).value_or(machine_count(model, kind));
    s.counts.least[slot(kind)] = (used >> slot(kind)) & 1u;
    // GPUs are devices, not threads that share the node's cores: their count is the machine's.
    if (kind == ProcessorKind::gpu || s.start_counts[slot(kind)] == 0) continue;
    s.counts.kinds.push_back(kind);
    total += s.start_counts[slot(kind)];
    parts += (parts.empty() ? "" : " + ") + std::to_string(s.start_counts[slot(kind)]) + " " + kind_name(kind);
  }
  if (cores) {
    s.counts.budget = cores;
    s.counts.budget_source = "--cores " + std::to_string(cores);
  } else if (model.node.cores) {
    s.counts.budget = model.node.cores;
    s.counts.budget_source = "node.cores of " + model.name;
  } else {
    s.counts.budget = total;
    s.counts.budget_source = "the starting " + parts;
  }
}

}  // namespace

std::uint32_t count_of(const SearchSpace& space, const machine::MappingSpec& mapping, core::ProcessorKind kind) {
  return mapping.processors.of(kind).value_or(space.start_counts[slot(kind)]);
}

core::Expected<SearchSpace> search_space(const session::LoadedTrace& trace, const machine::MachineModel& model,
                                         const machine::MappingSpec& start, const SpaceInputs& inputs) {
  auto map = replay::MachineMap::build(trace.records, model, start);
  if (!map) return map.error();
  SearchSpace s;
  s.traced_nodes = map->traced_nodes();
  s.model_nodes = map->model_nodes();
  s.node_maps = s.model_nodes < s.traced_nodes;
  const auto kinds = traced_kinds(trace.graph(), *map);
  add_moves(s, trace, model, kinds, inputs.factors);
  set_counts(s, model, start, kinds, inputs.cores);
  return s;
}

}  // namespace rr::tuning
