// The generators' options (apps/gen_options.hpp): registered once for gen and for study's --gen.
#include "gen_options.hpp"

#include "gen/generators.hpp"
#include "gen/plant.hpp"
#include "gen/s3d.hpp"
#include "messages.hpp"
#include "option_checks.hpp"

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
bool plant_slow_functions(gen::Program& program, const std::vector<std::string>& values, const char* command) {
  for (const std::string& text : values) {
    std::string error;
    auto slow = gen::parse_slow_function(text, error);
    if (!slow) {
      print_error(command, "--slow: " + error);
      return false;
    }
    if (gen::plant_slow_function(program, *slow) == 0) {
      print_error(command, "--slow " + text + ": the program has no task of function " +
                               std::to_string(slow->function) + " on node " + std::to_string(slow->node));
      return false;
    }
  }
  return true;
}

// gen s3d --mapping, the old name of --strategy: taken with a warning, refused beside --strategy.
bool take_old_strategy_name(std::string& strategy, const std::string& old_name_value, bool strategy_given,
                            const char* command) {
  if (old_name_value.empty()) return true;
  if (strategy_given) {
    print_error(command, "--mapping is the old name of --strategy: give one of them");
    return false;
  }
  print_message(command, "warning: gen s3d --mapping is now --strategy (--mapping elsewhere names a mapping file); "
                         "the old name will be removed");
  strategy = old_name_value;
  return true;
}

// The options every generator shares, after a generator's own so that its help starts with what is particular to it.
void add_shared(CLI::App* g, GenOptions& opts, bool standalone, bool small, bool cycle) {
  if (standalone) {
    g->add_option("-o,--out", opts.out, "output folder")->required();
    g->add_option("--nodes", opts.nodes, "nodes (more than 32 gives 64-bit ids)")->capture_default_str()->check(CLI::Range(1u, 65536u));
  }
  if (small)
    g->add_option("--cpus", opts.cpus, "CPU processors per node")->capture_default_str()->check(CLI::Range(1u, 4096u));
  g->add_option("--seed", opts.seed, "random seed (same seed, same bytes)")->capture_default_str();
  if (cycle)
    g->add_flag("--inject-cycle", opts.inject_cycle,
                "a task without inputs also waits on a later op that depends on it (for validation; the truth then "
                "lists what never runs)");
  g->add_option("--compress", opts.compress, "none, gzip, xz or zstd")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "gzip", "xz", "zstd"}));
  add_planted_options(g, opts.slow, opts.network_latency_ns);
  auto rate = finite_range(0.0, 1.0);
  g->add_option("--nil-args", opts.quirks.nil_args, "quirk rate: Task Request args printed (nil)")->check(rate);
  g->add_option("--spaced-preconditions", opts.quirks.spaced_preconditions,
                "quirk rate: \"(id, gen)\" in Event Precondition inputs")->check(rate);
  g->add_option("--orphan-copy-sizes", opts.quirks.orphan_copy_sizes,
                "quirk rate: extra 0-byte Copy Size with no request after a copy")->check(rate);
  g->add_option("--external-preconditions", opts.quirks.external_preconditions,
                "quirk rate: a task without inputs waits on an event nothing produces")->check(rate);
  g->add_option("--other-categories", opts.quirks.other_categories,
                "quirk rate: a line of another logger category before a line")->check(rate);
  g->add_flag("--pending-dump", opts.quirks.pending_dump, "quirk: the PRINTING ALL PENDING EVENTS block at each file's end");
  g->add_flag("--truncate-last-line", opts.quirks.truncate_last_line, "quirk: node 0's last line cut in half");
}

}  // namespace

