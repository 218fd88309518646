// `realm-replay compare TRACE... --machine FILE...`: every trace on every machine, side by side.
#include <chrono>
#include <iostream>

#include "bundled_machines.hpp"
#include "commands.hpp"
#include "comparison_report.hpp"
#include "output_file.hpp"
#include "platform/output_target.hpp"
#include "session/replay_choices.hpp"
#include "session/run_grid.hpp"
#include "trace_inputs.hpp"
#include "messages.hpp"
#include "option_checks.hpp"

namespace rr::app {

// The report (text, or JSON with --json) to stdout or -o, then the other formats asked for; returns false (after a
// message) when one cannot be written.
bool write_comparison_outputs(const char* command, const std::vector<ComparisonRow>& rows, const RunContext& ctx,
                              const ComparisonOutputs& out) {
  auto write = [&](const std::string& path, const std::string& text) {
    if (path.empty()) return true;
    if (auto err = platform::write_whole_file(path, text); !err.empty()) {
      print_error(command, err);
      return false;
    }
    return true;
  };
  const std::string report = out.json ? render_comparison_json(rows, ctx).dump(2) + "\n" : render_comparison_text(rows);
  return emit_report(command, out.output, report) && write(out.csv, render_comparison_csv(rows)) &&
         write(out.html, render_comparison_html(rows, ctx, out.title));
}

void add_comparison_outputs(CLI::App* cmd, ComparisonOutputs& out) {
  cmd->add_flag("--json", out.json, "print JSON instead of text");
  cmd->add_option("-o,--output", out.output, "write the report (text, or JSON with --json) to this file (whole or not at all)")
      ->check(output_path());
  cmd->add_option("--csv", out.csv, "also write CSV here")->check(output_path());
  cmd->add_option("--html", out.html, "also write a self-contained HTML report with charts here")->check(output_path());
  cmd->add_option("--title", out.title, "title of the HTML report")->capture_default_str();
}

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
