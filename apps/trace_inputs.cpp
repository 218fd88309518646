// Opening traces and replays for the commands: the session with a terminal progress counter, errors printed
// once in the program's words, and the reading summary on stderr.
#include "bundled_machines.hpp"
#include "trace_inputs.hpp"

#include <algorithm>
#include <iostream>

#include "core/trace_stats.hpp"
#include "machine_models/machine_limits.hpp"
#include "option_checks.hpp"
#include "packed/packed_trace.hpp"
#include "progress.hpp"
#include "messages.hpp"
#include "platform/usable_threads.hpp"

namespace rr::app {

void add_reading_options(CLI::App* cmd, ReadingFlags& flags, CommonOptions& common) {
  cmd->add_option("-j,--threads", common.threads,
                  "worker threads (0 = all cores); a large replay is split by model node over them, with the same result")
      ->check(thread_count())
      ->capture_default_str();
  session::ReadingOptions& options = flags.options;
  cmd->add_flag("--keep-going", options.read.keep_going, "report an unreadable file and read the others");
  cmd->add_flag("--strict", options.strict,
                "input lost while reading (a malformed line, a record not joined, a file skipped by --keep-going) is "
                "an error: exit 1");
  cmd->add_flag("-q,--quiet", flags.quiet, "no reading summary on stderr");
  cmd->add_option("--max-messages", options.read.max_messages_per_file, "malformed lines quoted per file")
      ->capture_default_str();
  cmd->add_option("--traced-cores", options.build.traced_cores,
                  "the cores the traced process ran on: spans measured while more threads ran than it had cores become "
                  "work (Legion Prof logs), and -m traced gets that many cores per node (0: unknown)")
      ->check(CLI::Range(std::int64_t{0}, machine::kMaxCoresPerNode));
  cmd->add_option("--names", options.names_file,
                  "function names: a TOML file of id = \"name\" lines (5 = \"calc_new_currents\"), over the trace's "
                  "own; default: names.toml in the trace's folder, when there is one");
}

ReadingFacts reading_facts(const session::LoadedTrace& t) {
  ReadingFacts f;
  f.files = t.records.files.size();
  f.records = t.records.record_count();
  f.stats = core::read_stats(t.records);
  f.legion_prof = t.records.format == core::TraceFormat::legion_prof;
  f.operations = t.graph().vertex_count();
  f.findings = t.built.findings.total();
  if (t.names) f.names = *t.names;
  f.notes = t.built.findings.notes;
  for (const auto& failed : t.records.failed_files) f.messages.push_back(skipped_file_message(failed));
  for (const auto& d : t.malformed_messages()) f.messages.push_back(core::format_diagnostic(d));
  for (const auto& file : t.records.files)
    for (const auto& d : file.profile.join_messages) f.messages.push_back(core::format_diagnostic(d));
  return f;
}

std::string reading_summary(const ReadingFacts& f) {
  std::string out = "read " + std::to_string(f.files) + " file(s), " + std::to_string(f.records) + " records";
  if (const std::uint64_t skipped = f.stats.total(core::skipped_line_stats())) {
    out += "; " + std::to_string(skipped) + " other line(s) skipped (";
    bool first = true;
    for (core::Stat stat : core::skipped_line_stats()) {
      if (!f.stats[stat]) continue;
      out += (first ? "" : ", ") + std::string(core::stat_key(stat)) + " " + std::to_string(f.stats[stat]);
      first = false;
    }
    out += ")";
  }
  if (f.legion_prof) {
    const std::uint64_t unjoined = f.stats.total(core::unjoined_record_stats());
    out += unjoined ? "; " + std::to_string(unjoined) + " record(s) not joined (--strict makes them an error)"
                    : "; every record joined";
  } else {
    const std::uint64_t malformed = f.stats.total(core::malformed_line_stats());
    out += malformed ? "; " + std::to_string(malformed) + " malformed line(s) skipped (--strict makes them an error)"
                     : "; no malformed line";
  }
  out += "; graph: " + std::to_string(f.operations) + " operations, " +
         (f.findings ? std::to_string(f.findings) + " finding(s) (realm-replay validate lists them)" : "no finding");
  if (f.names)
    out += "; " + std::to_string(f.names->given) + " function name(s) from " + f.names->file + ", " +
           std::to_string(f.names->used) + " for functions this trace runs";
  for (const auto& note : f.notes) out += "\n  note: " + note;
  for (const auto& message : f.messages) out += "\n  " + message;
  return out;
}

std::optional<session::LoadedTrace> open_trace(const char* command, const std::vector<std::string>& inputs,
                                               const CommonOptions& common, const ReadingFlags& flags) {
  session::ReadingOptions options = flags.options;
  options.threads = common.threads;
  // The progress line is cleared (the counter's end) before the summary or the error is printed.
  auto trace = [&] {
    Progress progress("reading trace");
    session::ReadingOptions counted = options;
    if (progress.enabled()) counted.read.on_progress = [&progress](std::uint64_t bytes) { progress.add(bytes); };
    return session::load_trace(inputs, counted);
  }();
  if (!trace) {
    print_error(command, trace.error().to_string());
    // Only a file that could not be read (its error has a place in the file) is one --keep-going can skip; a
    // packed trace is the whole trace, with no other file to read.
    const auto& where = trace.error().where;
    const bool packed = inputs.size() == 1 && packed::is_packed_trace(inputs.front());
    if (!options.read.keep_going && !options.strict && !packed && (where.byte_offset || where.decoded_offset))
      std::cerr << "  (--keep-going reads the other files)\n";
    return std::nullopt;
  }
  if (!flags.quiet) print_message(command, reading_summary(reading_facts(*trace)));
  return std::move(*trace);
}

void add_unlogged_option(CLI::App* cmd, std::string& unlogged_time) {
  cmd->add_option("--unlogged-time", unlogged_time,
                  "waits on events no record produces: 'measured' (last their measured time) or 'instant'")
      ->check(one_of(session::unlogged_time_choice()))
      ->capture_default_str();
}

void add_replay_flags(CLI::App* cmd, session::ReplayChoices& choices) {
  cmd->add_option("--placement", choices.placement,
                  "traced (each traced processor on one model processor), pool (any free processor of the kind on "
                  "the node) or eft (earliest finish across kinds); default: traced on -m traced, pool elsewhere")
      ->check(one_of(session::placement_choice()));
  cmd->add_option("--map", choices.map,
                  "run task function FUNC on processor kind KIND (gpu, cpu, utility), busy time x FACTOR: "
                  "FUNC=KIND[:FACTOR] (repeatable)");
  cmd->add_option("--mapping", choices.mapping, "a mapping file (TOML, docs/mapping.md): placement, moves, nodes");
  cmd->add_option("--fold", choices.fold, "replay an N-node trace on this many model nodes")
      ->check(CLI::Range(1u, machine::kMaxFold));
  cmd->add_option("--node-map", choices.node_map,
                  "which traced nodes share a model node: cyclic (n mod M, default), block (consecutive nodes) or a "
                  "file with node_map = [...]");
  add_unlogged_option(cmd, choices.unlogged_time);
  add_queue_order_option(cmd, choices.queue_order);
}

void add_queue_order_option(CLI::App* cmd, std::string& queue_order) {
  cmd->add_option("--queue-order", queue_order,
                  "which waiting task a free processor takes (after task priorities): 'observed' (the one the traced "
                  "run started first, on traces that record it: Legion Prof logs) or 'ready' (the one ready first)")
      ->check(one_of(session::queue_order_choice()))
      ->capture_default_str();
}

RunContext command_context(const char* command, std::vector<std::string> inputs, const CommonOptions& common,
                           const ReadingFlags& flags, const session::ReplayChoices* choices) {
  RunContext ctx;
  ctx.command = command;
  ctx.inputs = std::move(inputs);
  ctx.threads = common.threads;
  ctx.keep_going = flags.options.read.keep_going;
  ctx.strict = flags.options.strict;
  if (!choices) return ctx;
  const session::ReplayChoices& c = *choices;
  ctx.options["placement"] = c.placement.empty() ? "default" : c.placement;
  ctx.options["map"] = c.map;
  ctx.options["mapping"] = c.mapping;
  ctx.options["fold"] = c.fold;
  ctx.options["node_map"] = c.node_map.empty() ? "cyclic" : c.node_map;
  ctx.options["unlogged_time"] = c.unlogged_time;
  ctx.options["queue_order"] = c.queue_order;
  return ctx;
}

void add_replay_inputs(CLI::App* cmd, ReplayInputs& in, CommonOptions& common) {
  cmd->add_option("trace", in.trace, "trace: folder, log files, globs or tar archives")->required();
  cmd->add_option("-m,--machine", in.machine,
                  "machine description (TOML), e.g. data/machines/titan.toml, or 'traced': the machine the trace was "
                  "taken on (realm-replay machine from-trace); a bundled machine by name: -m titan")
      ->required()
      ->transform(machine_name());
  cmd->add_option("--set", in.overrides, "override a machine value: key=value (repeatable), e.g. processors.gpu.speed=4");
  add_replay_flags(cmd, in.replay);
  add_reading_options(cmd, in.reading, common);
}

std::unique_ptr<OpenedReplay> open_replay(const char* command, const ReplayInputs& in, const CommonOptions& common,
                                          const replay::ResultDetail& detail, bool critical_path) {
  auto settings = session::replay_settings(in.replay);
  if (!settings) {
    print_error(command, settings.error().to_string());
    return nullptr;
  }
  // One replay: split by node over the threads, where that pays (ReplayExecution::blocks); the same result.
  settings->engine.execution.blocks = platform::threads_or_all(common.threads);
  settings->engine.detail = detail;
  settings->critical_path = critical_path;
  auto trace = open_trace(command, in.trace, common, in.reading);
  if (!trace) return nullptr;
  if (auto note = session::eft_note(settings->mapping)) print_message(command, "note: " + *note);
  settings->engine.execution.network = common.network;
  auto run = session::replay_trace(*trace, {in.machine, in.overrides}, *settings);
  // Over MPI ranks: a replay that ran on rank 0 alone leaves the others nothing to do, and rank 0 goes on alone; a
  // split one keeps the network for the what-ifs, which the command runs over the ranks too (end_part_over_ranks).
  if (replay::BlockNetwork* net = settings->engine.execution.network; net && run && !replay::split_over_ranks(run->result)) {
    net->part_done();
    settings->engine.execution.network = nullptr;
  }
  if (!run) {
    print_error(command, run.error().to_string());
    return nullptr;
  }
  return std::make_unique<OpenedReplay>(OpenedReplay{std::move(*trace), std::move(*run), std::move(*settings)});
}

void end_part_over_ranks(OpenedReplay& opened) {
  if (replay::BlockNetwork* net = opened.settings.engine.execution.network) net->part_done();
  opened.settings.engine.execution.network = nullptr;
}

RunContext replay_context(const char* command, const ReplayInputs& in, const CommonOptions& common) {
  return command_context(command, in.trace, common, in.reading, &in.replay);
}

MachineContext machine_context(const ReplayInputs& in, const OpenedReplay& opened) {
  return MachineContext{opened.run.model.name, opened.run.model.source, in.overrides};
}

}  // namespace rr::app
