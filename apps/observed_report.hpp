// Rendering of `replay --against-observed`: the observed makespan beside the estimate and the start/end errors
// per kind of operation and per function.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "replay/observed_comparison.hpp"

namespace rr::app {

// `functions`: how many function rows the text shows (most observed time first); JSON has them all.
std::string render_observed_text(const replay::ObservedComparison& c, std::size_t functions = 15);
nlohmann::ordered_json render_observed_json(const replay::ObservedComparison& c);

}  // namespace rr::app
