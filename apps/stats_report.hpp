// Rendering of a TraceSummary as a readable text table or as JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "parser/trace_summary.hpp"
#include "run_context.hpp"

namespace rr::app {

std::string render_stats_text(const parser::TraceSummary& s);
// "Read 1.2 MiB of text (59.6 KiB stored) in 0.029 s": the only line that varies from run to run.
std::string render_read_line(const parser::TraceSummary& s, const RunContext& ctx);
nlohmann::ordered_json render_stats_json(const parser::TraceSummary& s, const RunContext& ctx);

}  // namespace rr::app
