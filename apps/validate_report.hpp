// Rendering of graph totals and validation findings as text or JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "graph/graph_builder.hpp"
#include "stats_report.hpp"

namespace rr::app {

std::string render_validate_text(const core::TraceRecords& trace, const graph::BuildResult& r, const RunContext& ctx);
nlohmann::ordered_json render_validate_json(const core::TraceRecords& trace, const graph::BuildResult& r,
                                            const RunContext& ctx);
// Vertex and edge counts by kind (shared by stats and validate).
nlohmann::ordered_json graph_totals_json(const graph::EventGraph& g);
// Graph totals plus finding counts, for `stats`.
nlohmann::ordered_json graph_summary_json(const graph::BuildResult& r);
std::string render_graph_summary_text(const graph::BuildResult& r);

}  // namespace rr::app
