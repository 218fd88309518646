// `realm-replay stats TRACE...`: read a trace and print its counts (text or --json).
#include <chrono>
#include <iostream>

#include "commands.hpp"
#include "graph/graph_builder.hpp"
#include "output_file.hpp"
#include "progress.hpp"
#include "parser/trace_reader.hpp"
#include "parser/trace_summary.hpp"
#include "stats_report.hpp"
#include "validate_report.hpp"

namespace rr::app {

std::function<int()> add_stats_command(CLI::App& app, const CommonOptions& common) {
  struct Options {
    std::vector<std::string> inputs;
    bool json = false;
    bool keep_going = false;
    bool strict = false;
    std::size_t max_messages = 5;
    std::string output;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "stats", "Count the records of a trace per node: kinds, processors, memories, tasks, copies, task time.");
  cmd->add_option("trace", opts->inputs,
                  "trace: a folder of node_<N>.log[.gz|.xz|.zst], log files, globs, or .tar[.gz|.xz|.zst] archives")
      ->required();
  cmd->add_flag("--json", opts->json, "print JSON instead of text");
  cmd->add_flag("--keep-going", opts->keep_going, "report unreadable files and count the readable ones");
  cmd->add_flag("--strict", opts->strict, "exit with code 1 if any line is malformed");
  cmd->add_option("--max-messages", opts->max_messages, "located messages kept per file for malformed lines")
      ->capture_default_str();
  cmd->add_option("-o,--output", opts->output, "write the report to this file (whole or not at all)");

  return [opts, &common]() -> int {
    auto started = std::chrono::steady_clock::now();
    parser::ReadOptions read;
    read.threads = common.threads;
    read.keep_going = opts->keep_going;
    read.max_messages_per_file = opts->max_messages;
    auto trace = read_trace_with_progress(opts->inputs, read);
    if (!trace) {
      std::cerr << "realm-replay stats: error: " << trace.error().to_string() << "\n";
      if (!opts->keep_going) std::cerr << "  (use --keep-going to count the readable files anyway)\n";
      return kExitBadInput;
    }
    parser::TraceSummary summary = parser::summarise(*trace);
    graph::BuildOptions build;
    build.threads = common.threads;
    graph::BuildResult graph = graph::build_event_graph_releasing(*trace, build);
    RunContext ctx{"stats", opts->inputs, common.threads, opts->keep_going, opts->strict,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()};
    std::string report;
    if (opts->json) {
      auto j = render_stats_json(summary, ctx);
      j["graph"] = graph_summary_json(graph);
      report = j.dump(2) + "\n";
    } else {
      report = render_stats_text(summary) + render_graph_summary_text(graph) + "\n" +
               render_read_line(summary, ctx);
    }
    if (!emit_report("stats", opts->output, report)) return kExitBadInput;
    for (const auto& f : summary.failed_files) std::cerr << "realm-replay stats: skipped " << f.to_string() << "\n";
    if (opts->strict && summary.total.malformed.total() > 0) {
      std::cerr << "realm-replay stats: error: " << summary.total.malformed.total()
                << " malformed line(s) (--strict)\n";
      for (const auto& d : summary.messages) std::cerr << "  " << core::format_diagnostic(d) << "\n";
      return kExitBadInput;
    }
    return kExitOk;
  };
}

}  // namespace rr::app
