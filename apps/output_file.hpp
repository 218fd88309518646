// A command's outputs: reports to stdout or to a file, written through platform::OutputTarget (whole or not at
// all, never over an input, devices and FIFOs written directly), and the inputs of the command line protected.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>

namespace rr::app {

// A command's report: to stdout when `path` is empty, else to the file (whole or not at all). Returns
// false after printing "realm-replay <command>: error: ..." when the file cannot be written.
bool emit_report(const char* command, const std::string& path, std::string_view text);
// Another output of a command (--csv, --html, a written machine file) to `path`, whole or not at all. Returns false
// after printing "realm-replay <command>: error: ..." when it cannot be written.
bool write_output_file(const char* command, const std::string& path, std::string_view text);

// Marks every input the parsed command line names (its positional arguments, --machine, --mapping,
// --against-trace, --against-machine, --node-map) so that no output of this run replaces one.
void protect_command_line_inputs(const CLI::App& app);

}  // namespace rr::app
