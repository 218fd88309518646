// What one file's timing records add up to. The graph builder tallies them as it joins them to their tasks and
// copies (and then frees them); `stats` reads the tally instead of joining the records a second time.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace rr::core {

struct FileTimingTally {
  // Task Time microseconds by the processor (or group) the task's request named, ascending by that id.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> task_time_us_by_target;
  std::uint64_t task_time_us_without_task = 0;  // Task Times whose event no Task Request produced
  std::uint64_t copy_bytes = 0;                 // over every Copy Size record
  std::uint64_t zero_byte_copy_sizes = 0;
};

}  // namespace rr::core
