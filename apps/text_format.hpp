// Number formatting shared by the text, CSV and HTML reports.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace rr::app {

inline std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}
// Nanoseconds as milliseconds with three decimals.
inline std::string ms(std::int64_t ns) { return fixed(static_cast<double>(ns) / 1e6, 3); }
// A fraction as a percentage: 0.155 -> "15.5%".
inline std::string pct(double fraction) { return fixed(100.0 * fraction, 1) + "%"; }
// part/whole as a percentage number without the sign: "15.5" ("0.0" when whole is 0).
inline std::string share(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? fixed(100.0 * static_cast<double>(part) / static_cast<double>(whole), 1) : "0.0";
}

// The parts with `separator` between them: {"a", "b"} -> "a; b".
inline std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
  return out;
}

}  // namespace rr::app
