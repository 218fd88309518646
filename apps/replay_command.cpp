// `realm-replay replay TRACE --machine FILE`: replay the event graph on a machine model and report the estimate.
#include <chrono>
#include <cmath>
#include <iostream>
#include <set>

#include "commands.hpp"
#include "core/saturating.hpp"
#include "observed_report.hpp"
#include "option_checks.hpp"
#include "output_file.hpp"
#include "platform/output_target.hpp"
#include "bounds_report.hpp"
#include "replay_report.hpp"
#include "timeline_report.hpp"
#include "replay/observed_comparison.hpp"
#include "session/part_perturbation.hpp"
#include "session/perturbation.hpp"
#include "text_format.hpp"
#include "trace_inputs.hpp"
#include "replay_from_parts.hpp"
#include "replay/part_replay.hpp"
#include "session/part_what_ifs.hpp"
#include "messages.hpp"

namespace rr::app {

namespace {

// One side of --window: microseconds of replayed time, which starts at 0 and is held below 2^60 ns.
std::optional<replay::TimeNs> window_time_ns(const std::string& text) {
  char* end = nullptr;
  const double us = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(us) || us < 0 ||
      us * 1000.0 >= static_cast<double>(core::kTimeCeilingNs))
    return std::nullopt;
  return static_cast<replay::TimeNs>(us * 1000.0);
}

// "A:B" in microseconds, either side optional, A at most B. Empty when it parses, else why not: a window that
// selects nothing is a mistake to report, not an empty timeline to write.
std::string parse_window(const std::string& text, TimelineFilter& f) {
  const std::string usage = "--window takes A:B in microseconds of replayed time (either may be empty), not '" +
                            text + "'";
  constexpr const char* kRange = " is not a time from 0 to 2^60 ns in microseconds";
  const auto colon = text.find(':');
  if (colon == std::string::npos) return usage;
  const std::string from = text.substr(0, colon), to = text.substr(colon + 1);
  if (!from.empty() && !(f.from_ns = window_time_ns(from))) return usage + ": '" + from + "'" + kRange;
  if (!to.empty() && !(f.to_ns = window_time_ns(to))) return usage + ": '" + to + "'" + kRange;
  if (f.from_ns && f.to_ns && *f.from_ns > *f.to_ns) return usage + ": it starts after it ends";
  return {};
}

// Empty when every node --nodes names is a model node of the replay, else the message naming the first that
// is not.
std::string unknown_timeline_node(const std::set<std::uint32_t>& nodes, std::uint32_t model_nodes) {
  for (std::uint32_t n : nodes)
    if (n >= model_nodes)
      return "--nodes " + std::to_string(n) + ": the replay's model has node(s) 0 to " +
             std::to_string(model_nodes - 1);
  return {};
}

struct ReplayCommandOptions {
  ReplayInputs in;
  bool json = false;
  std::string timeline;
  std::string window;
  std::vector<std::uint32_t> nodes;
  std::string output;
  double perturb = 0;
  std::uint32_t samples = 100;
  std::uint64_t seed = 1;
  bool against_observed = false;
  bool no_what_ifs = false;
};

// What the report reads of a replay, whichever way it ran: in one process (or with every rank holding the whole
// trace), or from parts.
struct Replayed {
  const graph::EventGraph& graph;  // names the critical path's operations and draws the timeline: over parts, this rank's
  const session::ReplayRun& run;
  const session::ReplaySettings& settings;
  std::string label;
  std::function<std::vector<session::RunBound>()> bounds;  // finds them and runs their what-ifs (over ranks: all)
  // The noisy replays of --perturb: from parts over every rank; else on the whole trace, over ranks on rank 0 alone
  // once the others are done.
  std::function<core::Expected<session::EstimateDistribution>(const session::PerturbationRequest&)> perturbed;
  // The comparison with the observed run (--against-observed): from parts over every rank; nothing when the trace
  // records no observed times.
  std::function<std::optional<replay::ObservedComparison>()> observed;
  std::function<void()> end_part;  // over ranks: nothing more runs over them
};

// From the replay on: what bounds it, the timeline, the noisy estimates, the comparison with the observed run, and
// the report.
int report_replay(const ReplayCommandOptions& opts, const CommonOptions& common, RunContext& ctx,
                  const TimelineFilter& filter, const Replayed& r) {
  if (auto problem = unknown_timeline_node(filter.nodes, r.run.map.model_nodes()); !problem.empty()) {
    r.end_part();  // (every rank finds it alike)
    print_error("replay", problem);
    return kExitUsage;
  }
  // Over MPI ranks the what-ifs run over every rank, as the replay did, and so does the timeline: each rank
  // streams its part to rank 0. Then the other ranks are done.
  const std::vector<session::RunBound> bounds = r.bounds();
  ctx.stop_clock();  // (the replay's time, without the timeline's writing)
  TimelineFile timeline;
  if (!opts.timeline.empty()) {
    const ReplayView drawn{r.graph, r.run.model, r.run.map, r.run.result, &*r.run.critical, {}, {}};
    timeline.write(opts.timeline, drawn, filter);
  }
  std::optional<core::Expected<session::EstimateDistribution>> noise;
  if (opts.perturb > 0) noise = r.perturbed({opts.perturb, opts.samples, opts.seed, common.threads});
  std::optional<replay::ObservedComparison> observed;
  if (opts.against_observed) observed = r.observed();
  r.end_part();
  if (noise && !*noise) {
    print_error("replay", noise->error().to_string());
    return kExitBadInput;
  }
  if (noise) ctx.options["perturb"] = {{"sigma", opts.perturb}, {"samples", opts.samples}, {"seed", opts.seed}};
  ReplayView view{r.graph, r.run.model, r.run.map, r.run.result, &*r.run.critical, opts.in.overrides,
                  bounds_text("replay", opts.in, bounds, r.run.result.makespan_ns, opts.no_what_ifs, r.run.map.placement())};
  ctx.machine = MachineContext{r.run.model.name, r.run.model.source, opts.in.overrides};
  if (opts.against_observed && !observed) {
    print_error("replay", "--against-observed needs a trace that records when its operations ran (Legion Prof logs); " +
                              r.label + " does not");
    return kExitBadInput;
  }
  std::string report;
  if (opts.json) {
    auto j = render_replay_json(view, ctx);
    j["bounded_by"] = bounds_json("replay", opts.in, bounds, r.run.result.makespan_ns);
    if (noise) j["perturbation"] = distribution_json(**noise);
    if (observed) j["against_observed"] = render_observed_json(*observed);
    report = j.dump(2) + "\n";
  } else {
    report = render_replay_text(view);
    if (noise) report += "\n" + distribution_text(**noise);
    if (observed) report += "\n" + render_observed_text(*observed);
  }
  if (!opts.timeline.empty())
    if (const std::string err = timeline.commit(); !err.empty()) {
      print_error("replay", err);
      return kExitBadInput;
    }
  if (!emit_report("replay", opts.output, report)) return kExitBadInput;
  return kExitOk;
}

}  // namespace

