// `realm-replay replay TRACE --machine FILE`: replay the event graph on a machine model and report the estimate.
#include <chrono>
#include <iostream>

#include "commands.hpp"
#include "graph/graph_builder.hpp"
#include "machine_models/machine_loader.hpp"
#include "output_file.hpp"
#include "parser/trace_reader.hpp"
#include "progress.hpp"
#include "replay/replay_engine.hpp"
#include "replay_report.hpp"

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

std::function<int()> add_replay_command(CLI::App& app, const CommonOptions& common) {
  struct Options {
    std::vector<std::string> inputs;
    std::string machine;
    std::vector<std::string> overrides;
    std::uint32_t fold = 0;
    bool json = false;
    std::string timeline;
    std::string window;
    std::vector<std::uint32_t> nodes;
    std::string output;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("replay", "Replay a trace's event graph on a machine model and estimate its run time.");
  cmd->add_option("trace", opts->inputs, "trace: folder, log files, globs or tar archives")->required();
  cmd->add_option("-m,--machine", opts->machine, "machine description (TOML), e.g. data/machines/titan.toml")->required();
  cmd->add_option("--set", opts->overrides, "override a machine value: key=value (repeatable), e.g. processors.gpu.speed=4");
  cmd->add_option("--fold", opts->fold, "replay an N-node trace on this many nodes (node n runs on n mod M)");
  cmd->add_flag("--json", opts->json, "print JSON instead of text");
  cmd->add_option("--timeline", opts->timeline, "write a Chrome-trace/Perfetto timeline JSON to this file");
  cmd->add_option("--window", opts->window, "timeline only: A:B in microseconds of replayed time");
  cmd->add_option("--nodes", opts->nodes, "timeline only: these model nodes")->delimiter(',');
  cmd->add_option("-o,--output", opts->output, "write the report to this file (whole or not at all)");

  return [opts, &common]() -> int {
    auto started = std::chrono::steady_clock::now();
    TimelineFilter filter;
    if (!opts->window.empty() && !parse_window(opts->window, filter)) {
      std::cerr << "realm-replay replay: --window takes A:B in microseconds, not '" << opts->window << "'\n";
      return kExitUsage;
    }
    filter.nodes.insert(opts->nodes.begin(), opts->nodes.end());
    auto model = machine::load_machine(opts->machine, opts->overrides);
    if (!model) {
      std::cerr << "realm-replay replay: error: " << model.error().to_string() << "\n";
      return kExitBadInput;
    }
    parser::ReadOptions read;
    read.threads = common.threads;
    auto trace = [&] {
      Progress progress("reading trace");
      if (progress.enabled()) read.on_progress = [&progress](std::uint64_t bytes) { progress.add(bytes); };
      return parser::read_trace(opts->inputs, read);
    }();
    if (!trace) {
      std::cerr << "realm-replay replay: error: " << trace.error().to_string() << "\n";
      return kExitBadInput;
    }
    auto built = graph::build_event_graph(*trace);
    auto map = replay::MachineMap::build(*trace, *model, opts->fold);
    if (!map) {
      std::cerr << "realm-replay replay: error: " << map.error().to_string() << "\n";
      return kExitBadInput;
    }
    replay::ReplayOptions options;
    options.record_intervals = !opts->timeline.empty();
    auto result = replay::run_replay(built.graph, *map, *model, options);
    if (!result) {
      std::cerr << "realm-replay replay: error: " << result.error().to_string() << "\n";
      return kExitBadInput;
    }
    ReplayView view{built.graph, *model, *map, *result};
    RunContext ctx{"replay", opts->inputs, common.threads, false, false,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()};
    std::string report = opts->json ? render_replay_json(view, ctx, opts->overrides, opts->fold).dump(2) + "\n"
                                    : render_replay_text(view);
    if (!opts->timeline.empty()) {
      if (auto err = write_file_atomically(opts->timeline, render_timeline(view, filter)); !err.empty()) {
        std::cerr << "realm-replay replay: error: " << err << "\n";
        return kExitBadInput;
      }
    }
    if (opts->output.empty()) {
      std::cout << report;
    } else if (auto err = write_file_atomically(opts->output, report); !err.empty()) {
      std::cerr << "realm-replay replay: error: " << err << "\n";
      return kExitBadInput;
    }
    return kExitOk;
  };
}

}  // namespace rr::app
