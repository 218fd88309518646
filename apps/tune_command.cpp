// `realm-replay tune TRACE -m MACHINE`: a search for a better mapping of the trace on the machine (docs/mapping.md,
// Tuning), its best mapping written as a mapping file that `replay --mapping` reads.
#include "commands.hpp"
#include "messages.hpp"
#include "option_checks.hpp"
#include "output_file.hpp"
#include "trace_inputs.hpp"
#include "tune_report.hpp"

#include "machine_models/factors_file.hpp"
#include "machine_models/machine_limits.hpp"

namespace rr::app {

namespace {

struct TuneFlags {
  ReplayInputs in;
  std::string factors;
  std::uint32_t cores = 0;
  std::uint64_t budget = 400;
  std::uint32_t rounds = 100;
  std::uint64_t seed = 1;
  bool no_early_stop = false;
  std::string write_mapping;
  bool json = false;
  std::string output;
};

void add_tune_options(CLI::App* cmd, TuneFlags& f) {
  cmd->add_option("--factors", f.factors,
                  "busy-time factors per function and kind (TOML: [18] then gpu = 0.1): the moves the search may make, "
                  "beside the machine's function_speed");
  cmd->add_option("--cores", f.cores,
                  "processors of the kinds the search counts (CPU and utility) on one node, at most; default: the "
                  "machine's node.cores, else the starting mapping's own")
      ->check(CLI::Range(std::int64_t{1}, machine::kMaxCoresPerNode));
  cmd->add_option("--budget", f.budget, "candidates replayed at most")->check(CLI::Range(1, 1000000))->capture_default_str();
  cmd->add_option("--rounds", f.rounds, "rounds at most")->check(CLI::Range(1, 100000))->capture_default_str();
  cmd->add_option("--seed", f.seed, "orders each round's candidates: decides between equal estimates and what a "
                                    "budget cuts")
      ->capture_default_str();
  cmd->add_flag("--no-early-stop", f.no_early_stop,
                "replay every candidate to its end, not only until it passes the best so far (the same search, slower)");
  cmd->add_option("--write-mapping", f.write_mapping, "write the best mapping here, as a mapping file for replay --mapping")
      ->check(output_path());
  cmd->add_flag("--json", f.json, "print JSON instead of text");
  cmd->add_option("-o,--output", f.output, "write the report to this file (whole or not at all)")->check(output_path());
}

// The replay command that gives the best estimate from the written mapping file.
std::string reproduce_command(const TuneFlags& f, const session::LoadedTrace& trace) {
  std::string cmd = "realm-replay replay";
  for (const auto& input : f.in.trace) cmd += " " + input;
  cmd += " -m " + f.in.machine;
  for (const auto& o : f.in.overrides) cmd += " --set " + o;
  const session::ReplayChoices& c = f.in.replay;
  if (c.unlogged_time != replay::unlogged_time_name(replay::UnloggedTime::measured)) cmd += " --unlogged-time " + c.unlogged_time;
  if (c.queue_order != replay::queue_order_name(replay::QueueOrder::observed)) cmd += " --queue-order " + c.queue_order;
  if (trace.traced_cores) cmd += " --traced-cores " + std::to_string(trace.traced_cores);
  return cmd + " --mapping " + f.write_mapping;
}

// A comment line of the written file: one line, whatever the paths hold.
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

}  // namespace

std::function<int()> add_tune_command(CLI::App& app, CommonOptions& common) {
  auto f = std::make_shared<TuneFlags>();
  CLI::App* cmd = app.add_subcommand("tune", "Search for a better mapping of a trace on a machine: moved functions, "
                                             "processor counts, placement, node map.");
  add_replay_inputs(cmd, f->in, common);
  add_tune_options(cmd, *f);
  return [f, &common]() -> int {
    RunContext ctx = replay_context("tune", f->in, common);
    ctx.options["factors"] = f->factors;
    ctx.options["cores"] = f->cores;
    ctx.options["budget"] = f->budget;
    ctx.options["rounds"] = f->rounds;
    ctx.options["seed"] = f->seed;
    ctx.options["early_stop"] = !f->no_early_stop;
    auto settings = session::replay_settings(f->in.replay);
    if (!settings) {
      print_error("tune", settings.error().to_string());
      return kExitBadInput;
    }
    std::optional<machine::FunctionFactors> factors;
    if (!f->factors.empty()) {
      auto loaded = machine::load_factors(f->factors);
      if (!loaded) {
        print_error("tune", loaded.error().to_string());
        return kExitBadInput;
      }
      factors = std::move(*loaded);
    }
    auto trace = open_trace("tune", f->in.trace, common, f->in.reading);
    if (!trace) return kExitBadInput;
    if (auto note = session::eft_note(settings->mapping)) print_message("tune", "note: " + *note);
    auto model = session::load_machine_for(*trace, {f->in.machine, f->in.overrides});
    if (!model) {
      print_error("tune", model.error().to_string());
      return kExitBadInput;
    }
    tuning::TuneOptions options;
    options.space = {factors ? &*factors : nullptr, f->cores};
    options.budget = f->budget;
    options.rounds = f->rounds;
    options.seed = f->seed;
    options.threads = common.threads;
    options.early_stop = !f->no_early_stop;
    auto result = tuning::tune(*trace, *model, *settings, options);
    if (!result) {
      print_error("tune", result.error().to_string());
      return kExitBadInput;
    }
    ctx.machine = MachineContext{model->name, model->source, f->in.overrides};
    ctx.stop_clock();
    TuneView view{*result, trace->graph(), trace->label, model->name, model->source, f->budget, f->rounds, f->seed,
                  !f->no_early_stop, f->write_mapping, f->write_mapping.empty() ? "" : reproduce_command(*f, *trace)};
    const std::string report = f->json ? render_tune_json(view, ctx).dump(2) + "\n" : render_tune_text(view);
    if (!f->write_mapping.empty()) {
      const std::vector<std::string> header{
          one_line("The best mapping realm-replay tune found for " + trace->label + " on " + model->name + ": " +
                   std::to_string(result->best_ns) + " ns (the starting mapping: " + std::to_string(result->start_ns) +
                   " ns)."),
          one_line("Reproduce: " + view.reproduce)};
      if (!write_output_file("tune", f->write_mapping, machine::mapping_toml(result->best, header))) return kExitBadInput;
    }
    return emit_report("tune", f->output, report) ? kExitOk : kExitBadInput;
  };
}

}  // namespace rr::app
