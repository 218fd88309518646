// Where an output goes, safely: a regular file is written whole or not at all (a temporary sibling renamed into
// place, the old file's mode kept, the temporary removed on failure and on SIGINT/SIGTERM/SIGHUP/SIGQUIT); a
// device, FIFO or socket is written directly; a symlink is followed; a file with other hard links is replaced
// like any other (the other names keep the old content); a file this run reads is never overwritten.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace rr::platform {

// Marks a file this run reads (a folder: the files in it) so that no output replaces it. Missing paths are
// ignored. Callable from any thread.
void protect_input(const std::string& path);

class OutputTarget {
 public:
  OutputTarget() = default;
  OutputTarget(const OutputTarget&) = delete;
  OutputTarget& operator=(const OutputTarget&) = delete;
  OutputTarget(OutputTarget&& other) noexcept;
  OutputTarget& operator=(OutputTarget&& other) noexcept;
  ~OutputTarget();  // an uncommitted temporary file is removed

  // Opens `path` for writing; returns an empty string or a message naming the file.
  std::string open(const std::string& path);
  std::FILE* file() const { return file_; }
  // The temporary file commit() renames into place (empty for a device or FIFO, written directly): for a
  // writer that needs a path of its own, such as SQLite.
  const std::string& temporary_path() const { return temp_; }
  // Writes and returns false on an error (the message is kept for commit()).
  bool write(std::string_view bytes);
  // Why the first failed write failed ("out.rrg: cannot write: No space left on device"); empty when none has.
  std::string write_error() const { return write_errno_ ? error("cannot write", write_errno_) : std::string(); }
  // Flushes, closes and moves the output into place; returns an empty string or a message naming the file.
  std::string commit();

 private:
  enum class Mode { none, replace, direct };
  std::string error(const std::string& what, int err) const;
  void discard();

  std::string path_;    // as given (in messages)
  std::string target_;  // the file written at commit: `path_` with symlinks followed
  std::string temp_;
  std::FILE* file_ = nullptr;
  Mode mode_ = Mode::none;
  int slot_ = -1;       // the temporary file's entry in the signal handler's list
  int write_errno_ = 0;
};

// Writes `contents` to `path` through an OutputTarget; returns an empty string or a message naming the file.
std::string write_whole_file(const std::string& path, std::string_view contents);

// Flushes standard output; returns an empty string or why it failed ("No space left on device").
std::string flush_stdout();

}  // namespace rr::platform
