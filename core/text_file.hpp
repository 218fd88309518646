// Reading a whole input file as text: machine, mapping, node map and runs files, replay reports.
#pragma once

#include <string>
#include <string_view>

#include "result.hpp"

namespace rr::core {

// The file's bytes, or an error naming `path`: "is a directory", "cannot open WHAT: reason" or "cannot read WHAT:
// reason". A folder opens as a stream on Linux and reads as empty text or fails midway, which would pass for a
// file with no settings, or surface as a library's exception without the path.
Expected<std::string> read_text_file(const std::string& path, std::string_view what);

}  // namespace rr::core
