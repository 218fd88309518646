#include "tuning/src/evaluate.hpp"

namespace rr::tuning {

Outcome evaluate(const session::LoadedTrace& trace, const machine::MachineModel& model,
                 const session::ReplaySettings& base, const machine::MappingSpec& mapping, replay::TimeNs limit_ns) {
  session::ReplaySettings s;
  s.mapping = mapping;
  s.engine.rules = base.engine.rules;
  s.engine.execution.blocks = 1;  // candidates run side by side, each on one engine
  s.engine.detail = {false, 0};   // the estimate only
  s.engine.stop_after_ns = limit_ns;
  s.critical_path = false;
  auto run = session::replay_on(trace, model, s);
  if (!run) return Outcome{0, false, 0, run.error().to_string()};
  return Outcome{run->result.makespan_ns, run->result.cut_off, run->result.stuck, std::nullopt};
}

}  // namespace rr::tuning
