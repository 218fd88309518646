// `realm-replay explain A B`: why run B is slower (or faster) than run A, two traces of one application.
#include <iostream>
#include <optional>

#include "bundled_machines.hpp"
#include "commands.hpp"
#include "explain/explain.hpp"
#include "explain_report.hpp"
#include "machine_models/machine_limits.hpp"
#include "messages.hpp"
#include "option_checks.hpp"
#include "output_file.hpp"
#include "trace_inputs.hpp"

namespace rr::app {

std::function<int()> add_explain_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    std::string a, b;
    std::vector<std::string> machines;
    std::vector<std::string> overrides;
    bool json = false;
    std::string output, html;
    session::ReplayChoices replay;  // its unlogged time and queue order: explain places its replays itself
    ReadingFlags reading;
    std::optional<std::uint32_t> traced_cores_b;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "explain",
      "Why is run B slower than run A? Two traces of one application (Realm logs, Legion Prof logs or packed traces): "
      "their operations matched, what changed, and B's replayed time less A's shared out among classes of facts "
      "(durations per function, copies, the machine's costs, its processors, the structure) by counterfactual "
      "replays and Shapley values, which add up to the difference exactly (docs/explain.md). Use explain for two "
      "runs; `diff` for two replay reports (one trace on two machines or settings); `profile --against-trace` for "
      "where busy time moved, task context by task context.");
  cmd->add_option("a", opts->a, "run A (the baseline): folder, log files, archive or packed trace")->required();
  cmd->add_option("b", opts->b, "run B, the same application")->required();
  cmd->add_option("-m,--machine", opts->machines,
                  "the machine the runs are replayed on: 'traced' (each run its own traced machine, the default), a "
                  "file for both, or two files, one per run (a generator's machine.toml each); a bundled name: titan")
      ->expected(1, 2)
      ->transform(machine_name());
  cmd->add_option("--set", opts->overrides, "override a value on the machines: key=value (repeatable)");
  cmd->add_flag("--json", opts->json, "print JSON instead of text");
  cmd->add_option("-o,--output", opts->output, "write the report to this file (whole or not at all)");
  cmd->add_option("--html", opts->html, "also write a self-contained HTML page with a waterfall chart here");
  add_unlogged_option(cmd, opts->replay.unlogged_time);
  add_queue_order_option(cmd, opts->replay.queue_order);
  add_reading_options(cmd, opts->reading, common);
  cmd->add_option("--traced-cores-b", opts->traced_cores_b,
                  "the cores run B ran on, when not --traced-cores (runs on 1 and 2 cores: --traced-cores 1 "
                  "--traced-cores-b 2)")
      ->check(CLI::Range(std::int64_t{0}, machine::kMaxCoresPerNode));
  return [opts, &common]() -> int {
    RunContext ctx = command_context("explain", {opts->a, opts->b}, common, opts->reading);
    explain::ExplainOptions o;
    const std::vector<std::string> machines = opts->machines.empty() ? std::vector<std::string>{"traced"} : opts->machines;
    o.machine_a = {machines.front(), opts->overrides};
    o.machine_b = {machines.back(), opts->overrides};
    auto settings = session::replay_settings(opts->replay);
    if (!settings) {
      print_error("explain", settings.error().to_string());
      return kExitUsage;
    }
    o.rules = settings->engine.rules;
    o.threads = common.threads;
    ctx.options["machines"] = machines;
    ctx.options["unlogged_time"] = opts->replay.unlogged_time;
    ctx.options["queue_order"] = opts->replay.queue_order;
    auto a = open_trace("explain", {opts->a}, common, opts->reading);
    if (!a) return kExitBadInput;
    ReadingFlags reading_b = opts->reading;
    if (opts->traced_cores_b) reading_b.options.build.traced_cores = *opts->traced_cores_b;
    auto b = open_trace("explain", {opts->b}, common, reading_b);
    if (!b) return kExitBadInput;
    auto result = explain::explain_traces(*a, *b, o);
    if (!result) {
      print_error("explain", result.error().to_string());
      return kExitBadInput;
    }
    ctx.stop_clock();
    const std::string text =
        opts->json ? render_explain_json(*result, ctx).dump(2) + "\n" : render_explain_text(*result);
    if (!emit_report("explain", opts->output, text)) return kExitBadInput;
    if (!opts->html.empty() && !write_output_file("explain", opts->html, render_explain_html(*result, ctx)))
      return kExitBadInput;
    return kExitOk;
  };
}

}  // namespace rr::app
