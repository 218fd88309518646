// `realm-replay calibrate RUNS`: fit a machine's free costs to measured run times; the fitted machine file and the
// table of measured, before, after and left-out estimates.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "bundled_machines.hpp"
#include "calibration/calibration.hpp"
#include "commands.hpp"
#include "machine_models/machine_writer.hpp"
#include "output_file.hpp"
#include "text_format.hpp"
#include "trace_inputs.hpp"
#include "messages.hpp"

namespace rr::app {

namespace {

std::string signed_pct(double estimate, double measured) {
  const double e = 100.0 * (estimate / measured - 1.0);
  return (e >= 0 ? "+" : "") + fixed(e, 1) + "%";
}

std::string value_text(const std::string& key, double v) {
  return key.ends_with("_ns") ? std::to_string(std::llround(v)) : fixed(v, 4);
}

std::string render_text(const calibration::CalibrationResult& r, const std::string& machine) {
  std::string out = "Calibration of machine '" + machine + "' to " + std::to_string(r.runs.size()) +
                    " measured run(s): " + std::to_string(r.fitted.size()) + " free cost(s), " +
                    std::to_string(r.evaluations) + " evaluations\n\nCost                                    before        fitted\n";
  for (std::size_t i = 0; i < r.fitted.size(); ++i) {
    char line[200];
    std::snprintf(line, sizeof line, "  %-34s %12s  %12s\n", r.fitted[i].first.c_str(),
                  value_text(r.initial[i].first, r.initial[i].second).c_str(),
                  value_text(r.fitted[i].first, r.fitted[i].second).c_str());
    out += line;
  }
  out += "\nRun                              measured (ms)   before (ms)   error    after (ms)   error  left out (ms)   error\n";
  for (const auto& run : r.runs) {
    char line[300];
    std::snprintf(line, sizeof line, "  %-30s %13s %13s %7s %13s %7s %14s %7s\n", run.label.c_str(),
                  ms(std::llround(run.measured_ns)).c_str(), ms(run.before_ns).c_str(),
                  signed_pct(static_cast<double>(run.before_ns), run.measured_ns).c_str(), ms(run.after_ns).c_str(),
                  signed_pct(static_cast<double>(run.after_ns), run.measured_ns).c_str(),
                  run.left_out_ns ? ms(*run.left_out_ns).c_str() : "-",
                  run.left_out_ns ? signed_pct(static_cast<double>(*run.left_out_ns), run.measured_ns).c_str() : "-");
    out += line;
  }
  out += "\nMean |error|: before " + fixed(100 * r.error_before, 1) + "%, after " + fixed(100 * r.error_after, 1) + "%";
  out += r.error_left_out ? ", left out (each run predicted by a fit to the others) " + fixed(100 * *r.error_left_out, 1) + "%\n"
                          : " (leave-one-out needs two runs or more)\n";
  return out;
}

std::string render_csv(const calibration::CalibrationResult& r) {
  std::string out = "trace,measured_ns,before_ns,after_ns,left_out_ns,how\n";
  for (const auto& run : r.runs) {
    std::string how = run.how;
    for (auto& c : how)
      if (c == ',' || c == '"') c = ';';
    out += run.label + "," + std::to_string(std::llround(run.measured_ns)) + "," + std::to_string(run.before_ns) + "," +
           std::to_string(run.after_ns) + "," + (run.left_out_ns ? std::to_string(*run.left_out_ns) : "") + "," + how + "\n";
  }
  return out;
}

nlohmann::ordered_json render_json(const calibration::CalibrationResult& r, const RunContext& ctx) {
  nlohmann::ordered_json j;
  j["schema"] = "realm-replay/calibration";
  j["schema_version"] = 1;
  j["context"] = context_json(ctx);
  nlohmann::ordered_json costs = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.fitted.size(); ++i)
    costs.push_back({{"key", r.fitted[i].first}, {"before", r.initial[i].second}, {"fitted", r.fitted[i].second}});
  j["costs"] = costs;
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const auto& run : r.runs)
    runs.push_back({{"trace", run.label},
                    {"how", run.how},
                    {"measured_ns", run.measured_ns},
                    {"before_ns", run.before_ns},
                    {"after_ns", run.after_ns},
                    {"left_out_ns", run.left_out_ns ? nlohmann::ordered_json(*run.left_out_ns) : nlohmann::ordered_json()}});
  j["runs"] = runs;
  j["mean_abs_error"] = {{"before", r.error_before},
                         {"after", r.error_after},
                         {"left_out", r.error_left_out ? nlohmann::ordered_json(*r.error_left_out) : nlohmann::ordered_json()}};
  j["evaluations"] = r.evaluations;
  j["overrides"] = r.overrides();
  return j;
}

}  // namespace