std::function<int()> add_replay_command(CLI::App& app, CommonOptions& common) {
  auto opts = std::make_shared<ReplayCommandOptions>();
  CLI::App* cmd = app.add_subcommand("replay", "Replay a trace's event graph on a machine model and estimate its run time.");
  add_replay_inputs(cmd, opts->in, common);
  cmd->add_flag("--json", opts->json, "print JSON instead of text");
  cmd->add_option("--timeline", opts->timeline, "write a Chrome-trace/Perfetto timeline JSON to this file");
  cmd->add_option("--window", opts->window, "timeline only: A:B in microseconds of replayed time");
  cmd->add_option("--nodes", opts->nodes, "timeline only: these model nodes")->delimiter(',');
  cmd->add_flag("--against-observed", opts->against_observed,
                "compare with the run the trace observed (Legion Prof logs): observed makespan and the error of "
                "start and end times per kind of operation and function");
  cmd->add_option("-o,--output", opts->output, "write the report to this file (whole or not at all)");
  add_what_if_flag(cmd, opts->no_what_ifs);
  auto* perturb = cmd->add_option("--perturb", opts->perturb,
                                  "also replay --samples times with lognormal noise of this sigma on every duration "
                                  "(mean 1) and report the estimate's distribution")
                      ->check(finite_range(0.0, 4.0));
  cmd->add_option("--samples", opts->samples, "noisy replays for --perturb")->check(CLI::Range(1, 100000))->needs(perturb)
      ->capture_default_str();
  cmd->add_option("--seed", opts->seed, "seed of the noise for --perturb")->needs(perturb)->capture_default_str();

  return [opts, &common]() -> int {
    RunContext ctx = replay_context("replay", opts->in, common);
    TimelineFilter filter;
    if (!opts->window.empty())
      if (auto problem = parse_window(opts->window, filter); !problem.empty()) {
        print_error("replay", problem);
        return kExitUsage;
      }
    filter.nodes.insert(opts->nodes.begin(), opts->nodes.end());
    replay::ResultDetail detail;
    detail.record_intervals = !opts->timeline.empty();
    // Over MPI ranks, each rank reads only its own nodes' files where the replay allows it.
    if (auto plan = plan_from_parts(opts->in, common)) {
      PartsOutcome parts = open_replay_from_parts("replay", opts->in, common, std::move(*plan), detail);
      if (parts.failed) return kExitBadInput;
      if (OpenedParts* p = parts.opened.get()) {
        const graph::EventGraph& graph = replay::graph_of_part(p->run.result);
        auto bounds = [&] {
          std::vector<session::RunBound> found = session::find_bounds(graph, p->run);
          if (!opts->no_what_ifs) session::run_what_ifs_from_part(p->prepared, p->trace.ranks, *p->exchange, p->trace.map_records(), p->settings, found);
          return found;
        };
        auto perturbed = [&](const session::PerturbationRequest& request) {
          return session::perturbed_estimates_from_part(p->prepared, p->trace.ranks, *p->exchange, p->run.map,
                                                        p->run.model, p->settings.engine, request);
        };
        auto observed = [&] { return replay::compare_with_observed_over_ranks(p->run.result, *p->exchange); };
        auto end_part = [&] { common.network->part_done(); };
        return report_replay(*opts, common, ctx, filter,
                             {graph, p->run, p->settings, p->trace.label, bounds, perturbed, observed, end_part});
      }
    }
    auto s = open_replay("replay", opts->in, common, detail);
    if (!s) return kExitBadInput;
    auto bounds = [&] { return bounds_of(*s, opts->no_what_ifs, common.threads); };
    auto perturbed = [&](const session::PerturbationRequest& request) {
      end_part_over_ranks(*s);  // (the samples run side by side in one process: the other ranks are done)
      return session::perturbed_estimates(s->trace, s->run.model, s->settings.mapping, s->settings.engine.rules, request);
    };
    auto observed = [&] { return replay::compare_with_observed(s->trace.graph(), s->run.result); };
    auto end_part = [&] { end_part_over_ranks(*s); };
    return report_replay(*opts, common, ctx, filter,
                         {s->trace.graph(), s->run, s->settings, s->trace.label, bounds, perturbed, observed, end_part});
  };
}

}  // namespace rr::app
