// The calibration search. Costs are searched in a transformed space, u = log(value + offset) (offset 1 µs for
// nanosecond costs, so that 0 is reachable; none for bandwidths), by compass search: each cost in turn is moved
// one step up or down, the first move that lowers the error is kept, and the step halves when none does. The
// error is the mean squared log ratio of estimate to measured time, which weighs being twice too slow and twice
// too fast alike. Everything is in a fixed order, so a fit is the same on every machine and thread count.
#include "calibration/calibration.hpp"
#include "platform/usable_threads.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

namespace rr::calibration {

namespace {

constexpr double kNsOffset = 1000.0;
// Bounds that keep a fit physical: no runtime cost (a trigger, a merge, a launch) of a real machine takes a
// millisecond, no latency 100 ms (the bound of the traced machine's own fit, session/traced_fit.hpp), and
// bandwidths stay between 1 MB/s and 10 TB/s.
constexpr double kMaxRuntimeNs = 1e6;
constexpr double kMaxLatencyNs = 1e8;

bool is_ns(const std::string& key) { return key.ends_with("_ns"); }

}  // namespace

double cost_value(const machine::MachineModel& m, const std::string& key) {
  if (key == "network.latency_ns") return static_cast<double>(m.network_latency_ns);
  if (key == "runtime.task_launch_ns") return static_cast<double>(m.runtime.task_launch_ns);
  if (key == "runtime.trigger_local_ns") return static_cast<double>(m.runtime.trigger_local_ns);
  if (key == "runtime.trigger_remote_ns") return static_cast<double>(m.runtime.trigger_remote_ns);
  if (key == "runtime.merge_ns") return static_cast<double>(m.runtime.merge_ns);
  if (key == "runtime.barrier_arrival_ns") return static_cast<double>(m.runtime.barrier_arrival_ns);
  for (const auto& c : m.channels) {
    if (key == "channels." + c.name + ".latency_ns") return static_cast<double>(c.latency_ns);
    if (key == "channels." + c.name + ".bandwidth_gbs") return c.bytes_per_ns;
  }
  return -1;
}

core::Expected<FreeCost> free_cost(const std::string& key, const machine::MachineModel& model) {
  if (cost_value(model, key) < 0)
    return core::InputError{core::SourceLocation{model.source, 0, std::nullopt},
                            "'" + key + "' is not a cost calibrate can fit (network.latency_ns, runtime.*_ns, "
                            "channels.<name>.latency_ns or .bandwidth_gbs of machine '" + model.name + "')"};
  if (key.starts_with("runtime.")) return FreeCost{key, 0, kMaxRuntimeNs, true};
  if (is_ns(key)) return FreeCost{key, 0, kMaxLatencyNs, true};
  return FreeCost{key, 0.001, 10000.0, false};  // GB/s
}

std::vector<FreeCost> default_free_costs(const machine::MachineModel& model) {
  std::vector<std::string> keys = {"network.latency_ns",        "runtime.trigger_remote_ns", "runtime.trigger_local_ns",
                                   "runtime.merge_ns",          "runtime.barrier_arrival_ns", "runtime.task_launch_ns"};
  for (const auto& c : model.channels) {
    keys.push_back("channels." + c.name + ".latency_ns");
    keys.push_back("channels." + c.name + ".bandwidth_gbs");
  }
  std::vector<FreeCost> out;
  for (const auto& k : keys) out.push_back(free_cost(k, model).value());
  return out;
}

std::vector<std::string> CalibrationResult::overrides() const {
  std::vector<std::string> out;
  for (const auto& [key, value] : fitted) {
    std::ostringstream s;
    s.precision(17);
    if (is_ns(key)) s << key << "=" << std::llround(value);
    else s << key << "=" << value;
    out.push_back(s.str());
  }
  return out;
}

namespace {

class Search {
 public:
  Search(const std::vector<const session::LoadedTrace*>& traces, const std::vector<MeasuredRun>& runs,
         const CalibrationOptions& options, std::vector<FreeCost> costs)
      : traces_(traces), runs_(runs), options_(options), costs_(std::move(costs)) {}

