// Why is run B slower than run A (docs/explain.md): two traces of one application, their operations matched,
// what changed between them, and the difference of their replays on one machine attributed to classes of facts
// by counterfactual replays (A with some of B's facts) and Shapley values, which add up to it exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "explain/matching.hpp"
#include "replay/replay_engine.hpp"
#include "session/session.hpp"

namespace rr::explain {

// A class of facts one run can take from the other.
enum class FactKind : std::uint8_t {
  durations,   // the busy times of the tasks of some functions (one, or a group by processor kind)
  copies,      // the copies' sizes
  costs,       // the machine's costs: everything but its processors (latencies, overheads, speeds, channels)
  processors,  // the machine's processors per kind and node, and its cores
  structure,   // the graph itself: which operations there are and what they wait for
};
const char* fact_kind_name(FactKind k);

struct FactClass {
  FactKind kind = FactKind::durations;
  std::string name;                  // "durations of calc_new_currents", "durations of 12 other CPU functions"
  std::vector<std::string> members;  // a duration class's functions; more than one when grouped
  std::vector<std::string> changes;  // what differs, for the machine's classes ("network latency 2000 -> 8000 ns")
  std::uint64_t matched = 0;         // matched operations of the class (durations, copies)
  double median_ratio = 1.0;         // median of B/A over them: how an unmatched operation of A is scaled
  double size = 0;                   // how much the class changes, before any replay: ns of work, bytes (ranking)
  std::int64_t alone_ns = 0;         // the replay of A with this class alone from B, less the replay of A
  std::int64_t share_ns = 0;         // its Shapley share of the difference
};

// What a function, a kind of operation or a copy path did in each run.
struct WorkChange {
  std::string name;
  OpClass op_class = OpClass::cpu;
  std::uint64_t count_a = 0, count_b = 0, matched = 0;
  std::int64_t total_a = 0, total_b = 0;    // busy ns (tasks) or bytes (copies)
  std::int64_t median_a = 0, median_b = 0;  // of one operation
  double median_ratio = 1.0;                // over matched operations, B/A
};

struct ProcessorChange {
  std::uint32_t node = 0;
  std::string kind;
  std::uint32_t a = 0, b = 0;  // traced processors of the kind on the node
};

// What changed between the runs, before any replay.
struct Changes {
  std::uint32_t nodes_a = 0, nodes_b = 0;
  std::uint64_t operations_a = 0, operations_b = 0;
  std::uint64_t compared_a = 0, compared_b = 0, matched = 0;
  std::vector<WorkChange> unmatched;   // per function or copy path with operations only one run has, most first
  std::vector<WorkChange> functions;   // per function: busy time (ns), largest change first
  std::vector<WorkChange> kinds;       // per processor kind (and background, copy: bytes)
  std::vector<WorkChange> copy_paths;  // bytes per copy path
  std::vector<ProcessorChange> processors;
  std::vector<std::string> machine;    // the machines' differences (costs, overheads, processors, placement)
};

struct ExplainOptions {
  // The machine each run is replayed on: "traced" (each its own traced machine, the default), one file for both,
  // or a file each (a generator's machine.toml beside its trace).
  session::MachineChoice machine_a{"traced", {}};
  session::MachineChoice machine_b{"traced", {}};
  replay::ReplayRules rules;  // unlogged time and queue order (no noise)
  unsigned threads = 0;       // replays side by side; 0: every hardware thread
  // Fewer matched operations than this share of the two runs' compared ones: not runs of one application.
  double min_matched_share = 0.2;
};

struct ExplainResult {
  std::string label_a, label_b;
  std::int64_t replay_a_ns = 0, replay_b_ns = 0;  // on their machines, with the placement below
  std::optional<std::int64_t> observed_a_ns, observed_b_ns;  // the logs' own makespans (Legion Prof)
  std::string placement;           // of every replay: "pool" when the processors differ, else the machine's
  std::vector<FactClass> classes;  // in the order of the subsets' bits; ranked() gives them by share
  std::vector<std::int64_t> subset_ns;  // the replay of every subset of classes from B, by bit mask
  std::vector<std::string> notes;       // groupings and choices the result depends on
  Changes changes;
  std::uint64_t replays = 0;  // replays run
  unsigned threads = 0;
  double seconds = 0;

  std::int64_t difference_ns() const { return replay_b_ns - replay_a_ns; }
  // Class indices by |share|, largest first (ties: bit order).
  std::vector<std::size_t> ranked() const;
};

// Matches, compares and attributes. Fails on a machine that cannot be loaded or a replay that fails, naming the
// trace, and when the runs do not look like one application (too few operations match).
core::Expected<ExplainResult> explain_traces(const session::LoadedTrace& a, const session::LoadedTrace& b,
                                             const ExplainOptions& options);

}  // namespace rr::explain
