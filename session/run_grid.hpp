// Many replays side by side (compare, sweep): traces read once, every (trace, machine) job replayed in
// parallel with oneTBB, results in job order so that the output does not depend on the schedule.
#pragma once

#include <string>
#include <vector>

#include "core/result.hpp"
#include "replay/run_summary.hpp"
#include "session/session.hpp"

namespace rr::session {

// The most replays one grid may hold. A sweep keeps every run's summary and runs them all before it reports, so
// its memory and time grow with the grid: two keys of 1,000 values each made a million replays that ran out of
// memory after a minute. Ten thousand is far beyond any grid a person reads, and is refused before any replay.
inline constexpr std::size_t kMaxGridPoints = 10'000;

struct GridJob {
  const LoadedTrace* trace = nullptr;
  MachineChoice machine;
  std::string machine_label;  // empty: the machine's name, then the overrides
  ReplaySettings settings;
};

// Every job replayed with its critical path; fails with the first failing job (in job order).
core::Expected<std::vector<replay::RunSummary>> run_grid(const std::vector<GridJob>& jobs, unsigned threads);

}  // namespace rr::session
