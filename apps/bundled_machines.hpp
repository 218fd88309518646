// The machines bundled with realm-replay, found by name: `-m titan` is data/machines/titan.toml. They are looked
// for beside the installed program (PREFIX/share/realm-replay/machines, as `cmake --install` puts them) and in the
// source tree the build came from (data/machines), in that order.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace rr::app {

// The folders searched, in order, whether or not they exist.
std::vector<std::string> bundled_machine_dirs();
// The names (file names without .toml) of the bundled machines, sorted, each once.
std::vector<std::string> bundled_machine_names();

// -m/--machine: 'traced' and any existing file are kept; a bare name (no '/') that is no file becomes the bundled
// machine of that name (`titan` or `titan.toml`). A bare name with no bundled machine is refused (exit 2) with the
// nearest bundled name and the list of them. Checked while the command line is parsed, before any trace is read.
CLI::Validator machine_name();

}  // namespace rr::app
