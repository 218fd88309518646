// How the files this room writes (machine files, mapping files) give a real number: so that it reads back as the
// same double.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace rr::machine {

// The shortest form that reads back as v, always with a decimal point or an exponent (TOML's float).
inline std::string round_trip_number(double v) {
  char buf[64];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

}  // namespace rr::machine
