// `realm-replay study`: strategies × node counts in one command (docs/mapping.md, Studies).
#include "bundled_machines.hpp"
#include "commands.hpp"
#include "messages.hpp"
#include "option_checks.hpp"
#include "output_file.hpp"
#include "platform/output_target.hpp"
#include "study_report.hpp"
#include "study_sources.hpp"
#include "svg_charts.hpp"

namespace rr::app {

namespace {

struct StudyOptions {
  StudySourceOptions source;
  std::vector<std::string> strategies;
  std::string unlogged_time = replay::unlogged_time_name(replay::UnloggedTime::measured);
  std::string queue_order = replay::queue_order_name(replay::QueueOrder::observed);
  bool json = false;
  std::string output, csv, html, sqlite;
  std::string title = "realm-replay study";
  ReadingFlags reading;
};

// -m: 'truth' (each generated trace's own machine), else what every command takes (a file, a bundled name, traced).
CLI::Validator study_machine() {
  CLI::Validator bundled = machine_name();
  return CLI::Validator(
      [bundled](std::string& text) mutable -> std::string { return text == kTruthMachine ? "" : bundled(text); },
      "FILE|NAME|traced|truth");
}

// The strategies given, or the default one; a usage problem (exit 2) when one cannot be read.
std::optional<std::vector<session::StudyStrategy>> read_strategies(const StudyOptions& o) {
  std::vector<session::StudyStrategy> out;
  for (const std::string& text : o.strategies) {
    auto s = session::parse_strategy(text);
    if (!s) {
      print_error("study", s.error().to_string());
      return std::nullopt;
    }
    out.push_back(std::move(*s));
  }
  if (out.empty()) out.push_back(session::traced_strategy());
  if (auto problem = session::duplicate_strategy(out)) {
    print_error("study", *problem);
    return std::nullopt;
  }
  for (auto& s : out) {
    s.choices.unlogged_time = o.unlogged_time;
    s.choices.queue_order = o.queue_order;
    // A mapping or node-map file a strategy reads is an input no output may replace.
    for (const std::string* file : {&s.choices.mapping, &s.choices.node_map})
      if (!file->empty() && *file != "cyclic" && *file != "block") platform::protect_input(*file);
  }
  return out;
}

// How reports name the machine: a file by its name (titan), and the machines of each trace as such.
std::string machine_words(const std::string& machine) {
  if (machine == kTruthMachine) return "truth (each trace's own truth machine, its machine.toml)";
  if (machine == "traced") return "traced (each trace's own traced machine)";
  std::string name = session::label_of(machine);
  return name.ends_with(".toml") ? name.substr(0, name.size() - 5) : name;
}

RunContext study_context(const StudyOptions& o, const CommonOptions& common) {
  RunContext ctx = command_context("study", o.source.traces, common, o.reading);
  ctx.options["strategies"] = o.strategies;
  ctx.options["fold"] = o.source.folds;
  ctx.options["gen"] = o.source.gens;
  ctx.options["nodes"] = o.source.nodes;
  ctx.options["scaling"] = o.source.scaling;
  ctx.options["machine"] = o.source.machine;
  ctx.options["overrides"] = o.source.overrides;
  ctx.options["unlogged_time"] = o.unlogged_time;
  ctx.options["queue_order"] = o.queue_order;
  return ctx;
}

bool write_study_outputs(const StudyReport& report, const RunContext& ctx, const StudyOptions& o) {
  const std::string text = o.json ? render_study_json(report, ctx).dump(2) + "\n" : render_study_text(report);
  if (!emit_report("study", o.output, text)) return false;
  if (!o.csv.empty() && !write_output_file("study", o.csv, render_study_csv(report))) return false;
  if (!o.html.empty() && !write_output_file("study", o.html, render_study_html(report, ctx, o.title))) return false;
  if (!o.sqlite.empty())
    if (auto err = export_study_sqlite(o.sqlite, report, ctx); !err.empty()) {
      print_error("study", err);
      return false;
    }
  return true;
}

void add_options(CLI::App* cmd, StudyOptions& o, CommonOptions& common) {
  cmd->add_option("traces", o.source.traces, "trace(s): one with --fold, several with --scaling");
  cmd->add_option("-m,--machine", o.source.machine,
                  "the machine every cell is replayed on: a file, a bundled name (titan), 'traced', or 'truth' (the "
                  "machine.toml gen wrote beside each trace, the one its truth was scheduled on)")
      ->required()
      ->transform(study_machine());
  cmd->add_option("--set", o.source.overrides, "override a machine value for every strategy: key=value (repeatable)");
  cmd->add_option("--strategy", o.strategies,
                  "NAME=MAPPING_FILE, or NAME:KEY=VALUE,... with keys placement, map (FUNC=KIND[:FACTOR]), set "
                  "(a machine value, e.g. processors.cpu.count=4), node-map, mapping (repeatable; default: traced, "
                  "the trace's own mapping)");
  add_study_sources(cmd, o.source);
  add_unlogged_option(cmd, o.unlogged_time);
  add_queue_order_option(cmd, o.queue_order);
  cmd->add_flag("--json", o.json, "print JSON instead of text");
  cmd->add_option("-o,--output", o.output, "write the report (text, or JSON with --json) to this file (whole or not at all)")
      ->check(output_path());
  cmd->add_option("--csv", o.csv, "also write CSV here: one row per node count and strategy")->check(output_path());
  cmd->add_option("--html", o.html, "also write a self-contained HTML report with charts here")->check(output_path());
  cmd->add_option("--sqlite", o.sqlite, "also write the study as SQLite tables here (docs/mapping.md, Studies)")->check(output_path());
  cmd->add_option("--title", o.title, "title of the HTML report")->capture_default_str();
  add_reading_options(cmd, o.reading, common);
}

}  // namespace

std::function<int()> add_study_command(CLI::App& app, CommonOptions& common) {
  auto opts = std::make_shared<StudyOptions>();
  CLI::App* cmd = app.add_subcommand(
      "study", "Strategies x node counts: replay folds of one trace (strong scaling), generated traces (weak) or "
               "traces at several node counts with every strategy; speed-up, efficiency, what bounds each run, and "
               "the winner per node count.");
  add_options(cmd, *opts, common);
  return [opts, &common]() -> int {
    RunContext ctx = study_context(*opts, common);
    if (auto problem = study_source_problem(opts->source)) {
      print_error("study", *problem);
      return kExitUsage;
    }
    auto strategies = read_strategies(*opts);
    if (!strategies) return kExitUsage;
    int code = kExitBadInput;
    auto inputs = load_study_inputs(opts->source, common, opts->reading, code);
    if (!inputs) return code;
    auto result = session::run_study(inputs->inputs, *strategies, inputs->scaling, common.threads);
    if (!result) {
      print_error("study", result.error().to_string());
      return kExitBadInput;
    }
    for (const auto& w : result->warnings) print_message("study", "warning: " + w);
    for (const auto& n : result->notes) print_message("study", "note: " + n);
    StudyReport report{std::move(*result), std::move(*strategies), inputs->description,
                       machine_words(opts->source.machine), opts->source.overrides, {}};
    report.colours = series_colours(report.result.series);
    ctx.stop_clock();
    return write_study_outputs(report, ctx, *opts) ? kExitOk : kExitBadInput;
  };
}

}  // namespace rr::app
