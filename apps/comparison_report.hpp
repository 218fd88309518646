// Side-by-side comparison of replays (compare, sweep): rows with speed-ups and weak-scaling efficiency,
// rendered as a text table, CSV, JSON and a self-contained HTML report with SVG charts.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "replay/run_summary.hpp"
#include "stats_report.hpp"

namespace rr::app {

struct ComparisonRow {
  replay::RunSummary run;
  double speedup = 1.0;                   // first row's time / this row's time
  std::optional<double> weak_efficiency;  // family's fewest-node time / this time, when node counts differ
};

std::vector<ComparisonRow> make_rows(std::vector<replay::RunSummary> runs);

std::string render_comparison_text(const std::vector<ComparisonRow>& rows);
std::string render_comparison_csv(const std::vector<ComparisonRow>& rows);
nlohmann::ordered_json render_comparison_json(const std::vector<ComparisonRow>& rows, const RunContext& ctx);
std::string render_comparison_html(const std::vector<ComparisonRow>& rows, const RunContext& ctx,
                                   const std::string& title);

}  // namespace rr::app
