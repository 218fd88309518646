// A file holding a given text for one test: under the system's temporary directory, named after a prefix, the
// process and a count (so that tests run in parallel never share one); removed with the object.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace rr::testing {

struct TempTextFile {
  std::filesystem::path path;

  TempTextFile(const std::string& prefix, const std::string& text)
      : path(std::filesystem::temp_directory_path() /
             (prefix + "_" + std::to_string(::getpid()) + "_" + std::to_string(count++) + ".toml")) {
    std::ofstream(path) << text;
  }
  ~TempTextFile() {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
  TempTextFile(const TempTextFile&) = delete;
  TempTextFile& operator=(const TempTextFile&) = delete;

 private:
  static inline int count = 0;
};

}  // namespace rr::testing
