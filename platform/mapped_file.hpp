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
  // Maps the regular file at `path`; on failure returns null and sets `error` to a message naming the file.
  static std::shared_ptr<const MappedFile> open(const std::string& path, std::string& error);
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
