// `realm-replay validate TRACE...`: build the global event graph and report what does not fit together.
#include <chrono>
#include <iostream>
#include <map>

#include "commands.hpp"
#include "graph/graph_builder.hpp"
#include "output_file.hpp"
#include "parser/trace_reader.hpp"
#include "progress.hpp"
#include "validate_report.hpp"

namespace rr::app {

std::function<int()> add_validate_command(CLI::App& app, const CommonOptions& common) {
  struct Options {
    std::vector<std::string> inputs;
    bool json = false;
    bool strict = false;
    std::size_t examples = 10;
    std::string output;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "validate", "Build the global event graph and report dangling events, duplicate producers, merge count "
                  "mismatches, unmatched timing records, incomplete barrier phases and cycles.");
  cmd->add_option("trace", opts->inputs, "trace: folder, log files, globs or tar archives")->required();
  cmd->add_flag("--json", opts->json, "print JSON instead of text");
  cmd->add_flag("--strict", opts->strict, "exit with code 1 if anything is found");
  cmd->add_option("--examples", opts->examples, "ids listed per kind of finding")->capture_default_str();
  cmd->add_option("-o,--output", opts->output, "write the report to this file (whole or not at all)");

  return [opts, &common]() -> int {
    auto started = std::chrono::steady_clock::now();
    parser::ReadOptions read;
    read.threads = common.threads;
    auto trace = read_trace_with_progress(opts->inputs, read);
    if (!trace) {
      std::cerr << "realm-replay validate: error: " << trace.error().to_string() << "\n";
      return kExitBadInput;
    }
    graph::BuildOptions build;
    build.examples_per_finding = opts->examples;
    build.threads = common.threads;
    graph::BuildResult result = graph::build_event_graph_releasing(*trace, build);
    RunContext ctx{"validate", opts->inputs, common.threads, false, opts->strict,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()};
    std::string report = opts->json ? render_validate_json(*trace, result, ctx).dump(2) + "\n"
                                    : render_validate_text(*trace, result, ctx);
    if (!emit_report("validate", opts->output, report)) return kExitBadInput;
    if (opts->strict && result.findings.total() > 0) {
      std::cerr << "realm-replay validate: error: " << result.findings.total() << " finding(s) (--strict)\n";
      return kExitBadInput;
    }
    return kExitOk;
  };
}

}  // namespace rr::app
