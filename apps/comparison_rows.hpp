// The rows of a comparison (compare, sweep): each replay with its speed-up over the same trace on the first
// machine and its weak-scaling efficiency within its family, or the reason it has none. Pure computation,
// kept apart from the rendering so that tests can check the numbers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "replay/run_summary.hpp"

namespace rr::app {

struct ComparisonRow {
  replay::RunSummary run;
  // The same trace's time on the first machine given / this time: how much faster this machine runs the
  // trace (1 on the first machine). None when this run or the reference took no time.
  std::optional<double> speedup;
  std::string speedup_reference;          // the first machine's label
  // Time of the family's run with the fewest nodes on the same machine / this time (1 for that run).
  std::optional<double> weak_efficiency;
  std::string weak_efficiency_note;       // why there is none, when there is none
};

// Rows in the order of `runs`; "the first machine" is the machine of the first run.
std::vector<ComparisonRow> make_rows(std::vector<replay::RunSummary> runs);

}  // namespace rr::app
