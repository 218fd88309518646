// `diff` of two replay reports: their metrics in a fixed order (estimated time first, then the critical path,
// processors by kind and node, copy paths), each with its unit, and the operations entering or leaving the
// critical path; as text or JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace rr::app {

struct DiffInput {
  std::string path;              // the report file, as given
  nlohmann::ordered_json report; // a `replay --json` report
};

std::string render_diff_text(const DiffInput& before, const DiffInput& after);
nlohmann::ordered_json render_diff_json(const DiffInput& before, const DiffInput& after);

}  // namespace rr::app
