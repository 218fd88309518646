// Opening traces and replays for the commands: the session with a terminal progress counter, errors printed
// once in the program's words, and the reading summary on stderr.
#include "trace_inputs.hpp"

#include <iostream>

#include "progress.hpp"

namespace rr::app {

void add_reading_options(CLI::App* cmd, ReadingFlags& flags, CommonOptions& common) {
  cmd->add_option("-j,--threads", common.threads, "worker threads (0 = all cores)")->capture_default_str();
  cmd->add_flag("--keep-going", flags.keep_going, "report an unreadable file and read the others");
  cmd->add_flag("--strict", flags.strict, "a malformed line (or a file skipped by --keep-going) is an error: exit 1");
  cmd->add_flag("-q,--quiet", flags.quiet, "no reading summary on stderr");
  cmd->add_option("--max-messages", flags.max_messages, "malformed lines quoted per file")->capture_default_str();
}

std::string reading_summary(const session::LoadedTrace& t) {
  const auto& files = t.records.files;
  std::string out = "read " + std::to_string(files.size()) + " file(s), " + std::to_string(t.records.record_count()) +
                    " records";
  core::EnumCounts<core::SkipReason, core::kSkipReasonCount> skipped;
  for (const auto& f : files) skipped += f.stats.skipped;
  if (skipped.total()) {
    out += "; " + std::to_string(skipped.total()) + " other line(s) skipped (";
    bool first = true;
    for (std::size_t r = 0; r < core::kSkipReasonCount; ++r) {
      const auto reason = static_cast<core::SkipReason>(r);
      if (!skipped[reason]) continue;
      out += (first ? "" : ", ") + std::string(core::skip_reason_key(reason)) + " " + std::to_string(skipped[reason]);
      first = false;
    }
    out += ")";
  }
  if (!t.has_graph) {
    std::uint64_t unjoined = 0;
    for (const auto& f : files) unjoined += f.profile.joins.total();
    out += unjoined ? "; " + std::to_string(unjoined) + " record(s) not joined (--strict makes them an error)"
                    : "; every record joined";
    out += "; graph: not built yet for Legion Prof logs";
    for (const auto& f : t.records.failed_files) out += "\n  skipped unreadable file " + f.to_string();
    for (const auto& f : files)
      for (const auto& d : f.profile.join_messages) out += "\n  " + core::format_diagnostic(d);
    return out;
  }
  const std::uint64_t malformed = t.malformed_lines();
  out += malformed ? "; " + std::to_string(malformed) + " malformed line(s) skipped (--strict makes them an error)"
                   : "; no malformed line";
  const auto findings = t.built.findings.total();
  out += "; graph: " + std::to_string(t.graph().vertex_count()) + " operations, " +
         (findings ? std::to_string(findings) + " finding(s) (realm-replay validate lists them)" : "no finding");
  for (const auto& f : t.records.failed_files) out += "\n  skipped unreadable file " + f.to_string();
  for (const auto& d : t.malformed_messages()) out += "\n  " + core::format_diagnostic(d);
  return out;
}

std::optional<session::LoadedTrace> open_trace(const char* command, const std::vector<std::string>& inputs,
                                               const CommonOptions& common, const ReadingFlags& flags, bool summarise,
                                               std::size_t examples_per_finding, bool graph_optional) {
  session::ReadingOptions options;
  options.threads = common.threads;
  options.keep_going = flags.keep_going;
  options.strict = flags.strict;
  options.max_messages_per_file = flags.max_messages;
  options.examples_per_finding = examples_per_finding;
  options.summarise = summarise;
  options.graph_optional = graph_optional;
  Progress progress("reading trace");
  if (progress.enabled()) options.on_progress = [&progress](std::uint64_t bytes) { progress.add(bytes); };
  auto trace = session::load_trace(inputs, options);
  if (!trace) {
    std::cerr << "realm-replay " << command << ": error: " << trace.error().to_string() << "\n";
    // The hint is about unreadable files, not about a format the command cannot use.
    if (!flags.keep_going && !flags.strict && trace.error().message != session::kProfGraphNotBuilt)
      std::cerr << "  (--keep-going reads the other files)\n";
    return std::nullopt;
  }
  if (!flags.quiet) std::cerr << "realm-replay " << command << ": " << reading_summary(*trace) << "\n";
  return std::move(*trace);
}

void add_replay_inputs(CLI::App* cmd, ReplayInputs& in, CommonOptions& common) {
  cmd->add_option("trace", in.trace, "trace: folder, log files, globs or tar archives")->required();
  cmd->add_option("-m,--machine", in.machine, "machine description (TOML), e.g. data/machines/titan.toml")->required();
  cmd->add_option("--set", in.overrides, "override a machine value: key=value (repeatable), e.g. processors.gpu.speed=4");
  cmd->add_option("--fold", in.fold, "replay an N-node trace on this many nodes (node n runs on n mod M)");
  add_reading_options(cmd, in.reading, common);
}

std::unique_ptr<OpenedReplay> open_replay(const char* command, const ReplayInputs& in, const CommonOptions& common,
                                          const session::ReplaySettings& settings) {
  auto trace = open_trace(command, in.trace, common, in.reading);
  if (!trace) return nullptr;
  auto run = session::replay_trace(*trace, {in.machine, in.overrides}, settings);
  if (!run) {
    std::cerr << "realm-replay " << command << ": error: " << run.error().to_string() << "\n";
    return nullptr;
  }
  return std::make_unique<OpenedReplay>(OpenedReplay{std::move(*trace), std::move(*run)});
}

RunContext replay_context(const char* command, const ReplayInputs& in, const CommonOptions& common,
                          const OpenedReplay& opened) {
  RunContext ctx;
  ctx.command = command;
  ctx.inputs = in.trace;
  ctx.threads = common.threads;
  ctx.keep_going = in.reading.keep_going;
  ctx.strict = in.reading.strict;
  ctx.machine = MachineContext{opened.run.model.name, opened.run.model.source, in.overrides};
  ctx.options["fold"] = in.fold;
  return ctx;
}

}  // namespace rr::app
