// Comparison tables and the HTML report. Charts are inline SVG drawn here, so the page needs no script
// and no network: it renders the same offline, in a browser or a headless one.
#include "comparison_report.hpp"

#include "replay_report.hpp"
#include "text_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace rr::app {
namespace {

const char* kClassColors[replay::kPathClassCount] = {"#4e79a7", "#f28e2b", "#76b7b2", "#e15759",
                                                    "#edc948", "#b07aa1", "#9c755f"};

std::string label(const replay::RunSummary& r) { return r.trace_label + " @ " + r.machine_label; }

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::vector<ComparisonRow> make_rows(std::vector<replay::RunSummary> runs) {
  std::vector<ComparisonRow> rows;
  for (auto& r : runs) rows.push_back({std::move(r), 1.0, std::nullopt});
  if (rows.empty()) return rows;
  const double first = static_cast<double>(rows.front().run.estimated_ns);
  // Weak scaling: within a family on one machine, against the run with the fewest nodes.
  std::map<std::pair<std::string, std::string>, const ComparisonRow*> reference;
  std::map<std::pair<std::string, std::string>, std::set<std::uint32_t>> node_counts;
  for (const auto& row : rows) {
    auto key = std::make_pair(row.run.family, row.run.machine_label);
    node_counts[key].insert(row.run.nodes);
    auto& ref = reference[key];
    if (!ref || row.run.nodes < ref->run.nodes) ref = &row;
  }
  for (auto& row : rows) {
    row.speedup = row.run.estimated_ns > 0 ? first / static_cast<double>(row.run.estimated_ns) : 0.0;
    auto key = std::make_pair(row.run.family, row.run.machine_label);
    if (node_counts[key].size() > 1 && row.run.estimated_ns > 0)
      row.weak_efficiency = static_cast<double>(reference[key]->run.estimated_ns) / static_cast<double>(row.run.estimated_ns);
  }
  return rows;
}

std::string render_comparison_text(const std::vector<ComparisonRow>& rows) {
  std::string out = "run                                              nodes    time (ms)  speedup  weak eff   GPU    CPU   util"
                    "   copies (MiB)  critical path: compute/copy/runtime/latency/queue/issue/wait %\n";
  for (const auto& row : rows) {
    const auto& r = row.run;
    char line[512];
    std::string cls;
    for (std::size_t c = 0; c < replay::kPathClassCount; ++c)
      cls += (c ? "/" : "") + share(r.critical[c], r.estimated_ns);
    std::snprintf(line, sizeof line, "%-48s %5u %12s %8s %9s %5s%% %5s%% %5s%% %14s  %s%s\n", label(r).c_str(), r.nodes,
                  ms(r.estimated_ns).c_str(), fixed(row.speedup, 2).c_str(),
                  row.weak_efficiency ? fixed(*row.weak_efficiency, 2).c_str() : "-",
                  fixed(100 * r.utilisation[0], 1).c_str(), fixed(100 * r.utilisation[1], 1).c_str(),
                  fixed(100 * r.utilisation[2], 1).c_str(),
                  fixed(static_cast<double>(r.copy_bytes) / (1024.0 * 1024.0), 2).c_str(), cls.c_str(),
                  r.stuck ? ("  STUCK " + std::to_string(r.stuck)).c_str() : "");
    out += line;
  }
  return out;
}

std::string render_comparison_csv(const std::vector<ComparisonRow>& rows) {
  std::string out = "trace,machine,family,nodes,estimated_ns,speedup,weak_efficiency,util_gpu,util_cpu,util_utility,"
                    "copies,copy_bytes";
  for (std::size_t c = 0; c < replay::kPathClassCount; ++c)
    out += std::string(",crit_") + replay::path_class_name(static_cast<replay::PathClass>(c)) + "_ns";
  out += ",lower_bound_ns,operations,stuck\n";
  for (const auto& row : rows) {
    const auto& r = row.run;
    out += csv_field(r.trace_label) + "," + csv_field(r.machine_label) + "," + csv_field(r.family) + "," +
           std::to_string(r.nodes) + "," + std::to_string(r.estimated_ns) + "," + fixed(row.speedup, 4) + "," +
           (row.weak_efficiency ? fixed(*row.weak_efficiency, 4) : "") + "," + fixed(r.utilisation[0], 4) + "," +
           fixed(r.utilisation[1], 4) + "," + fixed(r.utilisation[2], 4) + "," + std::to_string(r.copies) + "," +
           std::to_string(r.copy_bytes);
    for (auto t : r.critical) out += "," + std::to_string(t);
    out += "," + std::to_string(r.lower_bound_ns) + "," + std::to_string(r.operations) + "," + std::to_string(r.stuck) + "\n";
  }
  return out;
}

nlohmann::ordered_json render_comparison_json(const std::vector<ComparisonRow>& rows, const RunContext& ctx) {
  nlohmann::ordered_json j;
  j["schema"] = "realm-replay/comparison";
  j["schema_version"] = 1;
  j["context"] = context_json(ctx);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& row : rows) {
    const auto& r = row.run;
    nlohmann::ordered_json e;
    e["trace"] = r.trace_label;
    e["machine"] = r.machine_label;
    e["family"] = r.family;
    e["nodes"] = r.nodes;
    e["estimated_ns"] = r.estimated_ns;
    e["speedup"] = row.speedup;
    e["weak_efficiency"] = row.weak_efficiency ? nlohmann::ordered_json(*row.weak_efficiency) : nlohmann::ordered_json();
    e["utilisation"] = {{"GPU", r.utilisation[0]}, {"CPU", r.utilisation[1]}, {"utility", r.utilisation[2]}};
    e["copies"] = r.copies;
    e["copy_bytes"] = r.copy_bytes;
    e["critical_path_ns"] = path_classes_json(r.critical);
    e["lower_bound_ns"] = r.lower_bound_ns;
    e["operations"] = r.operations;
    e["stuck"] = r.stuck;
    list.push_back(e);
  }
  j["runs"] = list;
  return j;
}

