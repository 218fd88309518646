// The one pipeline every command, the sweep runner, the tests and the bindings run: read a trace, build its
// event graph, load a machine, map, replay, take the critical path. Libraries return errors; this one too.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "core/trace_records.hpp"
#include "graph/graph_builder.hpp"
#include "machine_models/machine_model.hpp"
#include "machine_models/mapping.hpp"
#include "parser/prof_summary.hpp"
#include "parser/trace_reader.hpp"
#include "parser/trace_summary.hpp"
#include "replay/critical_path.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_engine.hpp"

namespace rr::session {

// The most worker threads a command or a Python call may ask for. TBB sets up state for every thread an arena
// is given before any work runs, so a count far beyond the machine costs memory and time (3 million threads
// took 3 GB) or crashes in that set-up (16 million); no machine this runs on has more than a few hundred cores.
inline constexpr std::uint64_t kMaxThreads = 1024;
// Why `threads` cannot be used as a thread count (0: every hardware thread), or nothing when it can. The
// command line and the Python module both ask this, so they refuse the same counts in the same words.
std::optional<std::string> thread_count_problem(std::uint64_t threads);

// How a trace is read and built: the same options on every command that reads one. The parser's and the graph
// build's own options, and what the session adds to them. build.traced_cores (--traced-cores) also gives the
// traced machine's nodes that many cores (0: unknown, cores unlimited).
struct ReadingOptions {
  unsigned threads = 0;         // reading, building, and fitting the traced machine; 0: every hardware thread
  parser::ReadOptions read;     // keep_going, max_messages_per_file, the progress callback
  graph::BuildOptions build;    // examples_per_finding, traced_cores
  // A malformed line, a record that could not be joined, or a file skipped by read.keep_going is an error.
  bool strict = false;
  bool summarise = false;       // keep the per-node counts (`stats`); costs a pass over the records
  // A names file (session/names_file.hpp) laid over the trace's own names; empty: names.toml in the folder
  // the trace is read from, when there is one. Read before the trace, so a bad one fails at once.
  std::string names_file;
};

// The names file a trace was read with, and how much of it the trace uses.
struct NamesSource {
  std::string file;
  std::size_t given = 0;  // functions the file names
  std::size_t used = 0;   // of them, functions the trace has tasks of
};

// A trace read and built: what every command starts from. The graph records are released by the build;
// processor, group and memory records, counts and statistics stay.
struct LoadedTrace {
  std::vector<std::string> inputs;   // as given
  std::string label;                 // the first input's folder or archive name, without archive extension
  std::uint32_t nodes = 0;           // traced nodes
  std::string family;                // see trace_family()
  unsigned threads = 0;              // ReadingOptions::threads it was read with; also what fitting the traced machine uses
  std::uint32_t traced_cores = 0;    // ReadingOptions::build.traced_cores it was read (or packed) with
  core::TraceRecords records;
  std::optional<parser::TraceSummary> summary;  // when ReadingOptions::summarise (Realm text logs)
  std::optional<parser::ProfileSummary> profile_summary;  // when ReadingOptions::summarise (Legion Prof logs)
  graph::BuildResult built;
  std::optional<NamesSource> names;  // when a names file was read (load_trace)

  const graph::EventGraph& graph() const { return built.graph; }
  std::uint64_t malformed_lines() const;
  std::uint64_t skipped_lines() const;
  // The first located messages about malformed lines, over all files, in input order.
  std::vector<core::Diagnostic> malformed_messages() const;

  // What is derived once, on first use, from any thread: the traced machine (fit_traced_machine, traced_fit.hpp).
  struct Cache;
  std::shared_ptr<Cache> cache;  // made by load_records; shared by copies of the trace
};

// Reads and builds, and names the functions from ReadingOptions::names_file or the names.toml beside the trace.
// Fails on an unreadable input (unless keep_going), an empty trace, a bad names file, or, with strict, on any
// input lost while reading: a malformed line, a record not joined, a skipped file (core::strict_problem).
core::Expected<LoadedTrace> load_trace(const std::vector<std::string>& inputs, const ReadingOptions& options);
// The same from records already in memory (tests, generators): `label` names them in reports.
core::Expected<LoadedTrace> load_records(core::TraceRecords records, std::string label, const ReadingOptions& options);

// The label of an input path: its file or folder name, without a trailing archive extension.
std::string label_of(const std::string& path);

// Runs whose family is the same differ only in node count (weak scaling). The rule: the label with the
// decimal node count written next to an 'n' or 'node(s)' (`4n`, `4node`, `4nodes`, `n4`, `nodes4`), the first
// such place, replaced by 'N'; a label that names no node count is a family of its own.
std::string trace_family(const std::string& label, std::uint32_t nodes);

// The machine a trace is replayed on: a TOML file, or "traced" for the machine the trace was taken on
// (machine::traced_machine_toml, its network latency fitted by replays: fit_traced_machine), plus `key=value`
// overrides.
struct MachineChoice {
  std::string path;
  std::vector<std::string> overrides;
  bool traced() const;
};

// Loads the machine a choice names for this trace. The traced machine is fitted on its first use
// (fit_traced_machine: up to 16 replays of the whole trace).
// With a `network` (a replay over ranks), every rank calls it, and the fit's replays run over the ranks.
core::Expected<machine::MachineModel> load_machine_for(const LoadedTrace& trace, const MachineChoice& machine,
                                                       replay::BlockNetwork* network = nullptr);

struct ReplaySettings {
  machine::MappingSpec mapping;    // placement, function moves, fold and node map
  replay::ReplayOptions engine;
  bool critical_path = true;       // also walk the critical path (and the lower bound)
};

struct ReplayRun {
  machine::MachineModel model;
  replay::MachineMap map;
  replay::ReplayResult result;
  std::optional<replay::CriticalPath> critical;
};

core::Expected<ReplayRun> replay_trace(const LoadedTrace& trace, const MachineChoice& machine,
                                       const ReplaySettings& settings);
// The same on a model already loaded.
core::Expected<ReplayRun> replay_on(const LoadedTrace& trace, machine::MachineModel model,
                                    const ReplaySettings& settings);

}  // namespace rr::session
