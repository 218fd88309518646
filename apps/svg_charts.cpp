// Line charts against node count (apps/svg_charts.hpp), drawn as plain SVG elements.
#include "svg_charts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>

#include "html_text.hpp"
#include "text_format.hpp"

namespace rr::app {

namespace {

const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                          "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
constexpr std::size_t kPaletteSize = std::size(kPalette);

std::uint32_t fnv1a(const std::string& s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

std::string text_at(double x, double y, const std::string& text, const char* anchor) {
  return "<text x=\"" + fixed(x, 1) + "\" y=\"" + fixed(y, 1) + "\" text-anchor=\"" + anchor + "\">" +
         html_escape(text) + "</text>";
}

std::string line(double x1, double y1, double x2, double y2, const char* extra) {
  return "<line x1=\"" + fixed(x1, 1) + "\" y1=\"" + fixed(y1, 1) + "\" x2=\"" + fixed(x2, 1) + "\" y2=\"" +
         fixed(y2, 1) + "\" " + extra + "/>";
}

// The value axis: where a value goes (px from the top) and the values labelled on it.
struct ValueAxis {
  bool log = false;
  double lo = 0, hi = 1;
  std::vector<double> ticks;

  double fraction(double v) const {
    if (!log) return hi > lo ? (v - lo) / (hi - lo) : 0.5;
    return hi > lo ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : 0.5;
  }
};

ValueAxis value_axis(const LineChart& chart) {
  double lo = 0, hi = 0;
  bool any = false;
  for (const auto& s : chart.series)
    for (auto [n, v] : s.points) {
      if (chart.log_y && v <= 0) continue;
      lo = any ? std::min(lo, v) : v;
      hi = any ? std::max(hi, v) : v;
      any = true;
    }
  for (double m : chart.marks) hi = std::max(hi, m);
  ValueAxis axis;
  axis.log = chart.log_y;
  if (!chart.log_y) {
    axis.lo = 0;
    axis.hi = hi > 0 ? hi * 1.05 : 1;
    axis.ticks = {0, axis.hi};
    return axis;
  }
  if (!any) lo = hi = 1;
  // Room of a few percent around the points; both ends labelled, and between them the values 1, 2 and 5 times a power
  // of ten that are not too close to an end (a range within one decade still gets a few).
  axis.lo = lo / 1.1;
  axis.hi = hi * 1.1;
  axis.ticks.push_back(axis.lo);
  for (double p = std::pow(10.0, std::floor(std::log10(axis.lo))); p < axis.hi; p *= 10)
    for (double m : {1.0, 2.0, 5.0}) {
      const double v = m * p;
      if (v > axis.lo && v < axis.hi && axis.fraction(v) > 0.08 && axis.fraction(v) < 0.92) axis.ticks.push_back(v);
    }
  axis.ticks.push_back(axis.hi);
  return axis;
}

}  // namespace

std::string svg_line_chart(const LineChart& chart) {
  const int width = 1000, height = 320, left = 70, bottom = 40, top = 20, plot_w = 520, plot_h = height - top - bottom;
  std::set<std::uint32_t> nodes;
  for (const auto& s : chart.series)
    for (auto [n, v] : s.points) nodes.insert(n);
  const double lo = nodes.empty() ? 0 : std::log2(std::max(1u, *nodes.begin()));
  const double hi = nodes.empty() ? 0 : std::log2(std::max(1u, *nodes.rbegin()));
  auto px = [&](double n) { return left + 20 + (plot_w - 40) * (hi > lo ? (std::log2(n) - lo) / (hi - lo) : 0.5); };
  const ValueAxis axis = value_axis(chart);
  auto py = [&](double v) { return top + plot_h * (1.0 - axis.fraction(v)); };
  std::string s = "<svg class=\"chart\" id=\"" + chart.id + "\" width=\"" + std::to_string(width) + "\" height=\"" +
                  std::to_string(height) + "\" role=\"img\" aria-label=\"" + html_escape(chart.what) + "\">";
  s += line(left, top + plot_h, left + plot_w, top + plot_h, "stroke=\"#333\"");
  s += line(left, top, left, top + plot_h, "stroke=\"#333\"");
  s += text_at(left + plot_w / 2.0, height - 5, "nodes (log scale)", "middle");
  s += "<text x=\"14\" y=\"" + std::to_string(top + plot_h / 2) + "\" transform=\"rotate(-90 14 " +
       std::to_string(top + plot_h / 2) + ")\" text-anchor=\"middle\">" +
       html_escape(chart.y_label + (chart.log_y ? " (log scale)" : "")) + "</text>";
  for (double v : axis.ticks) {
    s += text_at(left - 6, py(v) + 4, fixed(v, chart.digits), "end");
    if (v > axis.lo) s += line(left + 1, py(v), left + plot_w, py(v), "stroke=\"#eee\"");
  }
  for (double m : chart.marks)
    s += line(left, py(m), left + plot_w, py(m), "stroke=\"#999\" stroke-dasharray=\"4 4\"");
  for (auto n : nodes) s += text_at(px(n), top + plot_h + 16, std::to_string(n), "middle");
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    const ChartSeries& series = chart.series[i];
    // One colour per series, used by its line, its points and its legend swatch alike.
    std::string points;
    for (auto [n, v] : series.points) points += fixed(px(n), 1) + "," + fixed(py(v), 1) + " ";
    s += "<polyline points=\"" + points + "\" fill=\"none\" stroke=\"" + series.colour + "\" stroke-width=\"2\"/>";
    for (auto [n, v] : series.points)
      s += "<circle cx=\"" + fixed(px(n), 1) + "\" cy=\"" + fixed(py(v), 1) + "\" r=\"4\" fill=\"" + series.colour +
           "\"><title>" + html_escape(series.name) + ": " + std::to_string(n) + " nodes, " + fixed(v, chart.digits) +
           chart.unit + "</title></circle>";
    const int ly = top + 18 * static_cast<int>(i);
    s += "<rect x=\"" + std::to_string(left + plot_w + 20) + "\" y=\"" + std::to_string(ly) +
         "\" width=\"12\" height=\"12\" fill=\"" + series.colour + "\"/><text x=\"" + std::to_string(left + plot_w + 36) +
         "\" y=\"" + std::to_string(ly + 11) + "\">" + html_escape(series.name) + "</text>";
  }
  return s + "</svg>";
}

std::vector<std::string> series_colours(const std::vector<std::string>& names) {
  std::vector<std::size_t> order(names.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return names[a] < names[b]; });
  std::vector<std::string> out(names.size());
  std::vector<bool> taken(kPaletteSize, false);
  for (std::size_t i : order) {
    std::size_t slot = fnv1a(names[i]) % kPaletteSize;
    for (std::size_t tries = 0; taken[slot] && tries < kPaletteSize; ++tries) slot = (slot + 1) % kPaletteSize;
    if (std::all_of(taken.begin(), taken.end(), [](bool t) { return t; })) slot = fnv1a(names[i]) % kPaletteSize;
    taken[slot] = true;
    out[i] = kPalette[slot];
  }
  return out;
}

}  // namespace rr::app
