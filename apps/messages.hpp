// What the commands say on standard error, in one format: "realm-replay <command>: error: <what>" for a failure,
// "realm-replay <command>: <text>" for anything else; an empty command gives "realm-replay: ...". Each message is
// written with one call, so messages of threads running side by side never interleave within a line.
#pragma once

#include <string_view>

namespace rr::app {

void print_error(std::string_view command, std::string_view what);
void print_message(std::string_view command, std::string_view text);

}  // namespace rr::app
