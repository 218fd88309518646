// `realm-replay validate TRACE...`: build the global event graph and report what does not fit together.
#include <chrono>
#include <iostream>

#include "commands.hpp"
#include "output_file.hpp"
#include "trace_inputs.hpp"
#include "validate_report.hpp"
#include "messages.hpp"

namespace rr::app {

std::function<int()> add_validate_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    std::vector<std::string> inputs;
    ReadingFlags reading;
    bool json = false;
    bool fail_on_findings = false;
    std::string output;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "validate", "Build the global event graph and report dangling events, duplicate producers, merge count "
                  "mismatches, unmatched timing records, incomplete barrier phases and cycles.");
  cmd->add_option("trace", opts->inputs, "trace: folder, log files, globs or tar archives")->required();
  cmd->add_flag("--json", opts->json, "print JSON instead of text");
  cmd->add_flag("--fail-on-findings", opts->fail_on_findings, "exit with code 1 if the graph has any finding");
  cmd->add_option("--examples", opts->reading.options.build.examples_per_finding, "ids listed per kind of finding")
      ->capture_default_str();
  cmd->add_option("-o,--output", opts->output, "write the report to this file (whole or not at all)");
  add_reading_options(cmd, opts->reading, common);

  return [opts, &common]() -> int {
    RunContext ctx = command_context("validate", opts->inputs, common, opts->reading);
    auto trace = open_trace("validate", opts->inputs, common, opts->reading);
    if (!trace) return kExitBadInput;
    ctx.options["fail_on_findings"] = opts->fail_on_findings;
    ctx.stop_clock();
    std::string report = opts->json ? render_validate_json(trace->records, trace->built, ctx).dump(2) + "\n"
                                    : render_validate_text(trace->records, trace->built, ctx);
    if (!emit_report("validate", opts->output, report)) return kExitBadInput;
    if (opts->fail_on_findings && trace->built.findings.total() > 0) {
      print_error("validate", std::to_string(trace->built.findings.total()) + " finding(s) (--fail-on-findings)");
      return kExitBadInput;
    }
    return kExitOk;
  };
}

}  // namespace rr::app
