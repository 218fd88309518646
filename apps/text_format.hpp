// Number formatting shared by the text, CSV and HTML reports.
#pragma once

#include <cmath>
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
// The infinite-resource lower bound: a longest path, which a graph with a cycle does not have (the analysis
// gives -1 then); reports say so rather than print a negative time.
inline std::string lower_bound_ms(std::int64_t ns) { return ns < 0 ? "undefined (the graph has a cycle)" : ms(ns) + " ms"; }
// The same with a sign always shown: "+1.500", "-0.250".
inline std::string signed_ms(std::int64_t ns) { return (ns >= 0 ? "+" : "") + ms(ns); }
// A fraction as a percentage: 0.155 -> "15.5%".
inline std::string pct(double fraction) { return fixed(100.0 * fraction, 1) + "%"; }
// The same with a sign always shown, as printf's "%+.1f%%" writes it: "+15.5%", "-0.0%".
inline std::string signed_pct(double fraction) { return (std::signbit(fraction) ? "" : "+") + pct(fraction); }
// Three significant digits: a ratio (2.9, 0.806, 33.2).
inline std::string significant(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}
// `s` padded with spaces to `width` characters, on the right (left-aligned), or on the left with `right`.
inline std::string pad(const std::string& s, std::size_t width, bool right = false) {
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}
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

// `text` broken at spaces into lines of at most `width` characters (a longer word stays whole), the lines
// after the first indented by `indent`; every line ends with a newline.
inline std::string wrap(const std::string& text, std::size_t width, const std::string& indent) {
  std::string out, line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t space = text.find(' ', start);
    const std::string word = text.substr(start, space == std::string::npos ? std::string::npos : space - start);
    start = space == std::string::npos ? text.size() : space + 1;
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = indent;
    } else if (!line.empty() && line != indent) {
      line += " ";
    }
    line += word;
  }
  return out + line + "\n";
}

}  // namespace rr::app
