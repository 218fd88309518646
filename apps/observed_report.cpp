#include "observed_report.hpp"

#include <cstdio>

#include "text_format.hpp"

namespace rr::app {

namespace {

std::string signed_ms(replay::TimeNs ns) { return (ns > 0 ? "+" : "") + ms(ns); }

std::string row(const replay::ObservedErrors& e) {
  char line[320];
  std::snprintf(line, sizeof line, "  %-32.32s %8llu %12s %12s %11s %11s %11s %11s\n", e.name.c_str(),
                static_cast<unsigned long long>(e.count), ms(e.observed_busy_ns).c_str(), ms(e.replayed_busy_ns).c_str(),
                signed_ms(e.start_median_ns).c_str(), ms(e.start_p95_abs_ns).c_str(), signed_ms(e.end_median_ns).c_str(),
                ms(e.end_p95_abs_ns).c_str());
  return line;
}

const char* kHeader =
    "                                      count   observed     replayed      start error (ms)      end error (ms)\n"
    "                                              busy (ms)    busy (ms)     median     |p95|     median     |p95|\n";

nlohmann::ordered_json errors_json(const replay::ObservedErrors& e) {
  return {{"name", e.name},
          {"count", e.count},
          {"observed_busy_ns", e.observed_busy_ns},
          {"replayed_busy_ns", e.replayed_busy_ns},
          {"start_error_median_ns", e.start_median_ns},
          {"start_error_p95_abs_ns", e.start_p95_abs_ns},
          {"end_error_median_ns", e.end_median_ns},
          {"end_error_p95_abs_ns", e.end_p95_abs_ns}};
}

}  // namespace

std::string render_observed_text(const replay::ObservedComparison& c, std::size_t functions) {
  std::string out = "Against the observed run (times from the run's first operation; error = replayed - observed):\n";
  out += "  observed makespan " + ms(c.observed_makespan_ns) + " ms, estimated " + ms(c.estimated_ns) + " ms: " +
         (c.error > 0 ? "+" : "") + fixed(100.0 * c.error, 1) + "%\n";
  out += "  " + std::to_string(c.operations) + " operation(s) compared";
  if (c.not_replayed) out += ", " + std::to_string(c.not_replayed) + " observed but not replayed (stuck)";
  out += "\n\nBy kind of operation\n";
  out += kHeader;
  for (const auto& e : c.by_kind) out += row(e);
  out += "\nBy function (most observed time first";
  if (c.by_function.size() > functions)
    out += "; " + std::to_string(functions) + " of " + std::to_string(c.by_function.size()) + ", --json has them all";
  out += ")\n";
  out += kHeader;
  for (std::size_t i = 0; i < c.by_function.size() && i < functions; ++i) out += row(c.by_function[i]);
  return out;
}

nlohmann::ordered_json render_observed_json(const replay::ObservedComparison& c) {
  nlohmann::ordered_json kinds = nlohmann::ordered_json::array(), funcs = nlohmann::ordered_json::array();
  for (const auto& e : c.by_kind) kinds.push_back(errors_json(e));
  for (const auto& e : c.by_function) funcs.push_back(errors_json(e));
  return {{"observed_makespan_ns", c.observed_makespan_ns},
          {"estimated_ns", c.estimated_ns},
          {"error", c.error},
          {"operations", c.operations},
          {"not_replayed", c.not_replayed},
          {"by_kind", kinds},
          {"by_function", funcs}};
}

}  // namespace rr::app
