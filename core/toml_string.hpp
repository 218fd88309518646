// A TOML basic string for files the project writes (machine files, names files): quotes, backslashes and control
// characters (which TOML forbids raw) escaped, so that any name is written back readable.
#pragma once

#include <string>
#include <string_view>

namespace rr::core {

inline std::string toml_string(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "\"";
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

}  // namespace rr::core
