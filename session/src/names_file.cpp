// Names files: strict TOML (toml++) like machine and mapping files, every error with the file and line.
#include "session/names_file.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <vector>

#include "core/text_file.hpp"
#include "machine_models/machine_limits.hpp"
#include "machine_models/toml_depth.hpp"

namespace rr::session {

namespace {

core::InputError error(const std::string& path, std::uint64_t line, std::string message) {
  return core::InputError{core::SourceLocation{path, line, std::nullopt}, std::move(message)};
}

// A key's function id: decimal digits only, within 32 bits ("5", "0005"); not "f5", "-1", "0x5" or "5.0".
std::optional<std::uint32_t> function_id(std::string_view key) {
  if (key.empty() || !std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
  std::uint32_t id = 0;
  auto [end, problem] = std::from_chars(key.data(), key.data() + key.size(), id);
  if (problem != std::errc{} || end != key.data() + key.size()) return std::nullopt;
  return id;
}

const char* type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date:
    case toml::node_type::time:
    case toml::node_type::date_time: return "a date or time";
    default: return "not a string";
  }
}

}  // namespace

core::Expected<graph::FunctionNames> parse_names(std::string_view text, const std::string& path) {
  if (auto line = machine::line_of_too_deep_key(text))
    return error(path, *line, "a dotted key of more than " + std::to_string(machine::kMaxKeyComponents) +
                                  " parts (a names file has one function id = \"name\" a line)");
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    return error(path, e.source().begin.line, "TOML syntax: " + std::string(e.description()));
  }
  // toml++ keeps a table's keys sorted as text; they are judged in the file's order, so that the first
  // mistake reported is the first one in the file.
  std::vector<std::pair<const toml::key*, const toml::node*>> entries;
  for (const auto& [key, value] : root) entries.emplace_back(&key, &value);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    const auto &x = a.first->source().begin, &y = b.first->source().begin;
    return x.line != y.line ? x.line < y.line : x.column < y.column;
  });
  std::map<std::uint32_t, std::pair<std::string, std::uint64_t>> names;  // id -> (name, line)
  for (const auto& [key, value] : entries) {
    const std::uint64_t line = key->source().begin.line;
    const auto id = function_id(key->str());
    if (!id)
      return error(path, line, "'" + std::string(key->str()) +
                                   "' is not a function id: keys are function ids in decimal, as in 5 = \"calc_new_currents\"");
    const std::uint64_t value_line = value->source().begin.line;
    const auto* name = value->as_string();
    if (!name)
      return error(path, value_line, "the name of function " + std::to_string(*id) + " is " + type_name(*value) +
                                         ", not a string in quotes");
    if (name->get().empty()) return error(path, value_line, "function " + std::to_string(*id) + " has an empty name");
    auto [at, fresh] = names.try_emplace(*id, name->get(), line);
    if (!fresh)
      return error(path, line, "function " + std::to_string(*id) + " is named twice (also on line " +
                                   std::to_string(at->second.second) + ")");
  }
  graph::FunctionNames out;
  out.reserve(names.size());
  for (auto& [id, entry] : names) out.emplace_back(id, std::move(entry.first));
  return out;
}

core::Expected<graph::FunctionNames> read_names_file(const std::string& path) {
  auto text = core::read_text_file(path, "names file");
  if (!text) return text.error();
  return parse_names(*text, path);
}

std::optional<std::string> default_names_file(const std::vector<std::string>& inputs) {
  if (inputs.empty()) return std::nullopt;
  namespace fs = std::filesystem;
  const fs::path first(inputs.front());
  std::error_code ec;
  const fs::path folder = fs::is_directory(first, ec) ? first : first.parent_path();
  const fs::path candidate = folder / kDefaultNamesFile;
  if (!fs::exists(candidate, ec)) return std::nullopt;
  return candidate.string();
}

core::Expected<std::optional<GivenNames>> read_given_names(const std::vector<std::string>& inputs,
                                                           const std::string& names_file) {
  const std::optional<std::string> file = names_file.empty() ? default_names_file(inputs) : names_file;
  if (!file) return std::optional<GivenNames>{};
  auto names = read_names_file(*file);
  if (!names) return names.error();
  return std::optional<GivenNames>{GivenNames{*file, std::move(*names)}};
}

}  // namespace rr::session
