// `realm-replay compare TRACE... --machine FILE...`: every trace on every machine, side by side.
#include <chrono>
#include <iostream>

#include "bundled_machines.hpp"
#include "commands.hpp"
#include "comparison_outputs.hpp"
#include "session/replay_choices.hpp"
#include "session/run_grid.hpp"
#include "trace_inputs.hpp"
#include "messages.hpp"

namespace rr::app {

std::function<int()> add_compare_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    std::vector<std::string> traces;
    std::vector<std::string> machines;
    std::vector<std::string> overrides;
    ComparisonOutputs out{.title = "realm-replay comparison"};
    ReadingFlags reading;
    session::ReplayChoices replay;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "compare", "Replay several traces (e.g. mappings all/mixed at 2, 4, 32 nodes) on one or more machines, side by side.");
  cmd->add_option("traces", opts->traces, "traces: each a folder or archive")->required();
  cmd->add_option("-m,--machine", opts->machines, "machine description(s), a file or a bundled name (titan); every trace runs on each")
      ->required()
      ->transform(machine_name());
  cmd->add_option("--set", opts->overrides, "override a value on every machine: key=value (repeatable)");
  add_comparison_outputs(cmd, opts->out);
  add_replay_flags(cmd, opts->replay);
  add_reading_options(cmd, opts->reading, common);
  return [opts, &common]() -> int {
    RunContext ctx = command_context("compare", opts->traces, common, opts->reading, &opts->replay);
    auto settings = session::replay_settings(opts->replay);
    if (!settings) {
      print_error("compare", settings.error().to_string());
      return kExitBadInput;
    }
    std::vector<std::unique_ptr<session::LoadedTrace>> traces;
    for (const auto& path : opts->traces) {
      auto t = open_trace("compare", {path}, common, opts->reading);
      if (!t) return kExitBadInput;
      traces.push_back(std::make_unique<session::LoadedTrace>(std::move(*t)));
    }
    std::vector<session::GridJob> jobs;
    for (const auto& t : traces) {
      // A move or fold that does not fit this trace is left out of its replays, with a warning naming it.
      session::ReplaySettings fitted = *settings;
      for (const auto& warning : session::drop_inapplicable(*t, fitted.mapping))
        print_message("compare", "warning: " + warning);
      for (const auto& m : opts->machines) jobs.push_back({t.get(), {m, opts->overrides}, "", fitted});
    }
    if (auto note = session::eft_note(settings->mapping)) print_message("compare", "note: " + *note);
    auto runs = session::run_grid(jobs, common.threads);
    if (!runs) {
      print_error("compare", runs.error().to_string());
      return kExitBadInput;
    }
    auto rows = make_rows(std::move(*runs));
    ctx.stop_clock();
    return write_comparison_outputs("compare", rows, ctx, opts->out) ? kExitOk : kExitBadInput;
  };
}

}  // namespace rr::app