namespace {

// Horizontal bars: one per row, value in ms.
std::string svg_time_bars(const std::vector<ComparisonRow>& rows) {
  const int bar = 22, gap = 8, left = 330, width = 860;
  const int height = static_cast<int>(rows.size()) * (bar + gap) + 40;
  double max_ms = 0;
  for (const auto& r : rows) max_ms = std::max(max_ms, static_cast<double>(r.run.estimated_ns) / 1e6);
  if (max_ms <= 0) max_ms = 1;
  std::string s = "<svg class=\"chart\" id=\"time-chart\" width=\"" + std::to_string(width) + "\" height=\"" +
                  std::to_string(height) + "\" role=\"img\" aria-label=\"estimated time per configuration\">";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double v = static_cast<double>(rows[i].run.estimated_ns) / 1e6;
    const int y = 10 + static_cast<int>(i) * (bar + gap);
    const int w = static_cast<int>((width - left - 90) * v / max_ms);
    s += "<text x=\"" + std::to_string(left - 8) + "\" y=\"" + std::to_string(y + 16) + "\" text-anchor=\"end\">" +
         escape(label(rows[i].run)) + "</text>";
    s += "<rect x=\"" + std::to_string(left) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(std::max(w, 1)) +
         "\" height=\"" + std::to_string(bar) + "\" fill=\"#4e79a7\"><title>" + fixed(v, 3) + " ms</title></rect>";
    s += "<text x=\"" + std::to_string(left + w + 6) + "\" y=\"" + std::to_string(y + 16) + "\">" + fixed(v, 1) + " ms</text>";
  }
  return s + "</svg>";
}

