// `realm-replay gen s3d|chain|fork-join|stencil|random-dag`: synthetic traces with their ground truth.
#include <iostream>

#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "gen/s3d.hpp"
#include "commands.hpp"

namespace rr::app {

std::function<int()> add_gen_command(CLI::App& app, CommonOptions&) {
  struct Options {
    std::string kind;
    std::string out;
    std::uint32_t nodes = 2;
    std::uint32_t cpus = 2;
    std::uint64_t seed = 1;
    std::uint32_t ops = 1000;
    std::uint32_t length = 100;
    std::uint32_t width = 8;
    std::uint32_t stages = 10;
    std::string compress = "none";
    std::string mechanism = "dme";
    std::string mapping = "all";
    std::uint32_t steps = 1;
    std::uint32_t points = 48;
    std::uint32_t dims = 1;
    bool inject_cycle = false;
    gen::Quirks quirks;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "gen", "Generate a synthetic trace (node_N.log per node) with its ground truth (truth.json) and the machine the "
             "truth was scheduled on (machine.toml).");
  cmd->add_option("generator", opts->kind, "s3d, chain, fork-join, stencil or random-dag")
      ->required()
      ->check(CLI::IsMember({"s3d", "chain", "fork-join", "stencil", "random-dag"}));
  cmd->add_option("-o,--out", opts->out, "output folder")->required();
  cmd->add_option("--nodes", opts->nodes, "nodes (more than 32 gives 64-bit ids)")->capture_default_str()->check(CLI::Range(1u, 65536u));
  cmd->add_option("--cpus", opts->cpus, "CPU processors per node (small generators)")->capture_default_str()->check(CLI::Range(1u, 4096u));
  cmd->add_option("--seed", opts->seed, "random seed (same seed, same bytes)")->capture_default_str();
  cmd->add_option("--ops", opts->ops, "random-dag: operations")->capture_default_str();
  cmd->add_option("--length", opts->length, "chain: tasks")->capture_default_str();
  cmd->add_option("--width", opts->width, "fork-join: tasks per stage")->capture_default_str();
  cmd->add_option("--stages", opts->stages, "fork-join: stages")->capture_default_str();
  cmd->add_option("--mechanism", opts->mechanism, "s3d: dme or heptane")->capture_default_str()->check(CLI::IsMember({"dme", "heptane"}));
  cmd->add_option("--mapping", opts->mapping, "s3d: all (GPU) or mixed (species work on CPUs)")
      ->capture_default_str()
      ->check(CLI::IsMember({"all", "mixed"}));
  cmd->add_option("--steps", opts->steps, "s3d: time steps (6 RK stages each); stencil: iterations")->capture_default_str();
  cmd->add_option("--dims", opts->dims, "stencil: nodes on a line (1) or a 3-D grid (3)")
      ->capture_default_str()
      ->check(CLI::IsMember({1u, 3u}));
  cmd->add_flag("--inject-cycle", opts->inject_cycle,
                "chain, random-dag, stencil: a task without inputs also waits on a later op that depends on it (for "
                "validation; the truth then lists what never runs)");
  cmd->add_option("--points", opts->points, "s3d: grid points per side per node, 48 or 64")
      ->capture_default_str()
      ->check(CLI::IsMember({48u, 64u}));
  auto rate = CLI::Range(0.0, 1.0);
  cmd->add_option("--nil-args", opts->quirks.nil_args, "quirk rate: Task Request args printed (nil)")->check(rate);
  cmd->add_option("--spaced-preconditions", opts->quirks.spaced_preconditions,
                  "quirk rate: \"(id, gen)\" in Event Precondition inputs")->check(rate);
  cmd->add_option("--orphan-copy-sizes", opts->quirks.orphan_copy_sizes,
                  "quirk rate: extra 0-byte Copy Size with no request after a copy")->check(rate);
  cmd->add_option("--external-preconditions", opts->quirks.external_preconditions,
                  "quirk rate: a task without inputs waits on an event nothing produces")->check(rate);
  cmd->add_option("--other-categories", opts->quirks.other_categories,
                  "quirk rate: a line of another logger category before a line")->check(rate);
  cmd->add_flag("--pending-dump", opts->quirks.pending_dump, "quirk: the PRINTING ALL PENDING EVENTS block at each file's end");
  cmd->add_flag("--truncate-last-line", opts->quirks.truncate_last_line, "quirk: node 0's last line cut in half");
  cmd->add_option("--compress", opts->compress, "none, gzip, xz or zstd")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "gzip", "xz", "zstd"}));
  return [opts]() -> int {
    gen::SmallOptions o{opts->nodes, opts->cpus, opts->seed};
    gen::Program program =
        opts->kind == "s3d"         ? gen::make_s3d({opts->mechanism, opts->mapping, opts->nodes, opts->steps, opts->points, opts->seed})
        : opts->kind == "chain"     ? gen::make_chain(opts->length, o)
        : opts->kind == "fork-join" ? gen::make_fork_join(opts->width, opts->stages, o)
        : opts->kind == "stencil"   ? gen::make_stencil(opts->dims, opts->steps, o)
                                    : gen::make_random_dag(opts->ops, o);
    if (opts->inject_cycle && (opts->kind == "s3d" || !gen::inject_cycle(program))) {
      std::cerr << "realm-replay gen: error: --inject-cycle needs a chain, random-dag or stencil program with a task "
                   "that has no inputs\n";
      return kExitUsage;
    }
    gen::TruthMachine machine;
    gen::Truth truth = gen::schedule(program, machine);
    const gen::Compression c = opts->compress == "gzip" ? gen::Compression::gzip
                               : opts->compress == "xz" ? gen::Compression::xz
                               : opts->compress == "zstd" ? gen::Compression::zstd
                                                          : gen::Compression::none;
    try {
      auto written = gen::write_trace(program, truth, machine, opts->out, c, opts->quirks);
      std::cout << "wrote " << program.nodes << " node log(s), " << written.text_bytes << " bytes of text, to "
                << opts->out << "; truth makespan " << truth.makespan_ns << " ns\n";
      if (truth.never_ran) std::cout << "  operations that never run (injected cycle): " << truth.never_ran << "\n";
      for (const auto& [kind, n] : written.records) std::cout << "  " << kind << ": " << n << "\n";
      for (const auto& [quirk, n] : written.injected) std::cout << "  injected " << quirk << ": " << n << "\n";
    } catch (const std::exception& e) {
      std::cerr << "realm-replay gen: error: " << e.what() << "\n";
      return kExitBadInput;
    }
    return kExitOk;
  };
}

}  // namespace rr::app
