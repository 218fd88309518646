// `realm-replay profile TRACE --machine FILE`: folded stacks of busy (or critical-path) time per task context,
// or the differential form against another trace or machine.
#include <iostream>

#include "bundled_machines.hpp"
#include "commands.hpp"
#include "output_file.hpp"
#include "replay/context_profile.hpp"
#include "replay/critical_path.hpp"
#include "trace_inputs.hpp"

namespace rr::app {

std::function<int()> add_profile_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    ReplayInputs in;
    bool critical = false;
    std::vector<std::string> against_trace;
    std::string against_machine;
    std::string output;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "profile",
      "Folded stacks (\"main;f17;calc_new_currents 1234\", microseconds) of time per task-nesting context, for "
      "flamegraph.pl, inferno or speedscope; functions by name where the trace or a names file (--names) gives one; "
      "with --against-trace/--against-machine the differential form \"stack before after\". --against-trace shows where "
      "busy time moved between two runs, context by context; `explain A B` says how much of the run time each change "
      "is worth; `diff` compares two replay reports.");
  add_replay_inputs(cmd, opts->in, common);
  cmd->add_flag("--critical", opts->critical, "fold critical-path time instead of busy time");
  cmd->add_option("--against-trace", opts->against_trace, "the 'after' run: this trace on the same machine (where busy time moved; "
                  "`explain` attributes the run time)");
  cmd->add_option("--against-machine", opts->against_machine, "the 'after' run: the same trace on this machine")
      ->transform(machine_name());
  cmd->add_option("-o,--output", opts->output, "write to this file (whole or not at all)");
  return [opts, &common]() -> int {
    auto profile = [&](const ReplayInputs& in) -> std::optional<replay::ContextTrie> {
      auto s = open_replay("profile", in, common, {}, opts->critical);
      if (!s) return std::nullopt;
      return replay::ContextTrie::build(s->trace.graph(), s->run.result, s->run.critical ? &*s->run.critical : nullptr);
    };
    auto before = profile(opts->in);
    if (!before) return kExitBadInput;
    std::string text;
    if (!opts->against_trace.empty() || !opts->against_machine.empty()) {
      ReplayInputs other = opts->in;
      if (!opts->against_trace.empty()) other.trace = opts->against_trace;
      if (!opts->against_machine.empty()) other.machine = opts->against_machine;
      auto after = profile(other);
      if (!after) return kExitBadInput;
      text = replay::folded_diff(*before, *after, opts->critical);
    } else {
      text = before->folded(opts->critical);
    }
    if (!emit_report("profile", opts->output, text)) return kExitBadInput;
    return kExitOk;
  };
}

}  // namespace rr::app
