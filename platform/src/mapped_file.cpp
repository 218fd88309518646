// MappedFile: open, fstat, mmap; the descriptor is closed once the mapping exists (the mapping keeps the file).
#include "platform/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace rr::platform {

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path, std::string& error, Advice advice) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = path + ": cannot open: " + std::strerror(errno);
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = path + ": not a regular file that can be mapped";
    ::close(fd);
    return nullptr;
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  void* data = nullptr;
  if (size > 0) {
    data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (data == MAP_FAILED) {
      error = path + ": cannot map: " + std::strerror(errno);
      ::close(fd);
      return nullptr;
    }
    if (advice == Advice::read_all) ::madvise(data, size, MADV_WILLNEED);  // the checksums read every page once
    // A reader of ranges says which it needs; read-around would otherwise bring in pages next to each fault.
    if (advice == Advice::read_ranges) ::madvise(data, size, MADV_RANDOM);
  }
  ::close(fd);
  return std::shared_ptr<const MappedFile>(new MappedFile(static_cast<const std::byte*>(data), size));
}

void MappedFile::will_need(std::size_t offset, std::size_t bytes) const {
  if (bytes == 0 || offset >= size_) return;
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t first = offset / page * page, end = std::min(size_, offset + bytes);
  ::madvise(const_cast<std::byte*>(data_) + first, end - first, MADV_WILLNEED);
}

MappedFile::~MappedFile() {
  if (size_ > 0) ::munmap(const_cast<std::byte*>(data_), size_);
}

}  // namespace rr::platform
