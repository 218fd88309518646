// `realm-replay pack TRACE... -o FILE.rrg`: read and build a trace once, fit its traced machine, and write it as
// a packed trace that every command then accepts wherever a TRACE goes, reloaded without parsing.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "platform/output_target.hpp"
#include "session/trace_packing.hpp"
#include "trace_inputs.hpp"
#include "messages.hpp"

namespace rr::app {

std::function<int()> add_pack_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    std::vector<std::string> inputs;
    ReadingFlags reading;
    std::string output;
    bool no_fit = false;
  };
  auto opts = std::make_shared<Options>();
  opts->reading.options.summarise = true;  // a packed trace serves stats too
  CLI::App* cmd = app.add_subcommand(
      "pack", "Read and build a trace once and write it as a packed trace (.rrg): the event graph, machine "
              "records, counts, findings and fitted traced machine in one checksummed file that every command "
              "reads in place of the trace, many times faster.");
  cmd->add_option("trace", opts->inputs, "trace: folder, log files, globs or tar archives")->required();
  cmd->add_option("-o,--output", opts->output, "the packed trace to write (whole or not at all), e.g. run.rrg")->required();
  cmd->add_option("--examples", opts->reading.options.build.examples_per_finding, "ids kept per kind of graph finding")
      ->capture_default_str();
  cmd->add_flag("--no-fit", opts->no_fit,
                "do not fit the traced machine's network latency now (up to 16 replays): `-m traced` on the packed "
                "trace then fits it each time, as on the logs");
  add_reading_options(cmd, opts->reading, common);

  return [opts, &common]() -> int {
    const auto started = std::chrono::steady_clock::now();
    auto trace = open_trace("pack", opts->inputs, common, opts->reading);
    if (!trace) return kExitBadInput;
    platform::OutputTarget out;
    if (std::string err = out.open(opts->output); !err.empty()) {
      print_error("pack", err);
      return kExitBadInput;
    }
    // Not committed after a failure: the target then removes its temporary file and leaves any old one alone.
    auto packed = session::write_packed_trace(*trace, out, !opts->no_fit);
    const std::string err = !packed ? (out.write_error().empty() ? packed.error().to_string() : out.write_error())
                                    : out.commit();
    if (!err.empty()) {
      print_error("pack", err);
      return kExitBadInput;
    }
    if (!opts->reading.quiet) {
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      char line[160];
      std::snprintf(line, sizeof line, "packed %u operations and %llu edges into %s: %.1f MB, %u sections, in %.2f s\n",
                    trace->graph().vertex_count(), static_cast<unsigned long long>(trace->graph().edge_count()),
                    opts->output.c_str(), static_cast<double>(packed->bytes) / 1e6, packed->sections, seconds);
      std::cerr << line;
    }
    return kExitOk;
  };
}

}  // namespace rr::app
