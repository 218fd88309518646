// Atomic file output (temporary name + rename) so a failed run never leaves half a report.
#include "output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace rr::app {

std::string write_file_atomically(const std::string& path, std::string_view contents) {
  const std::string temp = path + ".tmp." + std::to_string(::getpid());
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (f == nullptr) return path + ": cannot write: " + std::strerror(errno);
  bool ok = std::fwrite(contents.data(), 1, contents.size(), f) == contents.size();
  ok = (std::fflush(f) == 0) && ok;
  int saved = errno;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) {
    std::remove(temp.c_str());
    return path + ": cannot write: " + std::strerror(saved ? saved : errno);
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    saved = errno;
    std::remove(temp.c_str());
    return path + ": cannot rename into place: " + std::strerror(saved);
  }
  return {};
}

bool emit_report(const char* command, const std::string& path, std::string_view text) {
  if (path.empty()) {
    std::cout << text;
    return true;
  }
  if (auto err = write_file_atomically(path, text); !err.empty()) {
    std::cerr << "realm-replay " << command << ": error: " << err << "\n";
    return false;
  }
  return true;
}

}  // namespace rr::app
