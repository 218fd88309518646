// The outputs compare and sweep share: --json, -o, --csv, --html and --title, and writing them.
#pragma once

#include <CLI/CLI.hpp>
#include <vector>

#include "comparison_report.hpp"

namespace rr::app {

void add_comparison_outputs(CLI::App* cmd, ComparisonOutputs& out);

// The report (text, or JSON with --json) to stdout or -o, then the other formats asked for; returns false (after a
// message) when one cannot be written.
bool write_comparison_outputs(const char* command, const std::vector<ComparisonRow>& rows, const RunContext& ctx,
                              const ComparisonOutputs& out);

}  // namespace rr::app
