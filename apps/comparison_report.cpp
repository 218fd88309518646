// Comparison tables and the HTML report. Charts are inline SVG drawn here, so the page needs no script
// and no network: it renders the same offline, in a browser or a headless one.
#include "comparison_report.hpp"

#include "replay_report.hpp"
#include "text_format.hpp"
#include "html_text.hpp"
#include "csv_text.hpp"
#include "svg_charts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

namespace rr::app {
namespace {

const char* kClassColors[replay::kPathClassCount] = {"#4e79a7", "#f28e2b", "#76b7b2", "#e15759",
                                                    "#edc948", "#b07aa1", "#9c755f"};
const char* kSeriesColors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#9c755f", "#76b7b2", "#edc948"};
const char* kKindHeaders[3] = {"GPU busy", "CPU busy", "util-proc busy"};
// The critical-path classes the CSV had from the start; later classes are appended at the end of a row.
constexpr std::size_t kFirstCsvClasses = 6;

std::string label(const replay::RunSummary& r) { return r.trace_label + " @ " + r.machine_label; }

std::string class_name(std::size_t c) { return replay::path_class_name(static_cast<replay::PathClass>(c)); }

// Utilisation of the processors of kind k that the mapping uses; "-" when it uses none.
std::string busy(const replay::RunSummary& r, std::size_t k) {
  return r.used_processors[k] ? pct(r.utilisation_used[k]) : "-";
}

std::string speedup_text(const ComparisonRow& row) { return row.speedup ? fixed(*row.speedup, 2) : "-"; }
std::string weak_text(const ComparisonRow& row) { return row.weak_efficiency ? fixed(*row.weak_efficiency, 2) : "-"; }
std::string mib(std::uint64_t bytes) { return fixed(static_cast<double>(bytes) / (1024.0 * 1024.0), 2); }

// A run placed by eft in which no function can run on more than one kind: eft then places as pool does.
bool eft_without_choice(const replay::RunSummary& r) { return r.placement == "eft" && r.moves == "-"; }
const char* kEftNote = "placement eft: no function can run on more than one kind (no --map moves one), so eft places "
                       "each task as pool does and gives the same times.";

// "placement: pool; moves: 18=gpu:0.0191" when every run shares them, else nothing (the table then has columns).
std::string shared_placement(const std::vector<ComparisonRow>& rows) {
  if (rows.empty()) return {};
  for (const auto& row : rows)
    if (row.run.placement != rows.front().run.placement || row.run.moves != rows.front().run.moves) return {};
  return "placement: " + rows.front().run.placement + "; moves (--map): " +
         (rows.front().run.moves == "-" ? std::string("none") : rows.front().run.moves);
}

// Distinct values in first-seen order.
std::vector<std::string> distinct(const std::vector<ComparisonRow>& rows, bool machines) {
  std::vector<std::string> out;
  for (const auto& row : rows) {
    const std::string& v = machines ? row.run.machine_label : row.run.trace_label;
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

// What each column means and why a weak efficiency is missing, shared by the text and HTML reports.
std::vector<std::string> legend(const std::vector<ComparisonRow>& rows) {
  std::vector<std::string> out;
  if (rows.empty()) return out;
  out.push_back("time: the replay's estimated run time, ms. speed-up: this trace's time on " +
                rows.front().speedup_reference + " (the first machine in the comparison) / its time on this machine.");
  out.push_back("weak eff.: the time of the family's fewest-node run / this run's time, on the same machine; a family "
                "is the traces whose names differ only in the node count (dme_all_2n and dme_all_4n are family "
                "dme_all_Nn), so it needs one family at two or more node counts on one machine.");
  std::vector<std::string> why;
  for (const auto& row : rows)
    if (!row.weak_efficiency && std::find(why.begin(), why.end(), row.weak_efficiency_note) == why.end())
      why.push_back(row.weak_efficiency_note);
  if (!why.empty()) out.push_back("weak eff. '-': " + join(why, "; ") + ".");
  out.push_back("GPU/CPU/util-proc busy: busy time / (run time x the model processors of that kind the mapping uses), "
                "'-' when it uses none; JSON and CSV also give it over every model processor of the kind.");
  out.push_back("copies: bytes copied, MiB. critical path: the share of the run time in each class, %.");
  if (std::any_of(rows.begin(), rows.end(), [](const ComparisonRow& r) { return eft_without_choice(r.run); }))
    out.push_back(kEftNote);
  return out;
}


}  // namespace

std::string render_comparison_text(const std::vector<ComparisonRow>& rows) {
  // The first column is as wide as the longest label (sweep labels list every varied value), so rows line up.
  std::size_t width = 3;
  for (const auto& row : rows) width = std::max(width, label(row.run).size());
  const int w = static_cast<int>(width);
  char line[1024];
  std::snprintf(line, sizeof line, "%-*s %5s %12s %9s %10s %9s %9s %15s %13s  %s\n", w, "run", "nodes", "time (ms)",
                "speed-up", "weak eff.", kKindHeaders[0], kKindHeaders[1], kKindHeaders[2], "copies (MiB)",
                "critical path (%): compute/copy/runtime/latency/contention/issue/wait");
  // The placement and moves that made the numbers: one line when every run shares them, else a column each.
  const std::string shared = shared_placement(rows);
  std::string out = shared.empty() ? std::string() : shared + "\n";
  out += shared.empty() ? std::string(line, std::strlen(line) - 1) + "  placement  moves\n" : std::string(line);
  for (const auto& row : rows) {
    const auto& r = row.run;
    std::vector<std::string> shares;
    for (std::size_t c = 0; c < replay::kPathClassCount; ++c) shares.push_back(share(r.critical[c], r.estimated_ns));
    std::snprintf(line, sizeof line, "%-*s %5u %12s %9s %10s %9s %9s %15s %13s  %s%s\n", w, label(r).c_str(), r.nodes,
                  ms(r.estimated_ns).c_str(), speedup_text(row).c_str(), weak_text(row).c_str(), busy(r, 0).c_str(),
                  busy(r, 1).c_str(), busy(r, 2).c_str(), mib(r.copy_bytes).c_str(), join(shares, "/").c_str(),
                  r.stuck ? ("  STUCK " + std::to_string(r.stuck)).c_str() : "");
    out += line;
    if (shared.empty()) out.insert(out.size() - 1, "  " + r.placement + "  " + r.moves);
  }
  if (!rows.empty()) out += "\n";
  for (const auto& l : legend(rows)) out += wrap(l, 110, "  ");
  return out;
}

std::string render_comparison_csv(const std::vector<ComparisonRow>& rows) {
  // Columns are only ever added at the end, so spreadsheets and scripts that read the old ones keep working.
  std::string out = "trace,machine,family,nodes,estimated_ns,speedup,weak_efficiency,util_gpu,util_cpu,util_utility,"
                    "copies,copy_bytes,crit_compute_ns,crit_copy_ns,crit_runtime_ns,crit_latency_ns,crit_contention_ns,"
                    "crit_issue_ns,lower_bound_ns,operations,stuck,speedup_reference,weak_efficiency_note,"
                    "used_gpus,used_cpus,used_utility,util_used_gpu,util_used_cpu,util_used_utility";
  for (std::size_t c = kFirstCsvClasses; c < replay::kPathClassCount; ++c) out += ",crit_" + class_name(c) + "_ns";
  out += ",placement,moves\n";
  for (const auto& row : rows) {
    const auto& r = row.run;
    out += csv_field(r.trace_label) + "," + csv_field(r.machine_label) + "," + csv_field(r.family) + "," +
           std::to_string(r.nodes) + "," + std::to_string(r.estimated_ns) + "," +
           (row.speedup ? fixed(*row.speedup, 4) : "") + "," +
           (row.weak_efficiency ? fixed(*row.weak_efficiency, 4) : "") + "," + fixed(r.utilisation[0], 4) + "," +
           fixed(r.utilisation[1], 4) + "," + fixed(r.utilisation[2], 4) + "," + std::to_string(r.copies) + "," +
           std::to_string(r.copy_bytes);
    for (std::size_t c = 0; c < kFirstCsvClasses; ++c) out += "," + std::to_string(r.critical[c]);
    out += "," + (r.lower_bound_ns < 0 ? std::string() : std::to_string(r.lower_bound_ns)) + "," + std::to_string(r.operations) + "," + std::to_string(r.stuck);
    out += "," + csv_field(row.speedup_reference) + "," + csv_field(row.weak_efficiency_note);
    for (auto n : r.used_processors) out += "," + std::to_string(n);
    for (auto u : r.utilisation_used) out += "," + fixed(u, 4);
    for (std::size_t c = kFirstCsvClasses; c < replay::kPathClassCount; ++c) out += "," + std::to_string(r.critical[c]);
    out += "," + csv_field(r.placement) + "," + csv_field(r.moves == "-" ? std::string() : r.moves) + "\n";
  }
  return out;
}

nlohmann::ordered_json render_comparison_json(const std::vector<ComparisonRow>& rows, const RunContext& ctx) {
  nlohmann::ordered_json j;
  j["schema"] = "realm-replay/comparison";
  j["schema_version"] = 2;  // 2: the critical path's queueing became contention
  j["context"] = context_json(ctx);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  auto by_kind = [](const auto& values) {
    return nlohmann::ordered_json{{"GPU", values[0]}, {"CPU", values[1]}, {"utility", values[2]}};
  };
  for (const auto& row : rows) {
    const auto& r = row.run;
    nlohmann::ordered_json e;
    e["trace"] = r.trace_label;
    e["machine"] = r.machine_label;
    e["family"] = r.family;
    e["nodes"] = r.nodes;
    e["placement"] = r.placement;
    e["moves"] = moves_json(r.moves);
    e["estimated_ns"] = r.estimated_ns;
    e["speedup"] = optional_json(row.speedup);
    e["weak_efficiency"] = optional_json(row.weak_efficiency);
    e["utilisation"] = by_kind(r.utilisation);
    e["copies"] = r.copies;
    e["copy_bytes"] = r.copy_bytes;
    e["critical_path_ns"] = path_classes_json(r.critical);
    e["critical_compute_ns"] = critical_compute_json(r.critical_compute);
    e["lower_bound_ns"] = lower_bound_json(r.lower_bound_ns);
    e["operations"] = r.operations;
    e["stuck"] = r.stuck;
    e["speedup_reference"] = row.speedup_reference;
    e["weak_efficiency_note"] = row.weak_efficiency ? nlohmann::ordered_json() : nlohmann::ordered_json(row.weak_efficiency_note);
    e["processors"] = by_kind(r.processors);
    e["used_processors"] = by_kind(r.used_processors);
    e["utilisation_used"] = by_kind(r.utilisation_used);
    nlohmann::ordered_json bounds = nlohmann::ordered_json::array();
    for (const auto& b : r.bounded_by)
      bounds.push_back({{"name", b.name}, {"path_ns", b.path_ns}, {"change", b.change}});
    e["bounded_by"] = bounds;
    list.push_back(e);
  }
  j["runs"] = list;
  if (std::any_of(rows.begin(), rows.end(), [](const ComparisonRow& r) { return eft_without_choice(r.run); }))
    j["notes"] = nlohmann::ordered_json::array({kEftNote});
  return j;
}

namespace {

// Room for the longest row label left of the bars (about 7 px a character at 12 px).
int label_room(const std::vector<ComparisonRow>& rows) {
  std::size_t longest = 0;
  for (const auto& r : rows) longest = std::max(longest, label(r.run).size());
  return static_cast<int>(std::clamp<std::size_t>(longest * 7 + 16, 120, 640));
}

std::string svg_open(const char* id, int width, int height, const char* what) {
  return "<svg class=\"chart\" id=\"" + std::string(id) + "\" width=\"" + std::to_string(width) + "\" height=\"" +
         std::to_string(height) + "\" role=\"img\" aria-label=\"" + what + "\">";
}

std::string row_label(int left, int y, const std::string& text) {
  return "<text x=\"" + std::to_string(left - 8) + "\" y=\"" + std::to_string(y + 16) + "\" text-anchor=\"end\">" +
         html_escape(text) + "</text>";
}

// Horizontal bars: one per row, value in ms.
std::string svg_time_bars(const std::vector<ComparisonRow>& rows) {
  const int bar = 22, gap = 8, left = label_room(rows), span = 520, width = left + span + 100;
  const int height = static_cast<int>(rows.size()) * (bar + gap) + 20;
  double max_ms = 0;
  for (const auto& r : rows) max_ms = std::max(max_ms, static_cast<double>(r.run.estimated_ns) / 1e6);
  if (max_ms <= 0) max_ms = 1;
  std::string s = svg_open("time-chart", width, height, "estimated time per configuration");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double v = static_cast<double>(rows[i].run.estimated_ns) / 1e6;
    const int y = 10 + static_cast<int>(i) * (bar + gap);
    const int w = static_cast<int>(span * v / max_ms);
    s += row_label(left, y, label(rows[i].run));
    s += "<rect x=\"" + std::to_string(left) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(std::max(w, 1)) +
         "\" height=\"" + std::to_string(bar) + "\" fill=\"#4e79a7\"><title>" + fixed(v, 3) + " ms</title></rect>";
    s += "<text x=\"" + std::to_string(left + w + 6) + "\" y=\"" + std::to_string(y + 16) + "\">" + fixed(v, 1) + " ms</text>";
  }
  return s + "</svg>";
}

// Stacked 100% bars of the critical-path classes, each share written on its segment when there is room,
// with a legend; the table after it gives every share as a number.
// The segments of a critical-path bar: compute by the kind it ran on, then the other classes.
struct PathSegment {
  std::string name;
  const char* colour;
};
const PathSegment kComputeSegments[replay::kApplicationKindCount + 1] = {
    {"compute GPU", "#4e79a7"}, {"compute CPU", "#2c5d8a"}, {"compute utility", "#8fb3d9"}, {"compute other", "#bcd0e6"}};

std::vector<std::pair<const PathSegment*, replay::TimeNs>> path_segments(const replay::RunSummary& r) {
  static std::vector<PathSegment> others = [] {
    std::vector<PathSegment> v;
    for (std::size_t c = 0; c < replay::kPathClassCount; ++c) v.push_back({class_name(c), kClassColors[c]});
    return v;
  }();
  std::vector<std::pair<const PathSegment*, replay::TimeNs>> out;
  for (std::size_t k = 0; k < r.critical_compute.size(); ++k) out.emplace_back(&kComputeSegments[k], r.critical_compute[k]);
  for (std::size_t c = 0; c < replay::kPathClassCount; ++c)
    if (c != static_cast<std::size_t>(replay::PathClass::compute)) out.emplace_back(&others[c], r.critical[c]);
  return out;
}

std::string svg_critical_bars(const std::vector<ComparisonRow>& rows) {
  const int bar = 22, gap = 8, left = label_room(rows), span = 560, width = left + span + 20;
  const int legend_rows = 2;
  const int height = static_cast<int>(rows.size()) * (bar + gap) + 22 + 18 * legend_rows;
  std::string s = svg_open("critpath-chart", width, height, "critical-path breakdown");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i].run;
    const int y = 10 + static_cast<int>(i) * (bar + gap);
    s += row_label(left, y, label(r));
    double x = left;
    replay::TimeNs total = 0;
    for (auto t : r.critical) total += t;
    for (const auto& [segment, t] : path_segments(r)) {
      if (total <= 0 || t <= 0) continue;
      const double w = span * static_cast<double>(t) / static_cast<double>(total);
      const std::string text = segment->name + " " + share(t, total) + "%";
      s += "<rect x=\"" + fixed(x, 1) + "\" y=\"" + std::to_string(y) + "\" width=\"" + fixed(w, 1) + "\" height=\"" +
           std::to_string(bar) + "\" fill=\"" + segment->colour + "\"><title>" + text + "</title></rect>";
      if (w >= 7.0 * static_cast<double>(text.size()) + 8)
        s += "<text x=\"" + fixed(x + 4, 1) + "\" y=\"" + std::to_string(y + 16) + "\" fill=\"#fff\">" + text + "</text>";
      x += w;
    }
  }
  // The legend names the segments the bars use, in the bars' order, wrapped to the chart's width.
  // Every run lists the same segments in the same order.
  std::vector<const PathSegment*> legend;
  std::vector<replay::TimeNs> used;
  for (const auto& row : rows) {
    const auto segments = path_segments(row.run);
    used.resize(segments.size(), 0);
    for (std::size_t i = 0; i < segments.size(); ++i) used[i] += segments[i].second;
  }
  if (!rows.empty()) {
    const auto segments = path_segments(rows.front().run);
    for (std::size_t i = 0; i < segments.size(); ++i)
      if (used[i] > 0) legend.push_back(segments[i].first);
  }
  int lx = left, ly = 10 + static_cast<int>(rows.size()) * (bar + gap) + 4;
  for (const PathSegment* segment : legend) {
    const int room = 24 + 7 * static_cast<int>(segment->name.size());
    if (lx + room > width && lx > left) {
      lx = left;
      ly += 18;
    }
    s += "<rect x=\"" + std::to_string(lx) + "\" y=\"" + std::to_string(ly) + "\" width=\"12\" height=\"12\" fill=\"" +
         segment->colour + "\"/><text x=\"" + std::to_string(lx + 16) + "\" y=\"" + std::to_string(ly + 11) + "\">" +
         segment->name + "</text>";
    lx += room;
  }
  return s + "</svg>";
}

// What bounds each run: the resources its path waited for and the functions it ran, largest first.
std::string bounds_table(const std::vector<ComparisonRow>& rows) {
  std::string h = "<table id=\"bounds-table\" class=\"left\"><tr><th>run</th><th colspan=\"3\">bounded by (% of the critical path; "
                  "the what-if that gives it more)</th></tr>\n";
  for (const auto& row : rows) {
    const auto& r = row.run;
    h += "<tr><td>" + html_escape(label(r)) + "</td>";
    for (std::size_t i = 0; i < 3; ++i) {
      h += "<td>";
      if (i < r.bounded_by.size()) {
        const auto& b = r.bounded_by[i];
        h += html_escape(b.name) + ": " + share(b.path_ns, r.estimated_ns) + "%";
        if (!b.change.empty()) h += " <span class=\"note\">(" + html_escape(b.change) + ")</span>";
      }
      h += "</td>";
    }
    h += "</tr>\n";
  }
  return h + "</table>\n<p class=\"note\">Replay one run with <code>realm-replay replay</code> to see each what-if's "
             "estimate.</p>\n";
}

std::string critical_table(const std::vector<ComparisonRow>& rows) {
  std::string h = "<table id=\"critpath-table\"><tr><th>run</th>";
  for (std::size_t c = 0; c < replay::kPathClassCount; ++c) h += "<th>" + class_name(c) + " (%)</th>";
  h += "<th>lower bound (ms)</th></tr>\n";
  for (const auto& row : rows) {
    const auto& r = row.run;
    h += "<tr><td>" + html_escape(label(r)) + "</td>";
    for (std::size_t c = 0; c < replay::kPathClassCount; ++c) h += "<td>" + share(r.critical[c], r.estimated_ns) + "</td>";
    h += "<td>" + (r.lower_bound_ns < 0 ? std::string("undefined (cycle)") : ms(r.lower_bound_ns)) + "</td></tr>\n";
  }
  return h + "</table>\n";
}

// (family @ machine) -> (nodes, ms) of the series with two or more node counts: weak scaling needs them.
std::map<std::string, std::vector<std::pair<std::uint32_t, double>>> scaling_series(const std::vector<ComparisonRow>& rows) {
  std::map<std::string, std::vector<std::pair<std::uint32_t, double>>> lines;
  for (const auto& r : rows)
    if (r.run.family != r.run.trace_label)
      lines[r.run.family + " @ " + r.run.machine_label].push_back(
          {r.run.nodes, static_cast<double>(r.run.estimated_ns) / 1e6});
  for (auto it = lines.begin(); it != lines.end();) {
    std::sort(it->second.begin(), it->second.end());
    const bool several = it->second.front().first != it->second.back().first;
    it = several ? std::next(it) : lines.erase(it);
  }
  return lines;
}

// Time against node count, one line per (family, machine) that has several node counts.
std::string svg_scaling(const std::map<std::string, std::vector<std::pair<std::uint32_t, double>>>& lines) {
  LineChart chart;
  chart.id = "scaling-chart";
  chart.what = "time against node count";
  chart.y_label = "time (ms)";
  chart.unit = " ms";
  for (const auto& [name, pts] : lines)
    chart.series.push_back({name, kSeriesColors[chart.series.size() % std::size(kSeriesColors)], pts});
  return svg_line_chart(chart);
}

}  // namespace

