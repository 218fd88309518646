// Finding dotted keys too deep for the TOML parser, without parsing.
#include "machine_models/toml_depth.hpp"

#include <algorithm>

#include "machine_models/machine_limits.hpp"

namespace rr::machine {

std::optional<std::uint64_t> line_of_too_deep_key(std::string_view text) {
  if (static_cast<std::size_t>(std::count(text.begin(), text.end(), '.')) < kMaxKeyComponents) return std::nullopt;
  std::uint64_t line = 1;
  std::size_t dots = 0;
  std::size_t i = 0;
  auto starts = [&](std::string_view token) { return text.substr(i, token.size()) == token; };
  auto skip_to = [&](std::string_view end, bool escapes) {
    while (i < text.size() && !starts(end)) {
      if (text[i] == '\n') ++line;
      if (escapes && text[i] == '\\') ++i;
      ++i;
    }
    i += end.size();
  };
  while (i < text.size()) {
    char c = text[i];
    if (starts("\"\"\"")) { i += 3; skip_to("\"\"\"", true); continue; }
    if (starts("'''")) { i += 3; skip_to("'''", false); continue; }
    if (c == '"') { ++i; skip_to("\"", true); continue; }
    if (c == '\'') { ++i; skip_to("'", false); continue; }
    if (c == '#') { while (i < text.size() && text[i] != '\n') ++i; continue; }
    if (c == '.' && ++dots >= kMaxKeyComponents) return line;
    if (c == '\n' || c == '=' || c == '[' || c == ']' || c == '{' || c == '}' || c == ',') dots = 0;
    if (c == '\n') ++line;
    ++i;
  }
  return std::nullopt;
}

}  // namespace rr::machine
