// A study as a self-contained HTML page (apps/study_report.hpp): time against nodes (log-log) and efficiency charts,
// one colour per strategy, the winners, every cell, the strategies and the legend.
#include "study_report.hpp"

#include <algorithm>

#include "html_text.hpp"
#include "svg_charts.hpp"
#include "text_format.hpp"

namespace rr::app {

namespace {

std::string colour_of(const StudyReport& report, const std::string& series) {
  const auto& names = report.result.series;
  const auto at = static_cast<std::size_t>(std::find(names.begin(), names.end(), series) - names.begin());
  return at < report.colours.size() ? report.colours[at] : "#999";
}

std::string swatch(const std::string& colour) {
  return "<span style=\"display:inline-block;width:10px;height:10px;background:" + colour +
         ";margin-right:6px\"></span>";
}

// One line per series: its estimate (ms) or its efficiency at each node count where it has one.
LineChart chart_of(const StudyReport& report, bool efficiency) {
  LineChart chart;
  chart.id = efficiency ? "efficiency-chart" : "time-chart";
  chart.what = efficiency ? "parallel efficiency against node count" : "estimated time against node count";
  chart.y_label = efficiency ? "parallel efficiency" : "time (ms)";
  chart.unit = efficiency ? "" : " ms";
  chart.digits = efficiency ? 2 : 1;
  chart.log_y = !efficiency;
  if (efficiency) chart.marks = {1.0};
  for (std::size_t i = 0; i < report.result.series.size(); ++i) {
    ChartSeries s{report.result.series[i], report.colours[i], {}};
    for (const auto& c : report.result.cells) {
      if (c.series != s.name) continue;
      if (efficiency && c.efficiency) s.points.emplace_back(c.nodes, *c.efficiency);
      if (!efficiency && c.run.stuck == 0 && c.run.estimated_ns > 0)
        s.points.emplace_back(c.nodes, static_cast<double>(c.run.estimated_ns) / 1e6);
    }
    chart.series.push_back(std::move(s));
  }
  return chart;
}

std::string winners_table(const StudyReport& report) {
  const session::StudyResult& r = report.result;
  const bool truth = !r.truth_winners.empty();
  std::string h = "<table id=\"winners\"><tr><th>nodes</th><th>winner</th><th>time (ms)</th>" +
                  std::string(truth ? "<th>winner by the truth</th><th>truth (ms)</th>" : "") + "</tr>\n";
  for (std::size_t i = 0; i < r.winners.size(); ++i) {
    const auto& w = r.winners[i];
    h += "<tr><td>" + std::to_string(w.nodes) + "</td><td>" + swatch(colour_of(report, w.series)) +
         html_escape(w.series) + "</td><td>" + ms(w.time_ns) + "</td>";
    if (truth && i < r.truth_winners.size())
      h += "<td>" + html_escape(r.truth_winners[i].series) + "</td><td>" + ms(r.truth_winners[i].time_ns) + "</td>";
    h += "</tr>\n";
  }
  h += "</table>\n<p id=\"crossovers\">Crossovers: " + html_escape(crossovers_text(r.crossovers, r.winners)) + ".";
  if (truth) h += " By the truth: " + html_escape(crossovers_text(r.truth_crossovers, r.truth_winners)) + ".";
  return h + "</p>\n";
}

// One row per cell: its numbers, the critical path's class shares in one column (the header names the classes), and
// the largest bound with the others in its tooltip.
std::string cells_table(const StudyReport& report) {
  const bool truth = std::any_of(report.result.cells.begin(), report.result.cells.end(),
                                 [](const session::StudyCell& c) { return c.truth_ns.has_value(); });
  std::vector<std::string> classes;
  for (std::size_t c = 0; c < replay::kPathClassCount; ++c)
    classes.push_back(replay::path_class_name(static_cast<replay::PathClass>(c)));
  std::string h = "<table id=\"cells\"><tr><th>nodes</th><th>strategy</th><th>time (ms)</th>" +
                  std::string(truth ? "<th>truth (ms)</th>" : "") +
                  "<th>speed-up</th><th>efficiency</th><th>vs winner</th><th>critical path (%)<br><span class=\"note\">" +
                  join(classes, "/") + "</span></th><th>bounded by (% of the run time)</th></tr>\n";
  auto optional_text = [](const std::optional<double>& v, int digits) { return v ? fixed(*v, digits) : "-"; };
  for (const auto& c : report.result.cells) {
    const auto& r = c.run;
    h += "<tr><td>" + std::to_string(c.nodes) + "</td><td style=\"text-align:left;white-space:nowrap\">" +
         swatch(colour_of(report, c.series)) + html_escape(c.series) + (c.winner ? " <b>*</b>" : "") + "</td><td>" +
         ms(r.estimated_ns) + "</td>";
    if (truth) h += "<td>" + (c.truth_ns ? ms(*c.truth_ns) : "-") + "</td>";
    h += "<td>" + optional_text(c.speedup, 2) + "</td><td>" + optional_text(c.efficiency, 2) + "</td><td>" +
         optional_text(c.to_winner, 3) + "</td>";
    std::vector<std::string> shares, bounds;
    for (std::size_t k = 0; k < replay::kPathClassCount; ++k) shares.push_back(share(r.critical[k], r.estimated_ns));
    for (const auto& b : r.bounded_by) bounds.push_back(b.name + ": " + share(b.path_ns, r.estimated_ns) + "%");
    h += "<td>" + join(shares, "/") + "</td><td style=\"text-align:left;min-width:300px\" title=\"" + html_escape(join(bounds, "; ")) +
         "\">" + html_escape(bounds.empty() ? std::string("-") : bounds.front()) + "</td></tr>\n";
  }
  return h + "</table>\n";
}

}  // namespace

std::string render_study_html(const StudyReport& report, const RunContext& ctx, const std::string& title) {
  const session::StudyResult& r = report.result;
  std::string h = html_page_start(title);
  h += "<h1>" + html_escape(title) + "</h1>\n";
  h += "<p class=\"subtitle\">" + html_escape(std::string(session::scaling_name(r.scaling)) + " scaling: " +
                                              report.source + ", on " + report.machine) +
       ". Strategies: " + html_escape(join(r.series, ", ")) + ".</p>\n";
  h += "<p class=\"note\">realm-replay " RR_VERSION ", command: " + html_escape(ctx.command) + "; " +
       std::to_string(r.cells.size()) + " replay(s). Times are replay estimates, in ms; each strategy keeps its "
       "colour in every report.</p>\n";
  h += "<h2>Time against node count</h2>\n" + svg_line_chart(chart_of(report, false)) + "\n";
  h += "<h2>Parallel efficiency (" + std::string(session::scaling_name(r.scaling)) + " scaling)</h2>\n" +
       svg_line_chart(chart_of(report, true)) + "\n";
  h += "<h2>Winner per node count</h2>\n" + winners_table(report);
  h += "<h2>Every node count and strategy</h2>\n" + cells_table(report);
  h += "<h2>Strategies</h2>\n<table id=\"strategies\" class=\"left\"><tr><th>strategy</th><th>how the trace is placed"
       "</th></tr>\n";
  for (const auto& s : report.strategies)
    h += "<tr><td>" + html_escape(s.name) + "</td><td>" + html_escape(strategy_summary(report, s)) + "</td></tr>\n";
  h += "</table>\n<div class=\"legend\">\n";
  for (const auto& l : study_legend(report)) h += "<p>" + html_escape(l) + "</p>\n";
  for (const auto& w : r.warnings) h += "<p class=\"note\">warning: " + html_escape(w) + "</p>\n";
  return h + "</div>\n</body></html>\n";
}

}  // namespace rr::app
