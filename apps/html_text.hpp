// Text placed in an HTML page (the compare/sweep and explain reports): the characters HTML reads as markup,
// escaped.
#pragma once

#include <string>
#include <string_view>

namespace rr::app {

inline std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace rr::app
