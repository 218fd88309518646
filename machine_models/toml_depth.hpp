// A guard run on TOML text before toml++ parses it: toml++ recurses once per part of a dotted key and would
// overflow the stack on a key thousands of parts deep. Machine files, --set and names files use it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace rr::machine {

// The line of the first key with more than kMaxKeyComponents dotted parts, if any. A lexer just good enough
// to skip strings and comments: between two of = [ ] { } , and a line end, legitimate TOML has one dot at
// most outside strings (a float), so counting dots there bounds every key, header and inline-table key.
std::optional<std::uint64_t> line_of_too_deep_key(std::string_view text);

}  // namespace rr::machine
