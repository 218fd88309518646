// --vary options to the grid of a sweep (session/sweep_grid.hpp).
#include "session/sweep_grid.hpp"

#include "session/run_grid.hpp"

namespace rr::session {

std::string parse_grid_axes(const std::vector<std::string>& varies, std::vector<GridAxis>& axes) {
  std::size_t points = 1;
  for (const auto& v : varies) {
    const auto eq = v.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
      return "--vary takes key=v1,v2,..., not '" + v + "'";
    GridAxis axis{v.substr(0, eq), {}};
    for (const GridAxis& earlier : axes)
      if (earlier.key == axis.key)
        return "--vary " + axis.key + " is given twice; list all its values in one --vary " + axis.key + "=v1,v2,...";
    const std::string values = v.substr(eq + 1);
    for (std::size_t start = 0;;) {
      const auto comma = values.find(',', start);
      axis.settings.push_back(axis.key + "=" + values.substr(start, comma == std::string::npos ? std::string::npos
                                                                                               : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    // At most the limit times the values of one option, which the command line's length bounds: no overflow.
    points *= axis.settings.size();
    if (points > kMaxGridPoints)
      return "the --vary grid has more than " + std::to_string(kMaxGridPoints) +
             " points (the limit of one sweep): split it into several sweeps";
    axes.push_back(std::move(axis));
  }
  return {};
}

std::vector<std::vector<std::string>> grid_points(const std::vector<GridAxis>& axes) {
  std::vector<std::vector<std::string>> grid{{}};
  for (const auto& axis : axes) {
    std::vector<std::vector<std::string>> next;
    for (const auto& combo : grid)
      for (const auto& setting : axis.settings) {
        next.push_back(combo);
        next.back().push_back(setting);
      }
    grid = std::move(next);
  }
  return grid;
}

}  // namespace rr::session
