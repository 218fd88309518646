// The grid of a sweep from its --vary options ("key=v1,v2,..."): one axis per option, in the order given, every
// combination of one setting per axis. Text to settings lives here, not in the CLI, so that every front end reads
// a grid alike.
#pragma once

#include <string>
#include <vector>

namespace rr::session {

// One --vary: a key and its settings ("key=value"), in the order given.
struct GridAxis {
  std::string key;
  std::vector<std::string> settings;
};

// The axes of the --vary options, or why they make no grid (the returned message): a malformed --vary, a key
// given twice (whose rows would be labelled with the first values but run with the last), or more points than
// kMaxGridPoints (session/run_grid.hpp), counted before any setting is combined.
std::string parse_grid_axes(const std::vector<std::string>& varies, std::vector<GridAxis>& axes);

// Every combination of one setting per axis, the first axis varying slowest.
std::vector<std::vector<std::string>> grid_points(const std::vector<GridAxis>& axes);

}  // namespace rr::session
