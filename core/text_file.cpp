// Whole input files as text, with errors that name the path.
#include "core/text_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rr::core {

Expected<std::string> read_text_file(const std::string& path, std::string_view what) {
  const auto fail = [&](std::string message) {
    return InputError{SourceLocation{path, 0, std::nullopt}, std::move(message)};
  };
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return fail("is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot open " + std::string(what) + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return fail("cannot read " + std::string(what) + ": " + std::strerror(errno));
  return text.str();
}

}  // namespace rr::core
