// Sums replayed busy time per model processor kind and node, counting the processors the mapping uses.
#include "replay/utilisation.hpp"

#include "core/saturating.hpp"

namespace rr::replay {

namespace {
double share(TimeNs busy, TimeNs makespan, std::uint32_t processors) {
  if (makespan <= 0 || processors == 0) return 0;
  return static_cast<double>(busy) / (static_cast<double>(makespan) * processors);
}
}  // namespace

double KindUse::utilisation_all(TimeNs makespan_ns) const { return share(busy_ns, makespan_ns, processors); }
double KindUse::utilisation_used(TimeNs makespan_ns) const { return share(busy_ns, makespan_ns, used); }

double processor_utilisation(const ReplayResult& result, std::uint32_t processor) {
  return share(result.processors[processor].busy_ns, result.makespan_ns, 1);
}

Utilisation utilisation(const MachineMap& map, const ReplayResult& result) {
  Utilisation out;
  const auto& procs = map.processors();
  const std::vector<bool> used = map.used_processors();
  for (std::size_t p = 0; p < procs.size(); ++p) {
    const auto k = static_cast<std::size_t>(procs[p].kind);
    if (k >= kApplicationKindCount) continue;
    for (KindUses* uses : {&out.total, &out.by_node[procs[p].node]}) {
      KindUse& u = (*uses)[k];
      ++u.processors;
      u.used += used[p] ? 1 : 0;
      if (p < result.processors.size()) {
        u.busy_ns = core::saturating_add(u.busy_ns, result.processors[p].busy_ns);
        u.segments += result.processors[p].segments;
      }
    }
  }
  return out;
}

}  // namespace rr::replay
