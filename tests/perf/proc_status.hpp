// Reads a field of /proc/self/status in KiB (VmRSS, VmHWM) for the benchmarks' memory figures.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

namespace rr::bench {

inline std::uint64_t status_kib(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return std::stoull(line.substr(std::strlen(key)));
  return 0;
}

}  // namespace rr::bench
