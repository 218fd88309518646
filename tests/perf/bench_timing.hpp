// Wall-clock timing for the benchmarks: seconds since a start, and the median of repeated runs.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace rr::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace rr::bench
