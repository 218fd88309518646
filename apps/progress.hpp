// A byte counter on stderr while a long read runs, shown only when stderr is a terminal.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace rr::app {

class Progress {
 public:
  explicit Progress(const char* what);
  ~Progress();  // clears the line
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  bool enabled() const { return enabled_; }
  void add(std::uint64_t bytes);  // thread-safe

 private:
  const char* what_;
  bool enabled_;
  std::atomic<std::uint64_t> bytes_{0};
  std::mutex mutex_;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_shown_;
  bool shown_ = false;
};

}  // namespace rr::app
