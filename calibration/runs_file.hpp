// Runs files: traces with their measured run times, what calibrate fits a machine to.
#pragma once

#include <string>
#include <vector>

#include "core/result.hpp"

namespace rr::calibration {

// One run with its measured time: what calibrate fits to, and what the fidelity report compares with.
struct MeasuredRun {
  std::string trace;      // path (relative paths in a runs file are relative to that file)
  double measured_s = 0;  // seconds
  std::string how;        // how the time was measured ("the app's ELAPSED TIME", ...)
};

// A runs file: TOML with [[run]] tables (trace, measured_s, how), or CSV lines trace,measured_s[,how] (the first
// line is a header, skipped, when its second field is a name rather than a number). measured_s is a plain decimal
// number of seconds from 1e-6 to 1e6. Errors name the file and line.
core::Expected<std::vector<MeasuredRun>> read_runs(const std::string& path);

}  // namespace rr::calibration
