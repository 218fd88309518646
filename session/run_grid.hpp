// Many replays side by side (compare, sweep): traces read once, every (trace, machine) job replayed in
// parallel with oneTBB, results in job order so that the output does not depend on the schedule.
#pragma once

#include <string>
#include <vector>

#include "core/result.hpp"
#include "replay/run_summary.hpp"
#include "session/session.hpp"

namespace rr::session {

struct GridJob {
  const LoadedTrace* trace = nullptr;
  MachineChoice machine;
  std::string machine_label;  // empty: the machine's name, then the overrides
  ReplaySettings settings;
};

// Every job replayed with its critical path; fails with the first failing job (in job order).
core::Expected<std::vector<replay::RunSummary>> run_grid(const std::vector<GridJob>& jobs, unsigned threads);

}  // namespace rr::session