// Stacked 100% bars of the critical-path classes, with a legend.
std::string svg_critical_bars(const std::vector<ComparisonRow>& rows) {
  const int bar = 22, gap = 8, left = 330, width = 860, span = width - left - 20;
  const int height = static_cast<int>(rows.size()) * (bar + gap) + 60;
  std::string s = "<svg class=\"chart\" id=\"critpath-chart\" width=\"" + std::to_string(width) + "\" height=\"" +
                  std::to_string(height) + "\" role=\"img\" aria-label=\"critical-path breakdown\">";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i].run;
    const int y = 10 + static_cast<int>(i) * (bar + gap);
    s += "<text x=\"" + std::to_string(left - 8) + "\" y=\"" + std::to_string(y + 16) + "\" text-anchor=\"end\">" +
         escape(label(r)) + "</text>";
    double x = left;
    replay::TimeNs total = 0;
    for (auto t : r.critical) total += t;
    for (std::size_t c = 0; c < replay::kPathClassCount; ++c) {
      if (total <= 0 || r.critical[c] <= 0) continue;
      const double w = span * static_cast<double>(r.critical[c]) / static_cast<double>(total);
      s += "<rect x=\"" + fixed(x, 1) + "\" y=\"" + std::to_string(y) + "\" width=\"" + fixed(w, 1) + "\" height=\"" +
           std::to_string(bar) + "\" fill=\"" + kClassColors[c] + "\"><title>" +
           replay::path_class_name(static_cast<replay::PathClass>(c)) + " " + share(r.critical[c], total) + "%</title></rect>";
      x += w;
    }
  }
  int lx = left;
  const int ly = 10 + static_cast<int>(rows.size()) * (bar + gap) + 12;
  for (std::size_t c = 0; c < replay::kPathClassCount; ++c) {
    s += "<rect x=\"" + std::to_string(lx) + "\" y=\"" + std::to_string(ly) + "\" width=\"12\" height=\"12\" fill=\"" +
         kClassColors[c] + "\"/><text x=\"" + std::to_string(lx + 16) + "\" y=\"" + std::to_string(ly + 11) + "\">" +
         replay::path_class_name(static_cast<replay::PathClass>(c)) + "</text>";
    lx += 90;
  }
  return s + "</svg>";
}

// Time against node count, one line per (family, machine): weak scaling at a glance.
std::string svg_scaling(const std::vector<ComparisonRow>& rows) {
  std::map<std::string, std::vector<std::pair<std::uint32_t, double>>> lines;
  for (const auto& r : rows)
    lines[r.run.family + " @ " + r.run.machine_label].push_back({r.run.nodes, static_cast<double>(r.run.estimated_ns) / 1e6});
  double max_ms = 0;
  std::uint32_t max_nodes = 1;
  for (auto& [name, pts] : lines) {
    std::sort(pts.begin(), pts.end());
    for (auto [n, t] : pts) {
      max_ms = std::max(max_ms, t);
      max_nodes = std::max(max_nodes, n);
    }
  }
  if (max_ms <= 0) max_ms = 1;
  const int width = 1000, height = 320, left = 70, bottom = 40, top = 20, plot_w = 520, plot_h = height - top - bottom;
  auto px = [&](double n) { return left + plot_w * std::log2(std::max(1.0, n)) / std::max(1.0, std::log2(max_nodes)); };
  auto py = [&](double t) { return top + plot_h * (1.0 - t / max_ms); };
  std::string s = "<svg class=\"chart\" id=\"scaling-chart\" width=\"" + std::to_string(width) + "\" height=\"" +
                  std::to_string(height) + "\" role=\"img\" aria-label=\"time against node count\">";
  s += "<line x1=\"" + std::to_string(left) + "\" y1=\"" + std::to_string(top + plot_h) + "\" x2=\"" +
       std::to_string(left + plot_w) + "\" y2=\"" + std::to_string(top + plot_h) + "\" stroke=\"#333\"/>";
  s += "<line x1=\"" + std::to_string(left) + "\" y1=\"" + std::to_string(top) + "\" x2=\"" + std::to_string(left) +
       "\" y2=\"" + std::to_string(top + plot_h) + "\" stroke=\"#333\"/>";
  s += "<text x=\"" + std::to_string(left + plot_w / 2) + "\" y=\"" + std::to_string(height - 5) +
       "\" text-anchor=\"middle\">nodes (log scale)</text>";
  s += "<text x=\"14\" y=\"" + std::to_string(top + plot_h / 2) + "\" transform=\"rotate(-90 14 " +
       std::to_string(top + plot_h / 2) + ")\" text-anchor=\"middle\">time (ms)</text>";
  s += "<text x=\"" + std::to_string(left - 6) + "\" y=\"" + std::to_string(top + 10) + "\" text-anchor=\"end\">" +
       fixed(max_ms, 0) + "</text>";
  s += "<text x=\"" + std::to_string(left - 6) + "\" y=\"" + std::to_string(top + plot_h) + "\" text-anchor=\"end\">0</text>";
  std::set<std::uint32_t> ticks;
  for (const auto& [name, pts] : lines)
    for (auto [n, t] : pts) ticks.insert(n);
  for (auto n : ticks)
    s += "<text x=\"" + fixed(px(n), 1) + "\" y=\"" + std::to_string(top + plot_h + 16) + "\" text-anchor=\"middle\">" +
         std::to_string(n) + "</text>";
  std::size_t i = 0;
  for (const auto& [name, pts] : lines) {
    const char* color = kClassColors[i % replay::kPathClassCount];
    std::string points;
    for (auto [n, t] : pts) {
      points += fixed(px(n), 1) + "," + fixed(py(t), 1) + " ";
      s += "<circle cx=\"" + fixed(px(n), 1) + "\" cy=\"" + fixed(py(t), 1) + "\" r=\"4\" fill=\"" + color + "\"><title>" +
           escape(name) + ": " + std::to_string(n) + " nodes, " + fixed(t, 1) + " ms</title></circle>";
    }
    s += "<polyline points=\"" + points + "\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\"/>";
    s += "<rect x=\"" + std::to_string(left + plot_w + 20) + "\" y=\"" + std::to_string(top + 18 * i) +
         "\" width=\"12\" height=\"12\" fill=\"" + color + "\"/><text x=\"" + std::to_string(left + plot_w + 36) + "\" y=\"" +
         std::to_string(top + 18 * i + 11) + "\">" + escape(name) + "</text>";
    ++i;
  }
  return s + "</svg>";
}

}  // namespace

