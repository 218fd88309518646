// Reduces a replay and its critical path to the comparison numbers.
#include "replay/run_summary.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "replay/critical_operations.hpp"
#include "replay/utilisation.hpp"

namespace rr::replay {

// (The graph is not read: the path's steps carry their events.)
RunSummary summarise_run(const graph::EventGraph& /*g*/, const MachineMap& map, const ReplayResult& r,
                         const CriticalPath& cp) {
  RunSummary s;
  s.nodes = map.model_nodes();
  s.placement = machine::placement_name(map.placement());
  for (const auto& m : map.mapping().moves) {
    std::ostringstream move;
    // As --map spells it (18=gpu:0.0191), so that a move can be copied from a report onto a command line.
    std::string kind(core::processor_kind_name(m.kind));
    std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    move << m.function << "=" << kind;
    if (m.factor) move << ":" << *m.factor;
    s.moves += (s.moves.empty() ? "" : " ") + move.str();
  }
  if (s.moves.empty()) s.moves = "-";
  s.estimated_ns = r.makespan_ns;
  s.operations = r.operations;
  s.stuck = r.stuck;
  const Utilisation use = utilisation(map, r);
  for (std::size_t k = 0; k < kApplicationKindCount; ++k) {
    s.processors[k] = use.total[k].processors;
    s.used_processors[k] = use.total[k].used;
    s.utilisation[k] = use.total[k].utilisation_all(r.makespan_ns);
    s.utilisation_used[k] = use.total[k].utilisation_used(r.makespan_ns);
  }
  for (const auto& [name, p] : r.paths) {
    s.copies += p.copies;
    s.copy_bytes += p.bytes;
  }
  s.critical = cp.by_class;
  for (const PathStep& st : cp.steps) {
    if (st.cls != PathClass::compute) continue;
    // Background work and the program's own thread ran on no application processor: the last slot.
    const ModelProcessor* p = map.processor(r.processor_of[st.vertex]);
    const std::size_t k = p ? std::min<std::size_t>(static_cast<std::size_t>(p->kind), kApplicationKindCount)
                            : kApplicationKindCount;
    s.critical_compute[k] += st.end - st.begin;
  }
  s.lower_bound_ns = cp.lower_bound_ns;
  s.critical_events = critical_operations(cp);
  return s;
}

}  // namespace rr::replay
