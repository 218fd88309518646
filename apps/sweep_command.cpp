// `realm-replay sweep TRACE --machine FILE --vary key=v1,v2,...`: the grid of replays over machine values.
#include <chrono>
#include <iostream>

#include "commands.hpp"
#include "comparison_report.hpp"
#include "session/run_grid.hpp"
#include "trace_inputs.hpp"

namespace rr::app {

namespace {

// One --vary: a key and its settings ("key=value"), in the order given.
struct Axis {
  std::string key;
  std::vector<std::string> settings;
};

// The axes of the --vary options, or why they make no grid: a malformed --vary, a key given twice (whose rows
// would be labelled with the first values but run with the last), or more points than session::kMaxGridPoints,
// counted before any setting is combined.
std::string parse_axes(const std::vector<std::string>& varies, std::vector<Axis>& axes) {
  std::size_t points = 1;
  for (const auto& v : varies) {
    const auto eq = v.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
      return "--vary takes key=v1,v2,..., not '" + v + "'";
    Axis axis{v.substr(0, eq), {}};
    for (const Axis& earlier : axes)
      if (earlier.key == axis.key)
        return "--vary " + axis.key + " is given twice; list all its values in one --vary " + axis.key + "=v1,v2,...";
    const std::string values = v.substr(eq + 1);
    for (std::size_t start = 0;;) {
      const auto comma = values.find(',', start);
      axis.settings.push_back(axis.key + "=" + values.substr(start, comma == std::string::npos ? std::string::npos
                                                                                               : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    // At most the limit times the values of one option, which the command line's length bounds: no overflow.
    points *= axis.settings.size();
    if (points > session::kMaxGridPoints)
      return "the --vary grid has more than " + std::to_string(session::kMaxGridPoints) +
             " points (the limit of one sweep): split it into several sweeps";
    axes.push_back(std::move(axis));
  }
  return {};
}

// Every combination of one setting per axis, the first axis varying slowest.
std::vector<std::vector<std::string>> grid_of(const std::vector<Axis>& axes) {
  std::vector<std::vector<std::string>> grid{{}};
  for (const auto& axis : axes) {
    std::vector<std::vector<std::string>> next;
    for (const auto& combo : grid)
      for (const auto& setting : axis.settings) {
        next.push_back(combo);
        next.back().push_back(setting);
      }
    grid = std::move(next);
  }
  return grid;
}

}  // namespace

bool write_comparison_outputs(const char* command, const std::vector<ComparisonRow>& rows, const RunContext& ctx,
                              const std::string& csv, const std::string& json, const std::string& html,
                              const std::string& title);

std::function<int()> add_sweep_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    std::string trace;
    std::string machine;
    std::vector<std::string> varies;
    std::vector<std::string> overrides;
    std::string csv, json, html;
    std::string title = "realm-replay sweep";
    ReadingFlags reading;
    ReplayFlags replay;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("sweep", "Replay one trace over a grid of machine values, in parallel.");
  cmd->add_option("trace", opts->trace, "trace: a folder or archive")->required();
  cmd->add_option("-m,--machine", opts->machine, "machine description")->required();
  cmd->add_option("--vary", opts->varies,
                  "key=v1,v2,...: a machine value, or placement=traced,pool,eft, or fold=N,M (repeatable: the grid "
                  "is every combination)")
      ->required();
  cmd->add_option("--set", opts->overrides, "fixed override for every run: key=value (repeatable)");
  cmd->add_option("--csv", opts->csv, "also write CSV here");
  cmd->add_option("--json", opts->json, "also write JSON here");
  cmd->add_option("--html", opts->html, "also write a self-contained HTML report here");
  cmd->add_option("--title", opts->title, "title of the HTML report")->capture_default_str();
  add_replay_flags(cmd, opts->replay);
  add_reading_options(cmd, opts->reading, common);
  return [opts, &common]() -> int {
    auto started = std::chrono::steady_clock::now();
    // The grid: one axis per --vary, in the order given, the first varying slowest.
    std::vector<Axis> axes;
    if (auto problem = parse_axes(opts->varies, axes); !problem.empty()) {
      std::cerr << "realm-replay sweep: " << problem << "\n";
      return kExitUsage;
    }
    const std::vector<std::vector<std::string>> grid = grid_of(axes);
    auto settings = replay_settings(opts->replay);
    if (!settings) {
      std::cerr << "realm-replay sweep: error: " << settings.error().to_string() << "\n";
      return kExitBadInput;
    }
    auto trace = open_trace("sweep", {opts->trace}, common, opts->reading);
    if (!trace) return kExitBadInput;
    std::vector<session::GridJob> jobs;
    for (const auto& combo : grid) {
      session::GridJob job{&*trace, {opts->machine, opts->overrides}, "", *settings};
      std::string label;
      for (const auto& setting : combo) {
        // placement= and fold= vary how the trace is placed; every other key is a machine value.
        const std::string key = setting.substr(0, setting.find('='));
        const std::string value = setting.substr(key.size() + 1);
        if (key == "placement") {
          auto p = machine::placement_from_name(value);
          if (!p) {
            std::cerr << "realm-replay sweep: --vary placement takes traced, pool and eft, not '" << value << "'\n";
            return kExitUsage;
          }
          job.settings.mapping.placement = p;
        } else if (key == "fold") {
          try {
            std::size_t used = 0;
            const unsigned long fold = std::stoul(value, &used);
            if (used != value.size() || fold < 1 || fold > 65536) throw std::out_of_range("fold");
            job.settings.mapping.fold = static_cast<std::uint32_t>(fold);
          } catch (const std::exception&) {
            std::cerr << "realm-replay sweep: --vary fold takes node counts, not '" << value << "'\n";
            return kExitUsage;
          }
        } else {
          job.machine.overrides.push_back(setting);
        }
        label += (label.empty() ? "" : " ") + setting;
      }
      job.machine_label = label;
      jobs.push_back(std::move(job));
    }
    auto runs = session::run_grid(jobs, common.threads);
    if (!runs) {
      std::cerr << "realm-replay sweep: error: " << runs.error().to_string() << "\n";
      return kExitBadInput;
    }
    auto rows = make_rows(std::move(*runs));
    RunContext ctx;
    ctx.command = "sweep";
    ctx.inputs = {opts->trace};
    ctx.threads = common.threads;
    ctx.keep_going = opts->reading.keep_going;
    ctx.strict = opts->reading.strict;
    add_to_context(opts->replay, ctx);
    ctx.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cout << render_comparison_text(rows);
    return write_comparison_outputs("sweep", rows, ctx, opts->csv, opts->json, opts->html, opts->title) ? kExitOk
                                                                                                      : kExitBadInput;
  };
}

}  // namespace rr::app
