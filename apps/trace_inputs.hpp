// The command-line side of the session: the reading and machine options every command that reads a trace
// shares, opening a trace or a replay with progress on a terminal, and the reading summary on stderr.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "run_context.hpp"
#include "session/replay_choices.hpp"
#include "session/session.hpp"

namespace rr::app {

// What the reading flags of a command set; its thread count is -j (CommonOptions::threads), which replays use too.
struct ReadingFlags {
  session::ReadingOptions options;  // --keep-going, --strict, --max-messages, --traced-cores, --names
  bool quiet = false;               // no reading summary on stderr
};

// -j/--threads, --keep-going, --strict, --quiet, --max-messages, --traced-cores and --names on a command that
// reads traces.
void add_reading_options(CLI::App* cmd, ReadingFlags& flags, CommonOptions& common);

// Reads and builds a trace; on failure prints "realm-replay <command>: error: ..." and returns nothing.
// Prints the reading summary on stderr unless --quiet.
std::optional<session::LoadedTrace> open_trace(const char* command, const std::vector<std::string>& inputs,
                                               const CommonOptions& common, const ReadingFlags& flags);

// What the reading summary says of a trace read and built: counts, the names file, the build's notes, and the
// messages (files skipped, malformed lines, records not joined) in input order.
struct ReadingFacts {
  std::uint64_t files = 0;
  std::uint64_t records = 0;
  core::StatCounts stats;  // the reading's (core::read_stats)
  bool legion_prof = false;
  std::uint64_t operations = 0;
  std::uint64_t findings = 0;
  std::optional<session::NamesSource> names;
  std::vector<std::string> notes;
  std::vector<std::string> messages;
};
ReadingFacts reading_facts(const session::LoadedTrace& trace);
// The reading summary's line for a file --keep-going skipped.
inline std::string skipped_file_message(const core::InputError& failed) {
  return "skipped unreadable file " + failed.to_string();
}

// "read 2 files, 16,485 records; 108 lines skipped (...); 3 malformed (first: file:line: ...); 46 findings".
std::string reading_summary(const ReadingFacts& facts);

// How every command that replays places the trace on the model and treats unlogged time: --placement, --map,
// --mapping, --fold, --node-map, --unlogged-time and --queue-order, read into the choices session::replay_settings
// turns into settings.
void add_replay_flags(CLI::App* cmd, session::ReplayChoices& choices);
// --unlogged-time alone (calibrate, which fits one machine and has no placement of its own to choose), and
// --queue-order alone (explain, which chooses the placement for its own replays).
void add_unlogged_option(CLI::App* cmd, std::string& unlogged_time);
void add_queue_order_option(CLI::App* cmd, std::string& queue_order);
// The context of a command that reads `inputs`, made when the command starts (its clock starts then): the command,
// the inputs, -j, --keep-going and --strict, and with `choices` the replay choices among the options.
RunContext command_context(const char* command, std::vector<std::string> inputs, const CommonOptions& common,
                           const ReadingFlags& flags, const session::ReplayChoices* choices = nullptr);

struct ReplayInputs {
  std::vector<std::string> trace;
  std::string machine;
  std::vector<std::string> overrides;
  session::ReplayChoices replay;
  ReadingFlags reading;
};

// The trace, --machine and --set, the replay flags and the reading options.
void add_replay_inputs(CLI::App* cmd, ReplayInputs& in, CommonOptions& common);

struct OpenedReplay {
  session::LoadedTrace trace;
  session::ReplayRun run;
  session::ReplaySettings settings;  // what it was replayed with
};

// Reads, builds and replays with the settings of `in.replay`, keeping `detail` in the result; on failure prints
// the error and returns null. Over MPI ranks (common.network), a replay split over the ranks keeps the network in
// the settings, for the what-ifs that follow it over the ranks: the command ends the ranks' part after them.
std::unique_ptr<OpenedReplay> open_replay(const char* command, const ReplayInputs& in, const CommonOptions& common,
                                          const replay::ResultDetail& detail = {}, bool critical_path = true);
// Over MPI ranks: nothing more runs over the ranks (BlockNetwork::part_done: every rank but 0 ends here); what the
// command replays from now on (noisy samples) runs on rank 0 alone. Nothing in one process.
void end_part_over_ranks(OpenedReplay& opened);

// The context of a command that replays `in` (its clock starts now); machine_context() adds the machine once open.
RunContext replay_context(const char* command, const ReplayInputs& in, const CommonOptions& common);
MachineContext machine_context(const ReplayInputs& in, const OpenedReplay& opened);

}  // namespace rr::app
