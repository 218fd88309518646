// The HTML page of `realm-replay explain --html`: self-contained, a waterfall chart (inline SVG) from A's replayed
// time through each class's share to B's, then the classes and what changed as tables.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "explain_report.hpp"
#include "html_text.hpp"
#include "text_format.hpp"

namespace rr::app {

namespace {



struct Bar {
  std::string label;
  std::int64_t from = 0, to = 0;  // ns
  bool total = false;
};

// Bars from A's time to B's: A, each class by share (largest first), B. The time axis starts below the lowest
// point the bars reach, so that small shares stay visible; it says where it starts.
std::string waterfall(const explain::ExplainResult& r) {
  std::vector<Bar> bars{{"A: " + r.label_a, 0, r.replay_a_ns, true}};
  std::int64_t at = r.replay_a_ns;
  for (std::size_t i : r.ranked()) {
    bars.push_back({r.classes[i].name, at, at + r.classes[i].share_ns, false});
    at += r.classes[i].share_ns;
  }
  bars.push_back({"B: " + r.label_b, 0, r.replay_b_ns, true});
  std::int64_t low = std::min(r.replay_a_ns, r.replay_b_ns), high = std::max(r.replay_a_ns, r.replay_b_ns);
  for (const Bar& b : bars)
    if (!b.total) low = std::min({low, b.from, b.to}), high = std::max({high, b.from, b.to});
  const std::int64_t span = std::max<std::int64_t>(1, high - low);
  const std::int64_t axis = std::max<std::int64_t>(0, low - span / 2);
  const int left = 300, width = 560, row = 26;
  const int height = row * static_cast<int>(bars.size()) + 40;
  auto x = [&](std::int64_t t) {
    return left + static_cast<int>(static_cast<double>(t - axis) / static_cast<double>(high - axis) * width);
  };
  std::string s = "<svg class=\"chart\" id=\"waterfall\" width=\"" + std::to_string(left + width + 120) + "\" height=\"" +
                  std::to_string(height) + "\" role=\"img\" aria-label=\"waterfall from A's time to B's\">";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const int y = 10 + row * static_cast<int>(i);
    const std::int64_t lo = b.total ? axis : std::min(b.from, b.to), hi = b.total ? b.to : std::max(b.from, b.to);
    const char* colour = b.total ? "#4a6fa5" : (b.to > b.from ? "#c0504d" : "#5a9e5a");
    s += "<text x=\"" + std::to_string(left - 8) + "\" y=\"" + std::to_string(y + 15) + "\" text-anchor=\"end\">" +
         html_escape(b.label) + "</text>";
    s += "<rect x=\"" + std::to_string(x(lo)) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
         std::to_string(std::max(1, x(hi) - x(lo))) + "\" height=\"" + std::to_string(row - 8) + "\" fill=\"" + colour +
         "\"><title>" + html_escape(b.label) + "</title></rect>";
    const std::string value = b.total ? ms(b.to) + " ms" : (b.to >= b.from ? "+" : "") + ms(b.to - b.from) + " ms";
    s += "<text x=\"" + std::to_string(x(hi) + 6) + "\" y=\"" + std::to_string(y + 15) + "\">" + value + "</text>";
    if (i + 1 < bars.size() && !bars[i + 1].total)
      s += "<line x1=\"" + std::to_string(x(b.to)) + "\" x2=\"" + std::to_string(x(b.to)) + "\" y1=\"" +
           std::to_string(y + row - 8) + "\" y2=\"" + std::to_string(y + row) + "\" stroke=\"#888\"/>";
  }
  s += "<text x=\"" + std::to_string(left) + "\" y=\"" + std::to_string(height - 8) + "\" class=\"note\">time axis from " +
       ms(axis) + " ms</text></svg>";
  return s;
}

std::string classes_table(const explain::ExplainResult& r) {
  std::string h = "<table><tr><th>class</th><th>share (ms)</th><th>of B &minus; A</th><th>A with this class from B "
                  "(ms)</th><th>what</th></tr>\n";
  const double d = static_cast<double>(r.difference_ns());
  for (std::size_t i : r.ranked()) {
    const auto& c = r.classes[i];
    std::string what;
    for (const auto& m : c.members.size() > 1 ? c.members : c.changes) what += (what.empty() ? "" : ", ") + m;
    h += "<tr><td>" + html_escape(c.name) + "</td><td>" + ms(c.share_ns) + "</td><td>" +
         (d == 0 ? std::string("-") : pct(static_cast<double>(c.share_ns) / d)) + "</td><td>" +
         ms(r.replay_a_ns + c.alone_ns) + "</td><td style=\"text-align:left\">" + html_escape(what) + "</td></tr>\n";
  }
  return h + "</table>\n";
}

std::string functions_table(const explain::Changes& c) {
  std::string h = "<table><tr><th>function</th><th>kind</th><th>count A</th><th>count B</th><th>busy A (ms)</th>"
                  "<th>busy B (ms)</th><th>median ratio B/A</th></tr>\n";
  for (std::size_t i = 0; i < std::min<std::size_t>(c.functions.size(), 20); ++i) {
    const auto& w = c.functions[i];
    h += "<tr><td>" + html_escape(w.name) + "</td><td>" + explain::op_class_name(w.op_class) + "</td><td>" +
         std::to_string(w.count_a) + "</td><td>" + std::to_string(w.count_b) + "</td><td>" + ms(w.total_a) +
         "</td><td>" + ms(w.total_b) + "</td><td>" + significant(w.median_ratio) + "</td></tr>\n";
  }
  return h + "</table>\n";
}

}  // namespace

std::string render_explain_html(const explain::ExplainResult& r, const RunContext& ctx) {
  const std::string title = "Why " + r.label_b + " differs from " + r.label_a;
  std::string h = html_page_start(title);
  h += "<h1>" + html_escape(title) + "</h1>\n";
  h += "<p>Replay of A " + ms(r.replay_a_ns) + " ms, of B " + ms(r.replay_b_ns) + " ms: B &minus; A = " +
       ms(r.difference_ns()) + " ms (placement " + html_escape(r.placement) + ").";
  if (r.observed_a_ns && r.observed_b_ns)
    h += " Observed: A " + ms(*r.observed_a_ns) + " ms, B " + ms(*r.observed_b_ns) + " ms.";
  h += "</p>\n<p class=\"note\">realm-replay " RR_VERSION ", command: " + html_escape(ctx.command) + "; shares are Shapley "
       "values over " + std::to_string(r.classes.size()) + " classes from " + std::to_string(r.replays) +
       " replays; they add up to B &minus; A exactly.</p>\n";
  h += "<h2>From A's time to B's</h2>\n" + waterfall(r) + "\n";
  h += "<h2>Classes</h2>\n" + classes_table(r);
  h += "<h2>Functions with the largest change of busy time</h2>\n" + functions_table(r.changes);
  if (!r.changes.machine.empty()) {
    h += "<h2>Machines</h2>\n<ul>";
    for (const auto& m : r.changes.machine) h += "<li>" + html_escape(m) + "</li>";
    h += "</ul>\n";
  }
  for (const auto& n : r.notes) h += "<p class=\"note\">" + html_escape(n) + "</p>\n";
  return h + "</body></html>\n";
}

}  // namespace rr::app
