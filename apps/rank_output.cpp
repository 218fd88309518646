#include "rank_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace rr::app {

namespace {

void write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n <= 0) return;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

RankOutput::RankOutput(std::uint32_t rank) : rank_(rank) {
  if (rank == 0) return;
  std::fflush(nullptr);
  if (const int null = ::open("/dev/null", O_WRONLY); null >= 0) {
    ::dup2(null, STDOUT_FILENO);
    ::close(null);
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string name = std::string(tmp && *tmp ? tmp : "/tmp") + "/realm-replay-mpi-stderr-XXXXXX";
  kept_ = ::mkstemp(name.data());
  if (kept_ < 0) return;  // standard error stays as it is
  ::unlink(name.c_str());
  real_stderr_ = ::dup(STDERR_FILENO);
  ::dup2(kept_, STDERR_FILENO);
}

RankOutput::~RankOutput() {
  if (kept_ >= 0) ::close(kept_);
  if (real_stderr_ >= 0) ::close(real_stderr_);
}

void RankOutput::show_failure(std::string_view line) {
  std::fflush(nullptr);
  const int out = real_stderr_ >= 0 ? real_stderr_ : STDERR_FILENO;
  std::string text;
  if (kept_ >= 0 && ::lseek(kept_, 0, SEEK_SET) == 0) {
    const std::string mark = "rank " + std::to_string(rank_) + ": ";
    char buffer[4096];
    bool line_start = true;
    for (ssize_t n; (n = ::read(kept_, buffer, sizeof buffer)) > 0;)
      for (ssize_t i = 0; i < n; ++i) {
        if (line_start) text += mark;
        text += buffer[i];
        line_start = buffer[i] == '\n';
      }
    if (!line_start) text += '\n';
  }
  write_all(out, text + std::string(line) + "\n");
}

}  // namespace rr::app
