// Runs files: the measured run times calibrate fits to, as TOML [[run]] tables or CSV lines. A time is refused
// unless it is a plain decimal number of seconds in a physical range, so that a typo, a unit slip or a decimal
// comma is an error on its line rather than a fit to a wrong number.
#include "calibration/runs_file.hpp"

#include <toml++/toml.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>

#include "core/text_file.hpp"
#include "machine_models/machine_limits.hpp"
#include "machine_models/toml_depth.hpp"

namespace rr::calibration {

namespace {

// A measured run time lies in [1 µs, 10^6 s (11.6 days)]: anything outside is a typo or a unit slip, and an
// extreme one (1e308, 1e-300) would make every error ratio of the fit infinite or zero.
constexpr double kMinMeasuredS = 1e-6;
constexpr double kMaxMeasuredS = 1e6;

core::InputError runs_error(const std::string& path, std::uint64_t line, std::string message) {
  return core::InputError{core::SourceLocation{path, line, std::nullopt}, std::move(message)};
}

std::string measured_range_problem(double seconds) {
  if (std::isfinite(seconds) && seconds >= kMinMeasuredS && seconds <= kMaxMeasuredS) return {};
  return "measured_s must be a number of seconds from 1e-6 to 1e6";
}

// A plain decimal number as people write run times: digits with at most one point and an exponent
// ("3.48", ".5", "2e3"). strtod alone would also take hex ("0x10"), "nan", "inf" and a number followed by junk.
bool is_plain_decimal(std::string_view text) {
  std::size_t i = 0, digits = 0;
  const auto take_digits = [&] {
    std::size_t n = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i, ++n;
    return n;
  };
  digits += take_digits();
  if (i < text.size() && text[i] == '.') {
    ++i;
    digits += take_digits();
  }
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (take_digits() == 0) return false;
  }
  return i == text.size();
}

// Whether a field is a number and nothing else, such as the "48" of "3,48".
bool looks_like_number(std::string_view text) {
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) text.remove_prefix(1);
  return is_plain_decimal(text);
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// Whether a time field was meant as a number, however badly written: then it is an error, not a header.
bool looks_numeric(std::string_view text) {
  if (text.find_first_of("0123456789") != std::string_view::npos) return true;
  std::string word;
  for (char c : text)
    if (c != '+' && c != '-' && c != ' ') word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return word == "nan" || word == "inf" || word == "infinity";
}

// measured_s as a TOML value: a float or a decimal integer (a hex, octal or binary integer is a slip), in range.
std::optional<std::string> toml_seconds_problem(const toml::node* node, double& seconds) {
  if (!node) return "[[run]] needs measured_s, a number of seconds";
  if (const auto* i = node->as_integer()) {
    if ((i->flags() & toml::value_flags::format_as_hexadecimal) != toml::value_flags::none ||
        (i->flags() & toml::value_flags::format_as_octal) != toml::value_flags::none ||
        (i->flags() & toml::value_flags::format_as_binary) != toml::value_flags::none)
      return "measured_s must be a decimal number of seconds";
    seconds = static_cast<double>(i->get());
  } else if (const auto* d = node->as_floating_point()) {
    seconds = d->get();
  } else {
    return "measured_s must be a number of seconds";
  }
  if (auto problem = measured_range_problem(seconds); !problem.empty()) return problem;
  return std::nullopt;
}

std::string resolve(const std::string& trace, const std::string& runs_file) {
  std::filesystem::path p(trace);
  if (p.is_absolute()) return trace;
  return (std::filesystem::path(runs_file).parent_path() / p).lexically_normal().string();
}

core::Expected<std::vector<MeasuredRun>> read_toml_runs(const std::string& path, const std::string& text) {
  if (auto line = machine::line_of_too_deep_key(text))
    return runs_error(path, *line, "a dotted key of more than " + std::to_string(machine::kMaxKeyComponents) + " parts");
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    return runs_error(path, e.source().begin.line, "TOML syntax: " + std::string(e.description()));
  }
  const toml::array* list = root["run"].as_array();
  if (!list || !list->is_array_of_tables() || list->empty())
    return runs_error(path, 1, "a runs file lists [[run]] tables with trace, measured_s and how");
  std::vector<MeasuredRun> runs;
  for (const auto& node : *list) {
    const toml::table& t = *node.as_table();
    const auto line = t.source().begin.line;
    for (const auto& [key, value] : t)
      if (key != "trace" && key != "measured_s" && key != "how")
        return runs_error(path, value.source().begin.line, "unknown key '" + std::string(key.str()) + "' in [[run]]");
    auto trace = t["trace"].value<std::string>();
    if (!trace) return runs_error(path, line, "[[run]] needs trace = \"path\"");
    const toml::node* measured = t.get("measured_s");
    double seconds = 0;
    if (auto problem = toml_seconds_problem(measured, seconds))
      return runs_error(path, line, *problem);  // like every [[run]] error, at the table's line
    runs.push_back({resolve(*trace, path), seconds, t["how"].value<std::string>().value_or("")});
  }
  return runs;
}

core::Expected<std::vector<MeasuredRun>> read_csv_runs(const std::string& path, const std::string& text) {
  std::vector<MeasuredRun> runs;
  std::istringstream in(text);
  std::string line;
  for (std::uint64_t n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (;;) {
      auto comma = line.find(',', start);
      fields.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos || fields.size() == 2) {
        if (comma != std::string::npos) fields.push_back(line.substr(comma + 1));
        break;
      }
      start = comma + 1;
    }
    if (fields.size() < 2) return runs_error(path, n, "expected trace,measured_s[,how]");
    const std::string time = trimmed(fields[1]);
    if (!is_plain_decimal(time)) {
      // Only the file's first line may be a header, and only when its time field is a name, not a number.
      if (n == 1 && !looks_numeric(time)) continue;
      return runs_error(path, n, "measured_s '" + time + "' is not a number (a plain decimal number of seconds)");
    }
    const double seconds = std::strtod(time.c_str(), nullptr);
    if (auto problem = measured_range_problem(seconds); !problem.empty()) return runs_error(path, n, problem);
    // A number where the text of `how` goes is the rest of a number split by a decimal comma ("3,48"), or a
    // column this file does not have: either way the time read would be wrong.
    if (fields.size() > 2) {
      const std::string next = trimmed(fields[2].substr(0, fields[2].find(',')));
      if (looks_like_number(next))
        return runs_error(path, n, "a number after measured_s ('" + time + "," + next +
                                       "'): measured_s takes a decimal point, and the third field, how, is text");
    }
    runs.push_back({resolve(fields[0], path), seconds, fields.size() > 2 ? fields[2] : ""});
  }
  if (runs.empty()) return runs_error(path, 0, "no runs listed");
  return runs;
}

}  // namespace

core::Expected<std::vector<MeasuredRun>> read_runs(const std::string& path) {
  auto text = core::read_text_file(path, "runs file");
  if (!text) return text.error();
  if (path.ends_with(".csv")) return read_csv_runs(path, *text);
  return read_toml_runs(path, *text);
}

}  // namespace rr::calibration
