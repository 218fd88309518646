// Writing output files whole or not at all: write a temporary sibling, then rename over the target.
#pragma once

#include <string>
#include <string_view>

namespace rr::app {

// Returns an empty string on success, else a message naming the file.
std::string write_file_atomically(const std::string& path, std::string_view contents);

// A command's report: to stdout when `path` is empty, else to the file (whole or not at all). Returns
// false after printing "realm-replay <command>: error: ..." when the file cannot be written.
bool emit_report(const char* command, const std::string& path, std::string_view text);

}  // namespace rr::app
