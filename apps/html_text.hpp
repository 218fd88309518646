// Text placed in an HTML page (the compare/sweep, study and explain reports): the characters HTML reads as markup,
// escaped; and the start of every such page, up to its <body>, with the one style sheet they share.
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

// "<!DOCTYPE html>...<body>": the page's title and style, nothing fetched from elsewhere.
inline std::string html_page_start(std::string_view title) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html_escape(title) +
         "</title>\n<style>body{font-family:system-ui,sans-serif;margin:24px;color:#222}"
         "table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #ccc;padding:4px 8px;text-align:right}"
         "th{background:#f3f3f3}td:first-child,th:first-child{text-align:left;white-space:nowrap}"
         "table.left td{text-align:left}"
         ".chart text{font-size:12px;font-family:system-ui,sans-serif}h2{margin-top:28px}"
         ".note{color:#666;font-size:12px}.legend{font-size:13px;max-width:1000px}</style></head><body>\n";
}

}  // namespace rr::app
