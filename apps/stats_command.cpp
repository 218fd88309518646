// `realm-replay stats TRACE...`: read a trace and print its counts (text or --json).
#include <chrono>
#include <iostream>

#include "commands.hpp"
#include "output_file.hpp"
#include "prof_stats_report.hpp"
#include "stats_report.hpp"
#include "trace_inputs.hpp"
#include "validate_report.hpp"

namespace rr::app {

std::function<int()> add_stats_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    std::vector<std::string> inputs;
    ReadingFlags reading;
    bool json = false;
    std::string output;
  };
  auto opts = std::make_shared<Options>();
  opts->reading.options.summarise = true;  // the per-node counts stats prints
  CLI::App* cmd = app.add_subcommand(
      "stats", "Count the records of a trace per node: kinds, processors, memories, tasks, copies, task time.");
  cmd->add_option("trace", opts->inputs,
                  "trace: a folder of node_<N>.log[.gz|.xz|.zst] or of Legion Prof logs (prof_<N>.gz), log files, "
                  "globs, or .tar[.gz|.xz|.zst] archives")
      ->required();
  cmd->add_flag("--json", opts->json, "print JSON instead of text");
  cmd->add_option("-o,--output", opts->output, "write the report to this file (whole or not at all)");
  add_reading_options(cmd, opts->reading, common);

  return [opts, &common]() -> int {
    RunContext ctx = command_context("stats", opts->inputs, common, opts->reading);
    auto trace = open_trace("stats", opts->inputs, common, opts->reading);
    if (!trace) return kExitBadInput;
    ctx.stop_clock();
    std::string report;
    if (trace->profile_summary) {
      // Legion Prof logs: their own counts (record types by the header's names), no graph yet.
      report = opts->json ? render_prof_stats_json(*trace->profile_summary, ctx).dump(2) + "\n"
                          : render_prof_stats_text(*trace->profile_summary, ctx);
      return emit_report("stats", opts->output, report) ? kExitOk : kExitBadInput;
    }
    const parser::TraceSummary& summary = *trace->summary;
    if (opts->json) {
      auto j = render_stats_json(summary, ctx);
      j["graph"] = graph_summary_json(trace->built);
      report = j.dump(2) + "\n";
    } else {
      report = render_stats_text(summary) + render_graph_summary_text(trace->built) + "\n" +
               render_read_line(summary, ctx);
    }
    if (!emit_report("stats", opts->output, report)) return kExitBadInput;
    return kExitOk;
  };
}

}  // namespace rr::app