  // Estimates of the runs in `subset` with these cost values; without values, each on its base machine as it is
  // (a traced base is each run's own traced machine).
  core::Expected<std::vector<replay::TimeNs>> estimates(const std::vector<double>& values,
                                                        const std::vector<std::size_t>& subset) {
    ++evaluations_;
    session::MachineChoice choice = options_.base;
    for (std::size_t i = 0; i < values.size(); ++i) choice.overrides.push_back(text(costs_[i], values[i]));
    std::vector<replay::TimeNs> out(subset.size(), 0);
    std::vector<std::optional<core::InputError>> errors(subset.size());
    tbb::parallel_for(std::size_t{0}, subset.size(), [&](std::size_t j) {
      session::ReplaySettings settings = options_.settings;
      settings.critical_path = false;
      auto run = session::replay_trace(*traces_[subset[j]], choice, settings);
      if (run) out[j] = run->result.makespan_ns;
      else errors[j] = run.error();
    });
    for (auto& e : errors)
      if (e) return *e;
    return out;
  }

  double error(const std::vector<replay::TimeNs>& estimates, const std::vector<std::size_t>& subset) const {
    double sum = 0;
    for (std::size_t j = 0; j < subset.size(); ++j) {
      const double ratio = std::max(1.0, static_cast<double>(estimates[j])) / (runs_[subset[j]].measured_s * 1e9);
      sum += std::log(ratio) * std::log(ratio);
    }
    return sum / static_cast<double>(subset.size());
  }

  // Compass search from `start` on the runs of `subset`; returns the best values found.
  core::Expected<std::vector<double>> fit(std::vector<double> values, const std::vector<std::size_t>& subset) {
    const unsigned budget = evaluations_ + options_.max_evaluations;
    std::vector<double> u(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) u[i] = to_u(costs_[i], values[i]);
    auto first = estimates(values, subset);
    if (!first) return first.error();
    double best = error(*first, subset);
    for (double step = 1.0; step >= 1.0 / 64 && evaluations_ < budget;) {
      bool moved = false;
      for (std::size_t i = 0; i < u.size() && evaluations_ < budget; ++i) {
        for (double direction : {+1.0, -1.0}) {
          const double lo = to_u(costs_[i], costs_[i].lo), hi = to_u(costs_[i], costs_[i].hi);
          const double candidate = std::clamp(u[i] + direction * step, lo, hi);
          if (candidate == u[i]) continue;
          std::vector<double> trial = values;
          trial[i] = from_u(costs_[i], candidate);
          if (trial[i] == values[i]) continue;
          auto e = estimates(trial, subset);
          if (!e) return e.error();
          const double err = error(*e, subset);
          if (err < best * (1 - 1e-9)) {
            best = err;
            values = std::move(trial);
            u[i] = candidate;
            moved = true;
            break;
          }
          if (evaluations_ >= budget) break;
        }
      }
      if (!moved) step /= 2;
    }
    return values;
  }

  unsigned evaluations() const { return evaluations_; }

 private:
  static double offset(const FreeCost& c) { return c.integer ? kNsOffset : 0.0; }
  static double to_u(const FreeCost& c, double v) { return std::log(v + offset(c)); }
  static double from_u(const FreeCost& c, double u) {
    double v = std::clamp(std::exp(u) - offset(c), c.lo, c.hi);
    return c.integer ? std::round(v) : v;
  }
  static std::string text(const FreeCost& c, double v) {
    std::ostringstream s;
    s.precision(17);
    if (c.integer) s << c.key << "=" << std::llround(v);
    else s << c.key << "=" << v;
    return s.str();
  }

