// Reduces a replay and its critical path to the comparison numbers.
#include "replay/run_summary.hpp"

namespace rr::replay {

RunSummary summarise_run(const graph::EventGraph& g, const MachineMap& map, const ReplayResult& r,
                         const CriticalPath& cp) {
  RunSummary s;
  s.nodes = map.model_nodes();
  s.estimated_ns = r.makespan_ns;
  s.operations = r.operations;
  s.stuck = r.stuck;
  std::array<TimeNs, 3> busy{};
  const auto& procs = map.processors();
  for (std::size_t p = 0; p < procs.size(); ++p) {
    auto k = static_cast<std::size_t>(procs[p].kind);
    if (k >= 3) continue;
    busy[k] += r.processors[p].busy_ns;
    ++s.processors[k];
  }
  for (std::size_t k = 0; k < 3; ++k)
    if (s.processors[k] && r.makespan_ns > 0)
      s.utilisation[k] = static_cast<double>(busy[k]) / (static_cast<double>(r.makespan_ns) * s.processors[k]);
  for (const auto& [name, p] : r.paths) {
    s.copies += p.copies;
    s.copy_bytes += p.bytes;
  }
  s.critical = cp.by_class;
  s.lower_bound_ns = cp.lower_bound_ns;
  for (const auto& step : cp.steps)
    if (step.cls == PathClass::compute || step.cls == PathClass::copy) {
      std::string e = core::to_string(g.event(step.vertex));
      if (s.critical_events.empty() || s.critical_events.back() != e) s.critical_events.push_back(e);
    }
  return s;
}

}  // namespace rr::replay
