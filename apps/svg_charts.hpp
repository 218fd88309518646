// Line charts of time or efficiency against node count, as inline SVG (the compare/sweep and study pages): no
// script and no network, so a page renders the same offline. And the colours of named series, the same name the
// same colour in every report.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rr::app {

struct ChartSeries {
  std::string name;
  std::string colour;                               // "#4e79a7"
  std::vector<std::pair<std::uint32_t, double>> points;  // (nodes, value), ascending nodes
};

struct LineChart {
  std::string id;          // the svg element's id
  std::string what;        // its aria-label
  std::string y_label;     // "time (ms)"
  std::string unit;        // after a point's value in its tooltip: " ms"
  int digits = 1;          // of values in tooltips and the axis
  bool log_y = false;      // log scale (time against nodes, log-log); else linear from 0
  std::vector<double> marks;  // dashed horizontal lines at these values (an efficiency of 1)
  std::vector<ChartSeries> series;
};

// One line per series over a log2 node axis, its points circled with a tooltip, the legend right of the plot in the
// series' own colours and order.
std::string svg_line_chart(const LineChart& chart);

// One colour per name, from a fixed palette of 10 by a hash of the name (FNV-1a), so that a strategy keeps its
// colour from one report to the next; when two names of one report hash to one colour, the later name in sorted
// order takes the next free colour. Colours repeat beyond 10 names.
std::vector<std::string> series_colours(const std::vector<std::string>& names);

}  // namespace rr::app
