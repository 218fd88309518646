// Calibration: fitting a machine's free costs (network latency, per-message overhead, trigger, merge and arrival
// costs, task launch, channel latencies and bandwidths) to measured run times of traces, by a bounded,
// deterministic compass search, with leave-one-out errors so that overfitting shows.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "calibration/runs_file.hpp"
#include "core/result.hpp"
#include "session/session.hpp"

namespace rr::calibration {

// A cost the search may change, with its bounds.
struct FreeCost {
  std::string key;  // a machine key, as --set takes it
  double lo = 0;
  double hi = 0;
  bool integer = false;  // nanoseconds are whole
};

// The costs calibrate fits when none are named: network latency, remote trigger (the per-message overhead),
// local trigger, merge, arrival and task launch costs, and every channel's latency and bandwidth.
std::vector<FreeCost> default_free_costs(const machine::MachineModel& model);
// One named cost of `model`, with its bounds; fails for a key that is not a free cost of it.
core::Expected<FreeCost> free_cost(const std::string& key, const machine::MachineModel& model);
// The value of a free cost in `model`.
double cost_value(const machine::MachineModel& model, const std::string& key);

struct CalibrationOptions {
  session::MachineChoice base{"traced", {}};
  std::vector<std::string> fit;      // keys; empty: default_free_costs of the first run's machine
  unsigned max_evaluations = 400;    // objective evaluations per fit (each replays every run)
  bool leave_one_out = true;
  unsigned threads = 0;
  session::ReplaySettings settings;  // fold, unlogged time
};

struct CalibratedRun {
  std::string label;
  std::string how;
  double measured_ns = 0;
  replay::TimeNs before_ns = 0;                 // on the base machine
  replay::TimeNs after_ns = 0;                  // with the costs fitted to every run
  std::optional<replay::TimeNs> left_out_ns;    // with the costs fitted to the other runs
};

struct CalibrationResult {
  std::vector<std::pair<std::string, double>> initial;  // free costs and their base values, in search order
  std::vector<std::pair<std::string, double>> fitted;
  std::vector<CalibratedRun> runs;
  double error_before = 0;  // mean |estimate / measured − 1|
  double error_after = 0;
  std::optional<double> error_left_out;
  unsigned evaluations = 0;  // of the fit on every run

  // The fitted costs as --set overrides.
  std::vector<std::string> overrides() const;
};

// `traces[i]` is `runs[i]` already loaded.
core::Expected<CalibrationResult> calibrate(const std::vector<const session::LoadedTrace*>& traces,
                                            const std::vector<MeasuredRun>& runs, const CalibrationOptions& options);

}  // namespace rr::calibration
