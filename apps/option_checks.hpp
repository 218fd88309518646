// Checks of option values that CLI11's own validators let through: each refuses the value as a usage error
// (exit 2) with a message naming the limit.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "session/replay_choices.hpp"

namespace rr::app {

// -j/--threads: at most session::kMaxThreads.
CLI::Validator thread_count();
// A path to write: not empty (the option would otherwise fail after all its work, without saying why).
CLI::Validator output_path();
// One of the names `choice` takes, any other refused in its words (Python refuses them in the same words).
CLI::Validator one_of(const session::NamedChoice& choice);
// A real number in [lo, hi]. CLI::Range compares, and every comparison with NaN is false, so it passes "nan".
CLI::Validator finite_range(double lo, double hi);

// The command line's first word that is no option (after the program's own -j N), when it names no subcommand of
// `app`: "unknown command 'repaly' (did you mean 'replay'?); the commands: ...". CLI11 itself would only say that
// the argument was not expected.
std::optional<std::string> unknown_command(const CLI::App& app, int argc, const char* const* argv);

// `--json FILE` (or `--json=FILE`), the form compare and sweep once took: --json is a flag of every command now, and
// the file is named with -o. Not checked for `diff`, whose operands are JSON files.
std::optional<std::string> json_file_form(int argc, const char* const* argv);

// Reads the command line as every realm-replay program does: a mistyped command and the old --json FILE form are
// answered first, in words of their own, then CLI11 parses. Returns the exit code to stop with (help, version, or a
// usage error, each printed), or nothing to go on.
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv);

}  // namespace rr::app