void add_generators(CLI::App* cmd, GenOptions& opts, bool standalone) {
  auto generator = [&](const char* name, const char* what) {
    CLI::App* g = cmd->add_subcommand(name, what);
    g->callback([&opts, name] { opts.kind = name; });
    return g;
  };
  CLI::App* s3d = generator("s3d", "S3D-like: RHS tasks per RK stage, drivers, meta-tasks, ghost exchanges through "
                                   "phase barriers (docs/generator.md)");
  s3d->add_option("--mechanism", opts.mechanism, "dme or heptane")->capture_default_str()->check(CLI::IsMember({"dme", "heptane"}));
  s3d->add_option("--strategy", opts.mapping, "the application's mapping: all (RHS tasks on the GPU) or mixed (species "
                  "work on CPUs)")->capture_default_str()->check(CLI::IsMember({"all", "mixed"}));
  // The old name, ambiguous beside replay's --mapping FILE: still read, with a warning (take_old_strategy_name).
  s3d->add_option("--mapping", opts.old_mapping)->check(CLI::IsMember({"all", "mixed"}))->group("");
  s3d->add_option("--steps", opts.steps, "time steps (6 RK stages each)")->capture_default_str();
  s3d->add_option("--points", opts.points, "grid points per side per node, 48 or 64")
      ->capture_default_str()
      ->check(CLI::IsMember({48u, 64u}));
  s3d->add_option("--utility", opts.utility, "utility processors per node (meta-tasks go round-robin over them)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 64u));
  s3d->add_option("--cpu-speed", opts.cpu_speed,
                  "planted change: the mixed mapping's CPU tasks run this many times as fast (busy time / it)")
      ->capture_default_str()
      ->check(finite_range(0.001, 1000.0));
  s3d->add_option("--host-copy-bytes", opts.host_copy_bytes,
                  "planted change: bytes of each of the mixed mapping's device-host copies (default: 3481600, 8 MiB "
                  "at --points 64)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 36));
  add_shared(s3d, opts, standalone, false, false);
  opts.s3d = s3d;
  CLI::App* chain = generator("chain", "tasks each waiting for the one before, alternating between nodes");
  chain->add_option("--length", opts.length, "tasks")->capture_default_str();
  add_shared(chain, opts, standalone, true, true);
  CLI::App* fork_join = generator("fork-join", "stages of one task forking tasks over every CPU, joined by a merge");
  fork_join->add_option("--width", opts.width, "tasks per stage")->capture_default_str();
  fork_join->add_option("--stages", opts.stages, "stages")->capture_default_str();
  add_shared(fork_join, opts, standalone, true, false);
  CLI::App* stencil = generator("stencil", "halo exchange through phase barriers, nodes on a line or a 3-D grid");
  stencil->add_option("--dims", opts.dims, "nodes on a line (1) or a 3-D grid (3)")
      ->capture_default_str()
      ->check(CLI::IsMember({1u, 3u}));
  stencil->add_option("--steps", opts.steps, "iterations")->capture_default_str();
  add_shared(stencil, opts, standalone, true, true);
  CLI::App* dag = generator("random-dag", "random tasks, copies and merges over earlier operations");
  dag->add_option("--ops", opts.ops, "operations")->capture_default_str();
  add_shared(dag, opts, standalone, true, true);
}

std::optional<Generated> generate(const GenOptions& opts, const char* command) {
  std::string mapping = opts.mapping;
  const bool strategy_given = opts.s3d && opts.s3d->count("--strategy") > 0;
  if (!take_old_strategy_name(mapping, opts.old_mapping, strategy_given, command)) return std::nullopt;
  gen::SmallOptions o{opts.nodes, opts.cpus, opts.seed};
  Generated g;
  g.program = opts.kind == "s3d"
                  ? gen::make_s3d({opts.mechanism, mapping, opts.nodes, opts.steps, opts.points, opts.seed, opts.utility,
                                 opts.cpu_speed, opts.host_copy_bytes})
              : opts.kind == "chain"     ? gen::make_chain(opts.length, o)
              : opts.kind == "fork-join" ? gen::make_fork_join(opts.width, opts.stages, o)
              : opts.kind == "stencil"   ? gen::make_stencil(opts.dims, opts.steps, o)
                                         : gen::make_random_dag(opts.ops, o);
  if (opts.inject_cycle && !gen::inject_cycle(g.program)) {
    print_error(command, "--inject-cycle needs a program with a task that has no inputs");
    return std::nullopt;
  }
  if (!plant_slow_functions(g.program, opts.slow, command)) return std::nullopt;
  g.machine.network_latency_ns = opts.network_latency_ns;
  g.truth = gen::schedule(g.program, g.machine);
  g.compression = opts.compress == "gzip" ? gen::Compression::gzip
                  : opts.compress == "xz" ? gen::Compression::xz
                  : opts.compress == "zstd" ? gen::Compression::zstd
                                            : gen::Compression::none;
  g.quirks = opts.quirks;
  return g;
}

}  // namespace rr::app
