// `realm-replay compare TRACE... --machine FILE...`: every trace on every machine, side by side.
#include <chrono>
#include <iostream>

#include "commands.hpp"
#include "comparison_report.hpp"
#include "output_file.hpp"
#include "platform/output_target.hpp"
#include "session/run_grid.hpp"
#include "trace_inputs.hpp"
#include "messages.hpp"

namespace rr::app {

// Writes the requested report files; returns false (after a message) when one cannot be written.
bool write_comparison_outputs(const char* command, const std::vector<ComparisonRow>& rows, const RunContext& ctx,
                              const std::string& csv, const std::string& json, const std::string& html,
                              const std::string& title) {
  auto write = [&](const std::string& path, const std::string& text) {
    if (path.empty()) return true;
    if (auto err = platform::write_whole_file(path, text); !err.empty()) {
      print_error(command, err);
      return false;
    }
    return true;
  };
  return write(csv, render_comparison_csv(rows)) && write(json, render_comparison_json(rows, ctx).dump(2) + "\n") &&
         write(html, render_comparison_html(rows, ctx, title));
}

std::function<int()> add_compare_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    std::vector<std::string> traces;
    std::vector<std::string> machines;
    std::vector<std::string> overrides;
    std::string csv, json, html;
    std::string title = "realm-replay comparison";
    ReadingFlags reading;
    session::ReplayChoices replay;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "compare", "Replay several traces (e.g. mappings all/mixed at 2, 4, 32 nodes) on one or more machines, side by side.");
  cmd->add_option("traces", opts->traces, "traces: each a folder or archive")->required();
  cmd->add_option("-m,--machine", opts->machines, "machine description(s); every trace runs on each")->required();
  cmd->add_option("--set", opts->overrides, "override a value on every machine: key=value (repeatable)");
  cmd->add_option("--csv", opts->csv, "also write CSV here");
  cmd->add_option("--json", opts->json, "also write JSON here");
  cmd->add_option("--html", opts->html, "also write a self-contained HTML report with charts here");
  cmd->add_option("--title", opts->title, "title of the HTML report")->capture_default_str();
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
    for (const auto& t : traces)
      for (const auto& m : opts->machines) {
        jobs.push_back({t.get(), {m, opts->overrides}, "", *settings});
      }
    auto runs = session::run_grid(jobs, common.threads);
    if (!runs) {
      print_error("compare", runs.error().to_string());
      return kExitBadInput;
    }
    auto rows = make_rows(std::move(*runs));
    ctx.stop_clock();
    std::cout << render_comparison_text(rows);
    return write_comparison_outputs("compare", rows, ctx, opts->csv, opts->json, opts->html, opts->title) ? kExitOk
                                                                                                        : kExitBadInput;
  };
}

}  // namespace rr::app
