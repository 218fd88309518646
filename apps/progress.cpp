// Terminal progress: at most a few updates a second, overwritten in place with '\r'.
#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace rr::app {

Progress::Progress(const char* what)
    : what_(what), enabled_(::isatty(STDERR_FILENO) == 1), started_(std::chrono::steady_clock::now()),
      last_shown_(started_) {}

Progress::~Progress() {
  if (shown_) std::fprintf(stderr, "\r%60s\r", "");
}

void Progress::add(std::uint64_t bytes) {
  const std::uint64_t total = bytes_.fetch_add(bytes) + bytes;
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex_);
  if (now - last_shown_ < std::chrono::milliseconds(250)) return;
  last_shown_ = now;
  shown_ = true;
  const double seconds = std::chrono::duration<double>(now - started_).count();
  const double mib = static_cast<double>(total) / (1024.0 * 1024.0);
  std::fprintf(stderr, "\r%s: %.0f MiB read, %.0f MiB/s   ", what_, mib, seconds > 0 ? mib / seconds : 0.0);
  std::fflush(stderr);
}

}  // namespace rr::app
