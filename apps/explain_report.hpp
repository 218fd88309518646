// The reports of `realm-replay explain`: text (the difference, then the classes by share, each with the replay
// that shows it, then what changed), JSON, and a self-contained HTML page with a waterfall from A's time to B's.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "explain/explain.hpp"
#include "run_context.hpp"

namespace rr::app {

std::string render_explain_text(const explain::ExplainResult& r);
nlohmann::ordered_json render_explain_json(const explain::ExplainResult& r, const RunContext& ctx);
std::string render_explain_html(const explain::ExplainResult& r, const RunContext& ctx);

}  // namespace rr::app
