// A study (`realm-replay study`, docs/mapping.md, Studies): strategies × node counts. Every input (one trace at one
// node count) is replayed with every strategy side by side (run_grid); each series (a strategy, and the trace
// family or generated variant it ran on) gets its speed-up and parallel efficiency against its own fewest-node
// cell, and each node count its winner; where the winner changes is a crossover.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "replay/run_summary.hpp"
#include "session/session.hpp"
#include "session/study_strategy.hpp"

namespace rr::session {

// strong: one problem on more nodes (folds of one trace, or traces of one problem); weak: the problem grows with the
// nodes (the generators' traces, or traces of a growing problem).
enum class Scaling : std::uint8_t { strong, weak };
const char* scaling_name(Scaling s);

// One trace at one node count, as a source of the study gives it.
struct StudyInput {
  const LoadedTrace* trace = nullptr;
  std::string variant;          // the family or generated variant it belongs to; empty when the study has one
  std::uint32_t nodes = 0;      // the node count of its cells: the fold, else the trace's nodes
  std::uint32_t fold = 0;       // model nodes to fold the trace onto; 0: its own
  MachineChoice machine;        // the machine and --set values it is replayed on
  std::optional<replay::TimeNs> truth_ns;  // a generated trace's truth makespan, when `machine` is its truth's
};

// One replay of the study, and what the table says of it.
struct StudyCell {
  std::string series;     // how reports name the strategy: the strategy, the variant, or "variant/strategy"
  std::string strategy;
  std::string variant;
  std::uint32_t nodes = 0;
  replay::RunSummary run;
  std::optional<replay::TimeNs> truth_ns;
  // Against the series' cell with the fewest nodes (reference_nodes). strong: speed-up T(n0)/T(n), efficiency
  // speed-up·n0/n; weak: efficiency T(n0)/T(n), speed-up (scaled) efficiency·n/n0. None when a time is 0 or a
  // cell of the two is stuck.
  std::uint32_t reference_nodes = 0;
  std::optional<double> speedup;
  std::optional<double> efficiency;
  std::optional<double> to_winner;  // this estimate / the winner's at this node count (1 for the winner)
  bool winner = false;
};

struct StudyWinner {
  std::uint32_t nodes = 0;
  std::string series;
  replay::TimeNs time_ns = 0;
};

// Where the winner changes: at `nodes`, `to` wins where `from` won at the node count before (`after_nodes`).
struct StudyCrossover {
  std::uint32_t after_nodes = 0;
  std::uint32_t nodes = 0;
  std::string from;
  std::string to;
};

struct StudyResult {
  Scaling scaling = Scaling::strong;
  std::vector<std::string> series;           // in the order of the inputs' variants, then of the strategies
  std::vector<std::uint32_t> node_counts;    // ascending
  std::vector<StudyCell> cells;              // by node count, then series
  std::vector<StudyWinner> winners;          // one per node count with a cell that ran to its end
  std::vector<StudyCrossover> crossovers;
  // By the truth makespans, when every cell has one: the winners and crossovers the truth schedules give.
  std::vector<StudyWinner> truth_winners;
  std::vector<StudyCrossover> truth_crossovers;
  std::vector<std::string> warnings;         // parts of a strategy that do not apply to a trace, cells left out
  std::vector<std::string> notes;            // eft without a choice
};

// The series name of a variant with a strategy: the strategy alone when the study has one variant, the variant
// alone when it has several and the one default strategy, else "variant/strategy".
std::string series_name(const std::string& variant, const std::string& strategy, bool several_variants,
                        bool only_default_strategy);

// Fills in speed-up, efficiency, the ratio to the winner, winners and crossovers. `cells` may come in any order;
// `series` gives the order of the series (ties for the winner go to the earlier one). A cell with stuck
// operations has no speed-up or efficiency and never wins. Pure: tests check the numbers by hand.
StudyResult tabulate_study(std::vector<StudyCell> cells, std::vector<std::string> series, Scaling scaling);

// Every input with every strategy, replayed side by side (run_grid: the same result at any thread count), then
// tabulated. A strategy's move of a function a trace lacks is dropped for that trace, and a fold beyond a trace's
// nodes leaves that cell out, each with a warning naming the trace. Fails on a strategy whose mapping cannot be read
// or sets a fold, or whose machine values the machine refuses (naming the strategy), and on a replay that fails.
core::Expected<StudyResult> run_study(const std::vector<StudyInput>& inputs, const std::vector<StudyStrategy>& strategies,
                                      Scaling scaling, unsigned threads);

}  // namespace rr::session
