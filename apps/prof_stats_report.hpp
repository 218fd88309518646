// Rendering of a Legion Prof trace's counts (ProfileSummary) as a text table or as JSON, for `stats`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "parser/prof_summary.hpp"
#include "run_context.hpp"

namespace rr::app {

std::string render_prof_stats_text(const parser::ProfileSummary& s, const RunContext& ctx);
nlohmann::ordered_json render_prof_stats_json(const parser::ProfileSummary& s, const RunContext& ctx);

}  // namespace rr::app
