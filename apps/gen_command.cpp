// `realm-replay gen s3d|chain|fork-join|stencil|random-dag`: synthetic traces with their ground truth.
#include <iostream>

#include "gen/log_writer.hpp"
#include "commands.hpp"
#include "gen_options.hpp"
#include "messages.hpp"

namespace rr::app {

namespace {

// Writes the trace, its truth and machine, and says what it wrote.
int write_generated(const gen::Program& program, const gen::Truth& truth, const gen::TruthMachine& machine,
                    const std::string& out, gen::Compression c, const gen::Quirks& quirks) {
  try {
    auto written = gen::write_trace(program, truth, machine, out, c, quirks);
    std::cout << "wrote " << program.nodes << " node log(s), " << written.text_bytes << " bytes of text, to "
              << out << "; truth makespan " << truth.makespan_ns << " ns\n";
    if (truth.never_ran) std::cout << "  operations that never run (injected cycle): " << truth.never_ran << "\n";
    for (const auto& [kind, n] : written.records) std::cout << "  " << kind << ": " << n << "\n";
    for (const auto& [quirk, n] : written.injected) std::cout << "  injected " << quirk << ": " << n << "\n";
  } catch (const std::exception& e) {
    print_error("gen", e.what());
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace

std::function<int()> add_gen_command(CLI::App& app, CommonOptions&) {
  auto opts = std::make_shared<GenOptions>();
  CLI::App* cmd = app.add_subcommand(
      "gen", "Generate a synthetic trace (node_N.log per node) with its ground truth (truth.json) and the machine the "
             "truth was scheduled on (machine.toml). `gen GENERATOR --help` lists a generator's options.");
  cmd->require_subcommand(1);
  add_generators(cmd, *opts, true);
  return [opts]() -> int {
    auto generated = generate(*opts, "gen");
    if (!generated) return kExitUsage;
    return write_generated(generated->program, generated->truth, generated->machine, opts->out,
                           generated->compression, generated->quirks);
  };
}

}  // namespace rr::app
