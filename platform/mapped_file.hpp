// A whole file mapped read-only into memory: a packed trace is read in place, its pages loaded on first touch
// and shared with the page cache instead of copied into the process.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace rr::platform {

class MappedFile {
 public:
  // How the kernel is told the mapping will be read: all of it soon (read ahead from the start), or only the
  // ranges named with will_need (a reader of one part of the file: the others' pages are never read).
  enum class Advice { read_all, read_ranges };
  // Maps the regular file at `path`; on failure returns null and sets `error` to a message naming the file.
  static std::shared_ptr<const MappedFile> open(const std::string& path, std::string& error,
                                                Advice advice = Advice::read_all);
  // Asks the kernel to read bytes [offset, offset + bytes) ahead (whole pages around them).
  void will_need(std::size_t offset, std::size_t bytes) const;
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const std::byte> bytes() const { return {data_, size_}; }

 private:
  MappedFile(const std::byte* data, std::size_t size) : data_(data), size_(size) {}
  const std::byte* data_;
  std::size_t size_;
};

}  // namespace rr::platform
