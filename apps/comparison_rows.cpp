// Speed-up and weak-scaling efficiency of the rows of a comparison.
#include "comparison_rows.hpp"

#include <map>
#include <set>

namespace rr::app {

namespace {
double ratio(replay::TimeNs reference, replay::TimeNs time) {
  return static_cast<double>(reference) / static_cast<double>(time);
}
}  // namespace

std::vector<ComparisonRow> make_rows(std::vector<replay::RunSummary> runs) {
  std::vector<ComparisonRow> rows;
  for (auto& r : runs) rows.push_back({std::move(r), std::nullopt, "", std::nullopt, ""});
  if (rows.empty()) return rows;

  // Speed-up compares machines, never traces: against the same trace on the first machine. Comparing one
  // application's time with another's says nothing about either.
  const std::string first_machine = rows.front().run.machine_label;
  std::map<std::string, replay::TimeNs> on_first;  // trace -> its time on the first machine
  for (const auto& row : rows)
    if (row.run.machine_label == first_machine) on_first.try_emplace(row.run.trace_label, row.run.estimated_ns);
  for (auto& row : rows) {
    row.speedup_reference = first_machine;
    auto ref = on_first.find(row.run.trace_label);
    if (ref != on_first.end() && ref->second > 0 && row.run.estimated_ns > 0)
      row.speedup = ratio(ref->second, row.run.estimated_ns);
  }

  // Weak scaling: within a family (session::trace_family: traces whose names differ only in the node count)
  // on one machine, against the run with the fewest nodes.
  using Key = std::pair<std::string, std::string>;  // family, machine
  std::map<Key, const ComparisonRow*> fewest;
  std::map<Key, std::set<std::uint32_t>> node_counts;
  for (const auto& row : rows) {
    const Key key{row.run.family, row.run.machine_label};
    node_counts[key].insert(row.run.nodes);
    auto& ref = fewest[key];
    if (!ref || row.run.nodes < ref->run.nodes) ref = &row;
  }
  for (auto& row : rows) {
    const Key key{row.run.family, row.run.machine_label};
    const replay::TimeNs reference = fewest[key]->run.estimated_ns;
    if (row.run.family == row.run.trace_label)
      row.weak_efficiency_note = "'" + row.run.trace_label + "' names no node count (like 4n or 4nodes), so it has no family";
    else if (node_counts[key].size() < 2)
      row.weak_efficiency_note = "family '" + row.run.family + "' has runs at one node count only (" +
                                 std::to_string(row.run.nodes) + ")";
    else if (reference <= 0 || row.run.estimated_ns <= 0)
      row.weak_efficiency_note = "a run of family '" + row.run.family + "' took no time";
    else
      row.weak_efficiency = ratio(reference, row.run.estimated_ns);
  }
  return rows;
}

}  // namespace rr::app
