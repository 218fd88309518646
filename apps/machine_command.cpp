// `realm-replay machine from-trace TRACE [-o FILE]`: the machine a trace was taken on, as a commented TOML file.
#include <iostream>

#include "commands.hpp"
#include "machine_models/traced_machine.hpp"
#include "output_file.hpp"
#include "session/traced_fit.hpp"
#include "trace_inputs.hpp"

namespace rr::app {

std::function<int()> add_machine_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    std::vector<std::string> inputs;
    ReadingFlags reading;
    std::string output;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("machine", "Machine descriptions derived from traces.");
  cmd->require_subcommand(1);
  CLI::App* from = cmd->add_subcommand(
      "from-trace",
      "Write the machine a trace was taken on as a commented TOML file: processors per kind per node and memories as "
      "logged, every other value marked as an assumption. `--machine traced` uses it directly in every command.");
  from->add_option("trace", opts->inputs, "trace: folder, log files, globs or tar archives")->required();
  from->add_option("-o,--output", opts->output, "write to this file (whole or not at all)");
  add_reading_options(from, opts->reading, common);
  return [opts, &common]() -> int {
    auto trace = open_trace("machine from-trace", opts->inputs, common, opts->reading);
    if (!trace) return kExitBadInput;
    return emit_report("machine from-trace", opts->output, session::fit_traced_machine(*trace).toml)
               ? kExitOk
               : kExitBadInput;
  };
}

}  // namespace rr::app
