// Names files: the names of a trace's task functions, for logs that give only numeric ids (2015 Realm logs
// print `f5`) or to rename what a Legion Prof log calls them. A TOML table of function id = "name":
//
//     3 = "main"
//     5 = "calc_new_currents"
//
// Keys are function ids in decimal (0 to 4294967295); values are non-empty strings. A name for an id that
// the trace has no task of is allowed: a names file describes an application, and one run need not run
// every function of it (the reading summary says how many of the names the trace uses).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "graph/function_labels.hpp"

namespace rr::session {

// The file a trace's folder holds for its names, read unless another is given.
inline constexpr std::string_view kDefaultNamesFile = "names.toml";

// The names of the file at `path`, sorted by id; an error names the file and the line.
core::Expected<graph::FunctionNames> read_names_file(const std::string& path);
// The same from text already in memory (`path` names it in messages).
core::Expected<graph::FunctionNames> parse_names(std::string_view text, const std::string& path);

// names.toml in the folder a trace is read from: inside the first input when it is a folder, else beside it
// (the folder of a log file, a glob, an archive or a packed trace); nothing when there is no such file.
std::optional<std::string> default_names_file(const std::vector<std::string>& inputs);

// The names file a trace is read with: `names_file` when given, else names.toml beside the trace; nothing when
// neither is there. An error names the file and the line.
struct GivenNames {
  std::string file;
  graph::FunctionNames names;
};
core::Expected<std::optional<GivenNames>> read_given_names(const std::vector<std::string>& inputs,
                                                           const std::string& names_file);

}  // namespace rr::session
