// `realm-replay sweep TRACE --machine FILE --vary key=v1,v2,...`: the grid of replays over machine values.
#include <chrono>
#include <iostream>

#include "bundled_machines.hpp"
#include "commands.hpp"
#include "comparison_outputs.hpp"
#include "session/replay_choices.hpp"
#include "session/run_grid.hpp"
#include "session/sweep_grid.hpp"
#include "trace_inputs.hpp"
#include "messages.hpp"

namespace rr::app {

std::function<int()> add_sweep_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    std::string trace;
    std::string machine;
    std::vector<std::string> varies;
    std::vector<std::string> overrides;
    ComparisonOutputs out{.title = "realm-replay sweep"};
    ReadingFlags reading;
    session::ReplayChoices replay;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("sweep", "Replay one trace over a grid of machine values, in parallel.");
  cmd->add_option("trace", opts->trace, "trace: a folder or archive")->required();
  cmd->add_option("-m,--machine", opts->machine, "machine description: a file, a bundled name (titan) or 'traced'")
      ->required()
      ->transform(machine_name());
  cmd->add_option("--vary", opts->varies,
                  "key=v1,v2,...: a machine value, or placement=traced,pool,eft, or fold=N,M (repeatable: the grid "
                  "is every combination)")
      ->required();
  cmd->add_option("--set", opts->overrides, "fixed override for every run: key=value (repeatable)");
  add_comparison_outputs(cmd, opts->out);
  add_replay_flags(cmd, opts->replay);
  add_reading_options(cmd, opts->reading, common);
  return [opts, &common]() -> int {
    RunContext ctx = command_context("sweep", {opts->trace}, common, opts->reading, &opts->replay);
    // The grid: one axis per --vary, in the order given, the first varying slowest.
    std::vector<session::GridAxis> axes;
    if (auto problem = session::parse_grid_axes(opts->varies, axes); !problem.empty()) {
      print_error("sweep", problem);
      return kExitUsage;
    }
    const std::vector<std::vector<std::string>> grid = session::grid_points(axes);
    auto settings = session::replay_settings(opts->replay);
    if (!settings) {
      print_error("sweep", settings.error().to_string());
      return kExitBadInput;
    }
    auto trace = open_trace("sweep", {opts->trace}, common, opts->reading);
    if (!trace) return kExitBadInput;
    for (const auto& warning : session::drop_inapplicable(*trace, settings->mapping))
      print_message("sweep", "warning: " + warning);
    bool eft_noted = false;
    std::vector<session::GridJob> jobs;
    for (const auto& combo : grid) {
      session::GridJob job{&*trace, {opts->machine, opts->overrides}, "", *settings};
      std::string label;
      for (const auto& setting : combo) {
        // placement= and fold= vary how the trace is placed; every other key is a machine value.
        const std::string key = setting.substr(0, setting.find('='));
        const std::string value = setting.substr(key.size() + 1);
        if (key == "placement") {
          auto p = machine::placement_from_name(value);
          if (!p) {
            print_error("sweep", "--vary placement takes traced, pool and eft, not '" + value + "'");
            return kExitUsage;
          }
          job.settings.mapping.placement = p;
        } else if (key == "fold") {
          try {
            std::size_t used = 0;
            const unsigned long fold = std::stoul(value, &used);
            if (used != value.size() || fold < 1 || fold > machine::kMaxFold) throw std::out_of_range("fold");
            job.settings.mapping.fold = static_cast<std::uint32_t>(fold);
          } catch (const std::exception&) {
            print_error("sweep", "--vary fold takes node counts, not '" + value + "'");
            return kExitUsage;
          }
        } else {
          job.machine.overrides.push_back(setting);
        }
        label += (label.empty() ? "" : " ") + setting;
      }
      // The moves were fitted to the trace above; a varied fold is checked here, without scanning the trace again.
      auto moves = std::move(job.settings.mapping.moves);
      job.settings.mapping.moves.clear();
      for (const auto& warning : session::drop_inapplicable(*trace, job.settings.mapping))
        print_message("sweep", "warning: " + warning + " (" + label + ")");
      job.settings.mapping.moves = std::move(moves);
      if (auto note = session::eft_note(job.settings.mapping); note && !eft_noted) {
        print_message("sweep", "note: " + *note);
        eft_noted = true;
      }
      job.machine_label = label;
      jobs.push_back(std::move(job));
    }
    auto runs = session::run_grid(jobs, common.threads);
    if (!runs) {
      print_error("sweep", runs.error().to_string());
      return kExitBadInput;
    }
    auto rows = make_rows(std::move(*runs));
    ctx.stop_clock();
    return write_comparison_outputs("sweep", rows, ctx, opts->out) ? kExitOk : kExitBadInput;
  };
}

}  // namespace rr::app
