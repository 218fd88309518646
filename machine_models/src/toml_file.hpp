// What the readers of this room's small TOML files (mapping files, factors files) share: the file parsed with the
// deep-key guard, errors naming the file and line.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "core/text_file.hpp"
#include "machine_models/machine_limits.hpp"
#include "machine_models/toml_depth.hpp"

namespace rr::machine {

inline core::InputError file_error(const std::string& where, std::uint64_t line, std::string message) {
  return core::InputError{core::SourceLocation{where, line, std::nullopt}, std::move(message)};
}

inline std::uint64_t line_of(const toml::node& n) { return n.source().begin.line; }

// The file as a TOML table, or an error naming it ("cannot open <what>: ...") and the line of a syntax error.
inline core::Expected<toml::table> parse_toml_file(const std::string& path, std::string_view what) {
  auto text = core::read_text_file(path, what);
  if (!text) return text.error();
  if (auto line = line_of_too_deep_key(*text))
    return file_error(path, *line, "a dotted key of more than " + std::to_string(kMaxKeyComponents) + " parts");
  try {
    return toml::parse(*text, path);
  } catch (const toml::parse_error& e) {
    return file_error(path, e.source().begin.line, "TOML syntax: " + std::string(e.description()));
  }
}

}  // namespace rr::machine
