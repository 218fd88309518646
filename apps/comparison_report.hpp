// Side-by-side comparison of replays (compare, sweep) rendered as a text table with its legend, CSV, JSON and
// a self-contained HTML report with SVG charts; the numbers come from comparison_rows.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "comparison_rows.hpp"
#include "run_context.hpp"

namespace rr::app {

std::string render_comparison_text(const std::vector<ComparisonRow>& rows);
std::string render_comparison_csv(const std::vector<ComparisonRow>& rows);
nlohmann::ordered_json render_comparison_json(const std::vector<ComparisonRow>& rows, const RunContext& ctx);
std::string render_comparison_html(const std::vector<ComparisonRow>& rows, const RunContext& ctx,
                                   const std::string& title);

}  // namespace rr::app