std::string render_comparison_html(const std::vector<ComparisonRow>& rows, const RunContext& ctx,
                                   const std::string& title) {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(title) +
                  "</title>\n<style>body{font-family:system-ui,sans-serif;margin:24px;color:#222}"
                  "table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #ccc;padding:4px 8px;text-align:right}"
                  "th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}"
                  ".chart text{font-size:12px;font-family:system-ui,sans-serif}h2{margin-top:28px}"
                  ".note{color:#666;font-size:12px}</style></head><body>\n";
  h += "<h1>" + escape(title) + "</h1>\n<p class=\"note\">realm-replay " RR_VERSION ", command: " + escape(ctx.command) +
       "; " + std::to_string(rows.size()) + " run(s). Times are replay estimates.</p>\n";
  h += "<h2>Estimated time per configuration</h2>\n" + svg_time_bars(rows) + "\n";
  h += "<h2>Critical-path breakdown</h2>\n" + svg_critical_bars(rows) + "\n";
  h += "<h2>Time against node count</h2>\n" + svg_scaling(rows) + "\n";
  h += "<h2>Table</h2>\n<table id=\"runs\"><tr><th>run</th><th>nodes</th><th>time (ms)</th><th>speedup</th>"
       "<th>weak eff.</th><th>GPU</th><th>CPU</th><th>utility</th><th>copies (MiB)</th><th>lower bound (ms)</th></tr>\n";
  for (const auto& row : rows) {
    const auto& r = row.run;
    h += "<tr><td>" + escape(label(r)) + "</td><td>" + std::to_string(r.nodes) + "</td><td>" + ms(r.estimated_ns) +
         "</td><td>" + fixed(row.speedup, 2) + "</td><td>" + (row.weak_efficiency ? fixed(*row.weak_efficiency, 2) : "-") +
         "</td><td>" + fixed(100 * r.utilisation[0], 1) + "%</td><td>" + fixed(100 * r.utilisation[1], 1) + "%</td><td>" +
         fixed(100 * r.utilisation[2], 1) + "%</td><td>" + fixed(static_cast<double>(r.copy_bytes) / 1048576.0, 2) +
         "</td><td>" + ms(r.lower_bound_ns) + "</td></tr>\n";
  }
  h += "</table>\n</body></html>\n";
  return h;
}

}  // namespace rr::app
