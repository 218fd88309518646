// `realm-replay gen s3d|chain|fork-join|stencil|random-dag`: synthetic traces with their ground truth.
#include <iostream>

#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "gen/plant.hpp"
#include "gen/s3d.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "messages.hpp"

namespace rr::app {

namespace {

// Planted changes (docs/explain.md): the same seed with and without one gives two runs of one program.
void add_planted_options(CLI::App* g, std::vector<std::string>& slow, std::int64_t& network_latency_ns) {
  g->add_option("--slow", slow,
                "planted change: FUNC@NODE=FACTOR makes every task of function FUNC on node NODE FACTOR times as long "
                "(repeatable)");
  g->add_option("--network-latency", network_latency_ns, "planted change: the truth machine's one-way network latency (ns)")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{10'000'000'000}));
}

// Applies every --slow; false after a message when one cannot be read or changes no task.
bool plant_slow_functions(gen::Program& program, const std::vector<std::string>& values) {
  for (const std::string& text : values) {
    std::string error;
    auto slow = gen::parse_slow_function(text, error);
    if (!slow) {
      print_error("gen", "--slow: " + error);
      return false;
    }
    if (gen::plant_slow_function(program, *slow) == 0) {
      print_error("gen", "--slow " + text + ": the program has no task of function " + std::to_string(slow->function) +
                             " on node " + std::to_string(slow->node));
      return false;
    }
  }
  return true;
}

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

// gen s3d --mapping, the old name of --strategy: taken with a warning, refused beside --strategy.
bool take_old_strategy_name(std::string& strategy, const std::string& old_name_value, bool strategy_given) {
  if (old_name_value.empty()) return true;
  if (strategy_given) {
    print_error("gen", "--mapping is the old name of --strategy: give one of them");
    return false;
  }
  print_message("gen", "warning: gen s3d --mapping is now --strategy (--mapping elsewhere names a mapping file); the "
                       "old name will be removed");
  strategy = old_name_value;
  return true;
}

}  // namespace

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
    std::string mapping = "all";  // --strategy
    std::string old_mapping;      // --mapping, the old name of --strategy
    std::uint32_t steps = 1;
    std::uint32_t points = 48;
    std::uint32_t dims = 1;
    bool inject_cycle = false;
    gen::Quirks quirks;
    std::uint32_t utility = 2;
    std::vector<std::string> slow;
    std::int64_t network_latency_ns = gen::TruthMachine{}.network_latency_ns;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "gen", "Generate a synthetic trace (node_N.log per node) with its ground truth (truth.json) and the machine the "
             "truth was scheduled on (machine.toml). `gen GENERATOR --help` lists a generator's options.");
  cmd->require_subcommand(1);
  // Each generator is a subcommand with its own options and the shared ones, so that its --help lists only
  // what applies to it.
  auto generator = [&](const char* name, const char* what) {
    CLI::App* g = cmd->add_subcommand(name, what);
    g->callback([opts, name] { opts->kind = name; });
    return g;
  };
  // The shared options, after a generator's own so that its help starts with what is particular to it.
  auto shared = [&](CLI::App* g, bool small, bool cycle) {
    g->add_option("-o,--out", opts->out, "output folder")->required();
    g->add_option("--nodes", opts->nodes, "nodes (more than 32 gives 64-bit ids)")->capture_default_str()->check(CLI::Range(1u, 65536u));
    if (small)
      g->add_option("--cpus", opts->cpus, "CPU processors per node")->capture_default_str()->check(CLI::Range(1u, 4096u));
    g->add_option("--seed", opts->seed, "random seed (same seed, same bytes)")->capture_default_str();
    if (cycle)
      g->add_flag("--inject-cycle", opts->inject_cycle,
                  "a task without inputs also waits on a later op that depends on it (for validation; the truth then "
                  "lists what never runs)");
    g->add_option("--compress", opts->compress, "none, gzip, xz or zstd")
        ->capture_default_str()
        ->check(CLI::IsMember({"none", "gzip", "xz", "zstd"}));
    add_planted_options(g, opts->slow, opts->network_latency_ns);
    auto rate = finite_range(0.0, 1.0);
    g->add_option("--nil-args", opts->quirks.nil_args, "quirk rate: Task Request args printed (nil)")->check(rate);
    g->add_option("--spaced-preconditions", opts->quirks.spaced_preconditions,
                  "quirk rate: \"(id, gen)\" in Event Precondition inputs")->check(rate);
    g->add_option("--orphan-copy-sizes", opts->quirks.orphan_copy_sizes,
                  "quirk rate: extra 0-byte Copy Size with no request after a copy")->check(rate);
    g->add_option("--external-preconditions", opts->quirks.external_preconditions,
                  "quirk rate: a task without inputs waits on an event nothing produces")->check(rate);
    g->add_option("--other-categories", opts->quirks.other_categories,
                  "quirk rate: a line of another logger category before a line")->check(rate);
    g->add_flag("--pending-dump", opts->quirks.pending_dump, "quirk: the PRINTING ALL PENDING EVENTS block at each file's end");
    g->add_flag("--truncate-last-line", opts->quirks.truncate_last_line, "quirk: node 0's last line cut in half");
  };
  CLI::App* s3d = generator("s3d", "S3D-like: RHS tasks per RK stage, drivers, meta-tasks, ghost exchanges through "
                                   "phase barriers (docs/generator.md)");
  s3d->add_option("--mechanism", opts->mechanism, "dme or heptane")->capture_default_str()->check(CLI::IsMember({"dme", "heptane"}));
  s3d->add_option("--strategy", opts->mapping, "the application's mapping: all (RHS tasks on the GPU) or mixed (species "
                  "work on CPUs)")->capture_default_str()->check(CLI::IsMember({"all", "mixed"}));
  // The old name, ambiguous beside replay's --mapping FILE: still read, with a warning (take_old_strategy_name).
  s3d->add_option("--mapping", opts->old_mapping)->check(CLI::IsMember({"all", "mixed"}))->group("");
  s3d->add_option("--steps", opts->steps, "time steps (6 RK stages each)")->capture_default_str();
  s3d->add_option("--points", opts->points, "grid points per side per node, 48 or 64")
      ->capture_default_str()
      ->check(CLI::IsMember({48u, 64u}));
  s3d->add_option("--utility", opts->utility, "utility processors per node (meta-tasks go round-robin over them)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 64u));
  shared(s3d, false, false);
  CLI::App* chain = generator("chain", "tasks each waiting for the one before, alternating between nodes");
  chain->add_option("--length", opts->length, "tasks")->capture_default_str();
  shared(chain, true, true);
  CLI::App* fork_join = generator("fork-join", "stages of one task forking tasks over every CPU, joined by a merge");
  fork_join->add_option("--width", opts->width, "tasks per stage")->capture_default_str();
  fork_join->add_option("--stages", opts->stages, "stages")->capture_default_str();
  shared(fork_join, true, false);
  CLI::App* stencil = generator("stencil", "halo exchange through phase barriers, nodes on a line or a 3-D grid");
  stencil->add_option("--dims", opts->dims, "nodes on a line (1) or a 3-D grid (3)")
      ->capture_default_str()
      ->check(CLI::IsMember({1u, 3u}));
  stencil->add_option("--steps", opts->steps, "iterations")->capture_default_str();
  shared(stencil, true, true);
  CLI::App* dag = generator("random-dag", "random tasks, copies and merges over earlier operations");
  dag->add_option("--ops", opts->ops, "operations")->capture_default_str();
  shared(dag, true, true);
  return [opts, s3d]() -> int {
    if (!take_old_strategy_name(opts->mapping, opts->old_mapping, s3d->count("--strategy") > 0)) return kExitUsage;
    gen::SmallOptions o{opts->nodes, opts->cpus, opts->seed};
    gen::Program program =
        opts->kind == "s3d"         ? gen::make_s3d({opts->mechanism, opts->mapping, opts->nodes, opts->steps, opts->points, opts->seed, opts->utility})
        : opts->kind == "chain"     ? gen::make_chain(opts->length, o)
        : opts->kind == "fork-join" ? gen::make_fork_join(opts->width, opts->stages, o)
        : opts->kind == "stencil"   ? gen::make_stencil(opts->dims, opts->steps, o)
                                    : gen::make_random_dag(opts->ops, o);
    if (opts->inject_cycle && !gen::inject_cycle(program)) {
      print_error("gen", "--inject-cycle needs a program with a task that has no inputs");
      return kExitUsage;
    }
    if (!plant_slow_functions(program, opts->slow)) return kExitUsage;
    gen::TruthMachine machine;
    machine.network_latency_ns = opts->network_latency_ns;
    gen::Truth truth = gen::schedule(program, machine);
    const gen::Compression c = opts->compress == "gzip" ? gen::Compression::gzip
                               : opts->compress == "xz" ? gen::Compression::xz
                               : opts->compress == "zstd" ? gen::Compression::zstd
                                                          : gen::Compression::none;
    return write_generated(program, truth, machine, opts->out, c, opts->quirks);
  };
}

}  // namespace rr::app
