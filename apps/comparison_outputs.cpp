// compare's and sweep's output options and their files.
#include "comparison_outputs.hpp"

#include "option_checks.hpp"
#include "output_file.hpp"

namespace rr::app {

bool write_comparison_outputs(const char* command, const std::vector<ComparisonRow>& rows, const RunContext& ctx,
                              const ComparisonOutputs& out) {
  auto write = [&](const std::string& path, const std::string& text) {
    return path.empty() || write_output_file(command, path, text);
  };
  const std::string report = out.json ? render_comparison_json(rows, ctx).dump(2) + "\n" : render_comparison_text(rows);
  return emit_report(command, out.output, report) && write(out.csv, render_comparison_csv(rows)) &&
         write(out.html, render_comparison_html(rows, ctx, out.title));
}

void add_comparison_outputs(CLI::App* cmd, ComparisonOutputs& out) {
  cmd->add_flag("--json", out.json, "print JSON instead of text");
  cmd->add_option("-o,--output", out.output, "write the report (text, or JSON with --json) to this file (whole or not at all)")
      ->check(output_path());
  cmd->add_option("--csv", out.csv, "also write CSV here")->check(output_path());
  cmd->add_option("--html", out.html, "also write a self-contained HTML report with charts here")->check(output_path());
  cmd->add_option("--title", out.title, "title of the HTML report")->capture_default_str();
}

}  // namespace rr::app