std::function<int()> add_calibrate_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    std::string runs;
    std::string machine = "traced";
    std::vector<std::string> overrides;
    std::vector<std::string> fit;
    unsigned max_evaluations = 400;
    bool no_loo = false;
    session::ReplayChoices replay;  // --unlogged-time only: the runs are replayed as traced
    std::string output, csv;
    bool json = false;
    ReadingFlags reading;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "calibrate",
      "Fit a machine's free costs (network latency, per-message overhead, trigger, merge and arrival costs, task "
      "launch, channel latencies and bandwidths) to measured run times, with leave-one-out errors.");
  cmd->add_option("runs", opts->runs,
                  "runs file: TOML [[run]] tables (trace, measured_s, how) or CSV lines trace,measured_s[,how]; "
                  "trace paths are relative to the file")
      ->required();
  cmd->add_option("-m,--machine", opts->machine, "the machine to fit: a TOML file, a bundled name (titan), or 'traced' (each run's own)")
      ->capture_default_str()
      ->transform(machine_name());
  cmd->add_option("--set", opts->overrides, "fixed override on the machine: key=value (repeatable)");
  cmd->add_option("--fit", opts->fit, "the costs to fit, e.g. network.latency_ns (repeatable; default: all free costs)")
      ->delimiter(',');
  cmd->add_option("--max-evaluations", opts->max_evaluations, "error evaluations per fit (each replays every run)")
      ->check(CLI::Range(1u, 100000u))
      ->capture_default_str();
  cmd->add_flag("--no-leave-one-out", opts->no_loo, "skip the leave-one-out fits");
  add_unlogged_option(cmd, opts->replay.unlogged_time);
  cmd->add_option("-o,--output", opts->output, "write the fitted machine file here (whole or not at all)");
  cmd->add_option("--csv", opts->csv, "write the table as CSV here");
  cmd->add_flag("--json", opts->json, "print JSON instead of text");
  add_reading_options(cmd, opts->reading, common);

  return [opts, &common]() -> int {
    RunContext ctx = command_context("calibrate", {opts->runs}, common, opts->reading);
    auto runs = calibration::read_runs(opts->runs);
    if (!runs) {
      print_error("calibrate", runs.error().to_string());
      return kExitBadInput;
    }
    std::vector<std::unique_ptr<session::LoadedTrace>> loaded;
    std::vector<const session::LoadedTrace*> traces;
    for (const auto& run : *runs) {
      auto t = open_trace("calibrate", {run.trace}, common, opts->reading);
      if (!t) return kExitBadInput;
      loaded.push_back(std::make_unique<session::LoadedTrace>(std::move(*t)));
      traces.push_back(loaded.back().get());
    }
    auto settings = session::replay_settings(opts->replay);
    if (!settings) {
      print_error("calibrate", settings.error().to_string());
      return kExitBadInput;
    }
    calibration::CalibrationOptions options;
    options.base = {opts->machine, opts->overrides};
    options.fit = opts->fit;
    options.max_evaluations = opts->max_evaluations;
    options.leave_one_out = !opts->no_loo;
    options.threads = common.threads;
    options.settings = std::move(*settings);
    options.settings.mapping.placement = machine::Placement::traced;  // fits the machine the runs were traced on
    auto result = calibration::calibrate(traces, *runs, options);
    if (!result) {
      print_error("calibrate", result.error().to_string());
      return kExitBadInput;
    }
    if (!opts->output.empty()) {
      session::MachineChoice fitted = options.base;
      for (const auto& o : result->overrides()) fitted.overrides.push_back(o);
      auto model = session::load_machine_for(*traces.front(), fitted);
      if (!model) {
        print_error("calibrate", model.error().to_string());
        return kExitBadInput;
      }
      std::map<std::string, std::string> notes;
      for (std::size_t i = 0; i < result->fitted.size(); ++i)
        notes[result->fitted[i].first] = "fitted by realm-replay calibrate (was " +
                                         value_text(result->initial[i].first, result->initial[i].second) + ")";
      std::string header = "Machine '" + opts->machine + "' with its free costs fitted to " +
                           std::to_string(runs->size()) + " measured run(s) (realm-replay calibrate " + opts->runs +
                           ").\nMean |error| before " + fixed(100 * result->error_before, 1) + "%, after " +
                           fixed(100 * result->error_after, 1) + "%.";
      if (options.base.traced())
        header += "\nProcessors are those of trace " + traces.front()->label +
                  "; for another trace use -m traced with these --set values:\n  " +
                  [&] {
                    std::string all;
                    for (const auto& o : result->overrides()) all += (all.empty() ? "" : " ") + std::string("--set ") + o;
                    return all;
                  }();
      if (!write_output_file("calibrate", opts->output, machine::to_toml(*model, header, notes))) return kExitBadInput;
    }
    if (!opts->csv.empty() && !write_output_file("calibrate", opts->csv, render_csv(*result))) return kExitBadInput;
    ctx.machine = MachineContext{opts->machine, opts->machine, opts->overrides};
    ctx.options["unlogged_time"] = opts->replay.unlogged_time;
    ctx.options["max_evaluations"] = opts->max_evaluations;
    ctx.stop_clock();
    std::cout << (opts->json ? render_json(*result, ctx).dump(2) + "\n" : render_text(*result, opts->machine));
    return kExitOk;
  };
}

}  // namespace rr::app