  const std::vector<const session::LoadedTrace*>& traces_;
  const std::vector<MeasuredRun>& runs_;
  const CalibrationOptions& options_;
  std::vector<FreeCost> costs_;
  unsigned evaluations_ = 0;
};

double mean_abs_error(const std::vector<CalibratedRun>& runs, replay::TimeNs CalibratedRun::*field) {
  double sum = 0;
  for (const auto& r : runs) sum += std::abs(static_cast<double>(r.*field) / r.measured_ns - 1.0);
  return runs.empty() ? 0 : sum / static_cast<double>(runs.size());
}

}  // namespace

core::Expected<CalibrationResult> calibrate(const std::vector<const session::LoadedTrace*>& traces,
                                            const std::vector<MeasuredRun>& runs, const CalibrationOptions& options) {
  if (traces.empty() || traces.size() != runs.size())
    return core::InputError{core::SourceLocation{}, "calibrate needs at least one run, each with its trace"};
  auto base = session::load_machine_for(*traces.front(), options.base);
  if (!base) return base.error();
  std::vector<FreeCost> costs;
  if (options.fit.empty()) costs = default_free_costs(*base);
  for (const auto& key : options.fit) {
    auto c = free_cost(key, *base);
    if (!c) return c.error();
    costs.push_back(*c);
  }
  // The first run's base values (reported as "before"), and within the bounds (where the search starts).
  std::vector<double> base_values, start;
  for (const auto& c : costs) {
    base_values.push_back(cost_value(*base, c.key));
    start.push_back(std::clamp(base_values.back(), c.lo, c.hi));
  }

  const unsigned workers = platform::threads_or_all(options.threads);
  tbb::task_arena arena(static_cast<int>(workers));
  return arena.execute([&]() -> core::Expected<CalibrationResult> {
    CalibrationResult out;
    std::vector<std::size_t> all(runs.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    Search search(traces, runs, options, costs);
    auto before = search.estimates({}, all);
    if (!before) return before.error();
    auto fitted = search.fit(start, all);
    if (!fitted) return fitted.error();
    out.evaluations = search.evaluations();
    auto after = search.estimates(*fitted, all);
    if (!after) return after.error();
    for (std::size_t i = 0; i < costs.size(); ++i) {
      out.initial.emplace_back(costs[i].key, base_values[i]);
      out.fitted.emplace_back(costs[i].key, (*fitted)[i]);
    }
    for (std::size_t i = 0; i < runs.size(); ++i)
      out.runs.push_back({traces[i]->label, runs[i].how, runs[i].measured_s * 1e9, (*before)[i], (*after)[i], std::nullopt});
    // Leave one out: fit on the other runs, predict this one. The fits are independent searches, so they run
    // side by side (each one's own replays nested in it); the first error in run order is the one reported.
    if (options.leave_one_out && runs.size() > 1) {
      std::vector<std::optional<core::Expected<std::vector<replay::TimeNs>>>> predictions(runs.size());
      tbb::parallel_for(std::size_t{0}, runs.size(), [&](std::size_t i) {
        std::vector<std::size_t> others;
        for (std::size_t j = 0; j < runs.size(); ++j)
          if (j != i) others.push_back(j);
        Search loo(traces, runs, options, costs);
        auto values = loo.fit(start, others);
        predictions[i] = values ? loo.estimates(*values, {i}) : core::Expected<std::vector<replay::TimeNs>>(values.error());
      });
      for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!*predictions[i]) return predictions[i]->error();
        out.runs[i].left_out_ns = (**predictions[i])[0];
      }
      double sum = 0;
      for (const auto& r : out.runs) sum += std::abs(static_cast<double>(*r.left_out_ns) / r.measured_ns - 1.0);
      out.error_left_out = sum / static_cast<double>(out.runs.size());
    }
    out.error_before = mean_abs_error(out.runs, &CalibratedRun::before_ns);
    out.error_after = mean_abs_error(out.runs, &CalibratedRun::after_ns);
    return out;
  });
}

}  // namespace rr::calibration
