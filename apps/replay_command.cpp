// `realm-replay replay TRACE --machine FILE`: replay the event graph on a machine model and report the estimate.
#include <chrono>
#include <iostream>

#include "commands.hpp"
#include "observed_report.hpp"
#include "output_file.hpp"
#include "platform/output_target.hpp"
#include "replay_report.hpp"
#include "replay/observed_comparison.hpp"
#include "session/perturbation.hpp"
#include "text_format.hpp"
#include "trace_inputs.hpp"

namespace rr::app {

namespace {
// "A:B" in microseconds, either side optional.
bool parse_window(const std::string& text, TimelineFilter& f) {
  auto colon = text.find(':');
  if (colon == std::string::npos) return false;
  try {
    if (colon > 0) f.from_ns = static_cast<replay::TimeNs>(std::stod(text.substr(0, colon)) * 1000.0);
    if (colon + 1 < text.size()) f.to_ns = static_cast<replay::TimeNs>(std::stod(text.substr(colon + 1)) * 1000.0);
  } catch (const std::exception&) {
    return false;
  }
  return true;
}
}  // namespace

std::function<int()> add_replay_command(CLI::App& app, CommonOptions& common) {
  struct Options {
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
  };
  auto opts = std::make_shared<Options>();
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
  auto* perturb = cmd->add_option("--perturb", opts->perturb,
                                  "also replay --samples times with lognormal noise of this sigma on every duration "
                                  "(mean 1) and report the estimate's distribution")
                      ->check(CLI::Range(0.0, 4.0));
  cmd->add_option("--samples", opts->samples, "noisy replays for --perturb")->check(CLI::Range(1, 100000))->needs(perturb)
      ->capture_default_str();
  cmd->add_option("--seed", opts->seed, "seed of the noise for --perturb")->needs(perturb)->capture_default_str();

  return [opts, &common]() -> int {
    auto started = std::chrono::steady_clock::now();
    TimelineFilter filter;
    if (!opts->window.empty() && !parse_window(opts->window, filter)) {
      std::cerr << "realm-replay replay: --window takes A:B in microseconds, not '" << opts->window << "'\n";
      return kExitUsage;
    }
    filter.nodes.insert(opts->nodes.begin(), opts->nodes.end());
    replay::ReplayOptions engine;
    engine.record_intervals = !opts->timeline.empty();
    auto s = open_replay("replay", opts->in, common, engine);
    if (!s) return kExitBadInput;
    ReplayView view{s->trace.graph(), s->run.model, s->run.map, s->run.result, &*s->run.critical, opts->in.overrides};
    RunContext ctx = replay_context("replay", opts->in, common, *s);
    ctx.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::optional<session::EstimateDistribution> noise;
    if (opts->perturb > 0) {
      auto d = session::perturbed_estimates(s->trace, s->run.model, s->settings,
                                            {opts->perturb, opts->samples, opts->seed, common.threads});
      if (!d) {
        std::cerr << "realm-replay replay: error: " << d.error().to_string() << "\n";
        return kExitBadInput;
      }
      noise = std::move(*d);
      ctx.options["perturb"] = {{"sigma", opts->perturb}, {"samples", opts->samples}, {"seed", opts->seed}};
    }
    std::optional<replay::ObservedComparison> observed;
    if (opts->against_observed) {
      observed = replay::compare_with_observed(s->trace.graph(), s->run.result);
      if (!observed) {
        std::cerr << "realm-replay replay: error: --against-observed needs a trace that records when its operations "
                     "ran (Legion Prof logs); "
                  << s->trace.label << " does not\n";
        return kExitBadInput;
      }
    }
    std::string report;
    if (opts->json) {
      auto j = render_replay_json(view, ctx);
      if (noise) j["perturbation"] = distribution_json(*noise);
      if (observed) j["against_observed"] = render_observed_json(*observed);
      report = j.dump(2) + "\n";
    } else {
      report = render_replay_text(view);
      if (noise) report += "\n" + distribution_text(*noise);
      if (observed) report += "\n" + render_observed_text(*observed);
    }
    if (!opts->timeline.empty()) {
      platform::OutputTarget timeline;
      std::string err = timeline.open(opts->timeline);
      if (err.empty()) {
        write_timeline(view, filter, [&](std::string_view text) { timeline.write(text); });
        err = timeline.commit();
      }
      if (!err.empty()) {
        std::cerr << "realm-replay replay: error: " << err << "\n";
        return kExitBadInput;
      }
    }
    if (!emit_report("replay", opts->output, report)) return kExitBadInput;
    return kExitOk;
  };
}

}  // namespace rr::app
