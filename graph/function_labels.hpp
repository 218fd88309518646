// How every output names a task function: the one rule behind EventGraph::function_name, so that a function
// reads the same in folded stacks, timelines, reports, SQL and Python, and can be matched across them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rr::graph {

// (function id, name), sorted by id, one entry per id.
using FunctionNames = std::vector<std::pair<std::uint32_t, std::string>>;

// "f5": a function the trace and the names file leave unnamed.
std::string unnamed_function_label(std::uint32_t func);

// A name made safe to print as one frame of a folded stack and on one line of a report: ';' (which separates
// frames), '%' (the escape character itself, so the escaping can be undone) and control characters (a newline
// would end a folded line) become %XX, two upper-case hex digits. Every other byte is kept as it is.
std::string escape_function_name(std::string_view name);

// The label of every named function (empty names are left out), sorted by id: its escaped name, or
// "name#id" where two ids would otherwise print alike: two names that escape to one label, or a name that
// reads as the label of an unnamed function ("f7" given to function 5). Frames of distinct functions stay
// distinct, and a name shared by functions of no other still reads plainly.
FunctionNames function_labels(const FunctionNames& names);

// `names` with `overrides` laid over it: an id in both takes the override's name. Both sorted by id.
FunctionNames merge_function_names(const FunctionNames& names, const FunctionNames& overrides);

}  // namespace rr::graph
