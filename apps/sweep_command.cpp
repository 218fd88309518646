// `realm-replay sweep TRACE --machine FILE --vary key=v1,v2,...`: the grid of replays over machine values.
#include <chrono>
#include <iostream>

#include "commands.hpp"
#include "comparison_report.hpp"
#include "session/run_grid.hpp"
#include "trace_inputs.hpp"

namespace rr::app {

bool write_comparison_outputs(const char* command, const std::vector<ComparisonRow>& rows, const RunContext& ctx,
                              const std::string& csv, const std::string& json, const std::string& html,
                              const std::string& title);

std::function<int()> add_sweep_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    std::string trace;
    std::string machine;
    std::vector<std::string> varies;
    std::vector<std::string> overrides;
    std::uint32_t fold = 0;
    std::string csv, json, html;
    std::string title = "realm-replay sweep";
    ReadingFlags reading;
    std::string unlogged = "measured";
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("sweep", "Replay one trace over a grid of machine values, in parallel.");
  cmd->add_option("trace", opts->trace, "trace: a folder or archive")->required();
  cmd->add_option("-m,--machine", opts->machine, "machine description")->required();
  cmd->add_option("--vary", opts->varies, "key=v1,v2,... (repeatable: the grid is every combination)")->required();
  cmd->add_option("--set", opts->overrides, "fixed override for every run: key=value (repeatable)");
  cmd->add_option("--fold", opts->fold, "replay on this many nodes");
  cmd->add_option("--csv", opts->csv, "also write CSV here");
  cmd->add_option("--json", opts->json, "also write JSON here");
  cmd->add_option("--html", opts->html, "also write a self-contained HTML report here");
  cmd->add_option("--title", opts->title, "title of the HTML report")->capture_default_str();
  add_unlogged_option(cmd, opts->unlogged);
  add_reading_options(cmd, opts->reading, common);
  return [opts, &common]() -> int {
    auto started = std::chrono::steady_clock::now();
    // The grid: one axis per --vary, in the order given, the first varying slowest.
    std::vector<std::vector<std::string>> axes;
    for (const auto& v : opts->varies) {
      auto eq = v.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == v.size()) {
        std::cerr << "realm-replay sweep: --vary takes key=v1,v2,..., not '" << v << "'\n";
        return kExitUsage;
      }
      std::vector<std::string> settings;
      std::string key = v.substr(0, eq), values = v.substr(eq + 1);
      for (std::size_t start = 0;;) {
        auto comma = values.find(',', start);
        settings.push_back(key + "=" + values.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      axes.push_back(std::move(settings));
    }
    std::vector<std::vector<std::string>> grid{{}};
    for (const auto& axis : axes) {
      std::vector<std::vector<std::string>> next;
      for (const auto& combo : grid)
        for (const auto& setting : axis) {
          next.push_back(combo);
          next.back().push_back(setting);
        }
      grid = std::move(next);
    }
    auto trace = open_trace("sweep", {opts->trace}, common, opts->reading);
    if (!trace) return kExitBadInput;
    std::vector<session::GridJob> jobs;
    for (const auto& combo : grid) {
      session::GridJob job{&*trace, {opts->machine, opts->overrides}, "", {}};
      job.settings.fold = opts->fold;
        job.settings.engine.unlogged = unlogged_time(opts->unlogged);
      std::string label;
      for (const auto& setting : combo) {
        job.machine.overrides.push_back(setting);
        label += (label.empty() ? "" : " ") + setting;
      }
      job.machine_label = label;
      jobs.push_back(std::move(job));
    }
    auto runs = session::run_grid(jobs, common.threads);
    if (!runs) {
      std::cerr << "realm-replay sweep: error: " << runs.error().to_string() << "\n";
      return kExitBadInput;
    }
    auto rows = make_rows(std::move(*runs));
    RunContext ctx;
    ctx.command = "sweep";
    ctx.inputs = {opts->trace};
    ctx.threads = common.threads;
    ctx.keep_going = opts->reading.keep_going;
    ctx.strict = opts->reading.strict;
    ctx.options["fold"] = opts->fold;
    ctx.options["unlogged_time"] = opts->unlogged;
    ctx.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cout << render_comparison_text(rows);
    return write_comparison_outputs("sweep", rows, ctx, opts->csv, opts->json, opts->html, opts->title) ? kExitOk
                                                                                                      : kExitBadInput;
  };
}

}  // namespace rr::app
