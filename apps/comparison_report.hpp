// Side-by-side comparison of replays (compare, sweep) rendered as a text table with its legend, CSV, JSON and
// a self-contained HTML report with SVG charts; the numbers come from comparison_rows.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "comparison_rows.hpp"
#include "run_context.hpp"

namespace rr::app {

// What compare and sweep write: the report (text, or JSON with --json) to stdout or -o, and the other formats to
// the files named.
struct ComparisonOutputs {
  bool json = false;
  std::string output{};  // -o: the report's file; empty: stdout
  std::string csv{};     // --csv FILE
  std::string html{};    // --html FILE
  std::string title{};   // the HTML report's title
};

std::string render_comparison_text(const std::vector<ComparisonRow>& rows);
std::string render_comparison_csv(const std::vector<ComparisonRow>& rows);
nlohmann::ordered_json render_comparison_json(const std::vector<ComparisonRow>& rows, const RunContext& ctx);
std::string render_comparison_html(const std::vector<ComparisonRow>& rows, const RunContext& ctx,
                                   const std::string& title);

}  // namespace rr::app
