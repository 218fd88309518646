// Text placed in a CSV field (the compare/sweep and study reports): quoted when it holds a comma, a quote or a
// newline, its quotes doubled.
#pragma once

#include <string>

namespace rr::app {

inline std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace rr::app