std::string render_comparison_html(const std::vector<ComparisonRow>& rows, const RunContext& ctx,
                                   const std::string& title) {
  std::string h = html_page_start(title);
  h += "<h1>" + html_escape(title) + "</h1>\n";
  h += "<p class=\"subtitle\">Traces: " + html_escape(join(distinct(rows, false), ", ")) + ". Machines: " +
       html_escape(join(distinct(rows, true), ", ")) + ".</p>\n";
  h += "<p class=\"note\">realm-replay " RR_VERSION ", command: " + html_escape(ctx.command) + "; " +
       std::to_string(rows.size()) + " run(s), every trace on every machine. Times are replay estimates, in ms.</p>\n";
  h += "<h2>Estimated time per configuration</h2>\n" + svg_time_bars(rows) + "\n";
  h += "<h2>Critical-path breakdown (% of the run time)</h2>\n" + svg_critical_bars(rows) + "\n" + critical_table(rows);
  h += "<h2>What bounds each run</h2>\n" + bounds_table(rows);
  h += "<h2>Time against node count</h2>\n";
  const auto series = scaling_series(rows);
  if (series.empty())
    h += "<p id=\"no-scaling-chart\">No node-count chart: it needs one family of traces (names that differ only in "
         "the node count, such as dme_all_2n and dme_all_4n) at two or more node counts on one machine, and these "
         "runs have none.</p>\n";
  else
    h += svg_scaling(series) + "\n";
  h += "<h2>Table</h2>\n<table id=\"runs\"><tr><th>run</th><th>nodes</th><th>time (ms)</th><th>speed-up</th>"
       "<th>weak eff.</th><th>GPU busy</th><th>CPU busy</th><th>util-proc busy</th><th>copies (MiB)</th>"
       "<th>lower bound (ms)</th></tr>\n";
  for (const auto& row : rows) {
    const auto& r = row.run;
    h += "<tr><td>" + html_escape(label(r)) + "</td><td>" + std::to_string(r.nodes) + "</td><td>" + ms(r.estimated_ns) +
         "</td><td>" + speedup_text(row) + "</td><td>" + weak_text(row) + "</td><td>" + busy(r, 0) + "</td><td>" +
         busy(r, 1) + "</td><td>" + busy(r, 2) + "</td><td>" + mib(r.copy_bytes) + "</td><td>" + (r.lower_bound_ns < 0 ? std::string("undefined (cycle)") : ms(r.lower_bound_ns)) +
         "</td></tr>\n";
  }
  h += "</table>\n<div class=\"legend\">\n";
  for (const auto& l : legend(rows)) h += "<p>" + html_escape(l) + "</p>\n";
  h += "</div>\n</body></html>\n";
  return h;
}

}  // namespace rr::app
