// A study as text, CSV and JSON (apps/study_report.hpp).
#include "study_report.hpp"

#include <algorithm>

#include "csv_text.hpp"
#include "replay_report.hpp"
#include "text_format.hpp"

namespace rr::app {

namespace {

const session::StudyCell* first_cell_of(const StudyReport& report, const std::string& strategy) {
  for (const auto& c : report.result.cells)
    if (c.strategy == strategy) return &c;
  return nullptr;
}

std::string optional_fixed(const std::optional<double>& v, int digits) { return v ? fixed(*v, digits) : "-"; }

std::string nodes_text(std::uint32_t n) { return std::to_string(n) + (n == 1 ? " node" : " nodes"); }

// The largest bound of a cell and its share of the run time: "GPU processors (all nodes) 46.2%", or "-".
std::string top_bound(const replay::RunSummary& r) {
  if (r.bounded_by.empty()) return "-";
  return r.bounded_by.front().name + " " + share(r.bounded_by.front().path_ns, r.estimated_ns) + "%";
}

std::string class_shares(const replay::RunSummary& r) {
  std::vector<std::string> shares;
  for (std::size_t c = 0; c < replay::kPathClassCount; ++c) shares.push_back(share(r.critical[c], r.estimated_ns));
  return join(shares, "/");
}

bool any_truth(const StudyReport& report) {
  return std::any_of(report.result.cells.begin(), report.result.cells.end(),
                     [](const session::StudyCell& c) { return c.truth_ns.has_value(); });
}

bool same_winners(const std::vector<session::StudyWinner>& a, const std::vector<session::StudyWinner>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const auto& x, const auto& y) { return x.nodes == y.nodes && x.series == y.series; });
}

std::string class_list() {
  std::vector<std::string> names;
  for (std::size_t c = 0; c < replay::kPathClassCount; ++c)
    names.push_back(replay::path_class_name(static_cast<replay::PathClass>(c)));
  return join(names, "/");
}

}  // namespace

std::string strategy_summary(const StudyReport& report, const session::StudyStrategy& strategy) {
  std::string out;
  if (const session::StudyCell* c = first_cell_of(report, strategy.name))
    out = "placement " + c->run.placement + "; moves " + (c->run.moves == "-" ? std::string("none") : c->run.moves);
  if (!strategy.overrides.empty()) out += "; machine values " + join(strategy.overrides, " ");
  if (strategy.text.empty() || strategy.text == session::kTracedStrategyName) out += " (the trace's own mapping)";
  else out += " (--strategy " + strategy.text + ")";
  return out;
}

std::string winners_text(const std::vector<session::StudyWinner>& winners) {
  std::vector<std::string> parts;
  for (const auto& w : winners) parts.push_back(nodes_text(w.nodes) + ": " + w.series);
  return parts.empty() ? "none (no cell ran to its end)" : join(parts, "; ");
}

std::string crossovers_text(const std::vector<session::StudyCrossover>& crossovers,
                            const std::vector<session::StudyWinner>& winners) {
  if (crossovers.empty())
    return winners.empty() ? "none" : "none: " + winners.front().series + " wins at every node count";
  std::vector<std::string> parts;
  for (const auto& x : crossovers)
    parts.push_back("at " + nodes_text(x.nodes) + " " + x.to + " wins (" + x.from + " won at " +
                    nodes_text(x.after_nodes) + ")");
  return join(parts, "; ");
}

std::vector<std::string> study_legend(const StudyReport& report) {
  const bool strong = report.result.scaling == session::Scaling::strong;
  std::vector<std::string> out;
  out.push_back(std::string("time: the replay's estimated run time, ms. speed-up and efficiency: against the same "
                            "strategy's run at its fewest nodes n0, ") +
                (strong ? "strong scaling (one problem): speed-up T(n0)/T(n), efficiency speed-up x n0/n."
                        : "weak scaling (a problem per node): efficiency T(n0)/T(n), speed-up (scaled) efficiency x "
                          "n/n0."));
  out.push_back("vs winner: this time / the time of the node count's winner (marked *, the least time; a tie goes to "
                "the strategy listed first).");
  out.push_back("critical path: the share of the run time in each class, %. bounded by: the largest resource the "
                "critical path waited for or function it ran, % of the run time (without its what-if replay: "
                "realm-replay critpath on one cell gives them).");
  if (any_truth(report))
    out.push_back("truth: the makespan the generator's own scheduler gave the trace on its truth machine "
                  "(truth.json), for strategies that keep the trace's own mapping.");
  for (const auto& note : report.result.notes) out.push_back("note: " + note + ".");
  return out;
}

std::string render_study_text(const StudyReport& report) {
  const session::StudyResult& r = report.result;
  std::string out = "Study: " + std::string(session::scaling_name(r.scaling)) + " scaling; " + report.source +
                    "; machine " + report.machine +
                    (report.overrides.empty() ? "" : " (" + join(report.overrides, " ") + ")") + "\nStrategies:\n";
  std::size_t width = 8;
  for (const auto& s : report.strategies) width = std::max(width, s.name.size());
  for (const auto& s : report.strategies) out += "  " + pad(s.name, width) + "  " + strategy_summary(report, s) + "\n";
  std::size_t series_width = 8;
  for (const auto& name : r.series) series_width = std::max(series_width, name.size() + 2);
  const bool truth = any_truth(report);
  out += "\nnodes  " + pad("strategy", series_width) + "  time (ms)" + (truth ? "  truth (ms)" : "") +
         "  speed-up  efficiency  vs winner  critical path (%): " + class_list() + "  bounded by\n";
  std::uint32_t last_nodes = 0;
  for (const auto& c : r.cells) {
    out += pad(c.nodes == last_nodes ? "" : std::to_string(c.nodes), 5, true) + "  " +
           pad(c.series + (c.winner ? " *" : ""), series_width) + "  " + pad(ms(c.run.estimated_ns), 9, true);
    if (truth) out += "  " + pad(c.truth_ns ? ms(*c.truth_ns) : "-", 10, true);
    out += "  " + pad(optional_fixed(c.speedup, 2), 8, true) + "  " + pad(optional_fixed(c.efficiency, 2), 10, true) +
           "  " + pad(optional_fixed(c.to_winner, 3), 9, true) + "  " + pad(class_shares(c.run), 19 + class_list().size()) +
           "  " + top_bound(c.run) + (c.run.stuck ? "  STUCK " + std::to_string(c.run.stuck) : "") + "\n";
    last_nodes = c.nodes;
  }
  out += "\nWinner per node count: " + winners_text(r.winners) + ".\nCrossovers: " +
         crossovers_text(r.crossovers, r.winners) + ".\n";
  if (!r.truth_winners.empty())
    out += "Truth: winners " + winners_text(r.truth_winners) + "; crossovers " +
           crossovers_text(r.truth_crossovers, r.truth_winners) +
           (same_winners(r.winners, r.truth_winners) ? " (the same winners as the estimates)"
                                                     : " (winners that differ from the estimates)") + ".\n";
  out += "\n";
  for (const auto& l : study_legend(report)) out += wrap(l, 110, "  ");
  return out;
}

std::string render_study_csv(const StudyReport& report) {
  std::string out = "nodes,series,strategy,variant,trace,machine,placement,moves,estimated_ns,truth_ns,reference_nodes,"
                    "speedup,efficiency,relative_to_winner,winner,stuck,lower_bound_ns";
  for (std::size_t c = 0; c < replay::kPathClassCount; ++c)
    out += ",crit_" + std::string(replay::path_class_name(static_cast<replay::PathClass>(c))) + "_ns";
  out += ",bounded_by,bounded_by_ns,scaling\n";
  for (const auto& c : report.result.cells) {
    const auto& r = c.run;
    out += std::to_string(c.nodes) + "," + csv_field(c.series) + "," + csv_field(c.strategy) + "," +
           csv_field(c.variant) + "," + csv_field(r.trace_label) + "," + csv_field(r.machine_label) + "," +
           csv_field(r.placement) + "," + csv_field(r.moves == "-" ? std::string() : r.moves) + "," +
           std::to_string(r.estimated_ns) + "," + (c.truth_ns ? std::to_string(*c.truth_ns) : "") + "," +
           std::to_string(c.reference_nodes) + "," + (c.speedup ? fixed(*c.speedup, 4) : "") + "," +
           (c.efficiency ? fixed(*c.efficiency, 4) : "") + "," + (c.to_winner ? fixed(*c.to_winner, 4) : "") + "," +
           (c.winner ? "1" : "0") + "," + std::to_string(r.stuck) + "," +
           (r.lower_bound_ns < 0 ? std::string() : std::to_string(r.lower_bound_ns));
    for (auto t : r.critical) out += "," + std::to_string(t);
    out += "," + (r.bounded_by.empty() ? std::string() : csv_field(r.bounded_by.front().name)) + "," +
           (r.bounded_by.empty() ? std::string() : std::to_string(r.bounded_by.front().path_ns)) + "," +
           session::scaling_name(report.result.scaling) + "\n";
  }
  return out;
}

namespace {

nlohmann::ordered_json winners_json(const std::vector<session::StudyWinner>& winners) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& w : winners) list.push_back({{"nodes", w.nodes}, {"series", w.series}, {"time_ns", w.time_ns}});
  return list;
}

nlohmann::ordered_json crossovers_json(const std::vector<session::StudyCrossover>& crossovers) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& x : crossovers)
    list.push_back({{"after_nodes", x.after_nodes}, {"nodes", x.nodes}, {"from", x.from}, {"to", x.to}});
  return list;
}

nlohmann::ordered_json cell_json(const session::StudyCell& c) {
  const auto& r = c.run;
  nlohmann::ordered_json e;
  e["nodes"] = c.nodes;
  e["series"] = c.series;
  e["strategy"] = c.strategy;
  e["variant"] = c.variant;
  e["trace"] = r.trace_label;
  e["machine"] = r.machine_label;
  e["placement"] = r.placement;
  e["moves"] = moves_json(r.moves);
  e["estimated_ns"] = r.estimated_ns;
  e["truth_ns"] = optional_json(c.truth_ns);
  e["reference_nodes"] = c.reference_nodes;
  e["speedup"] = optional_json(c.speedup);
  e["efficiency"] = optional_json(c.efficiency);
  e["relative_to_winner"] = optional_json(c.to_winner);
  e["winner"] = c.winner;
  e["stuck"] = r.stuck;
  e["critical_path_ns"] = path_classes_json(r.critical);
  e["critical_compute_ns"] = critical_compute_json(r.critical_compute);
  e["lower_bound_ns"] = lower_bound_json(r.lower_bound_ns);
  nlohmann::ordered_json bounds = nlohmann::ordered_json::array();
  for (const auto& b : r.bounded_by) bounds.push_back({{"name", b.name}, {"path_ns", b.path_ns}, {"change", b.change}});
  e["bounded_by"] = bounds;
  return e;
}

}  // namespace

nlohmann::ordered_json render_study_json(const StudyReport& report, const RunContext& ctx) {
  const session::StudyResult& r = report.result;
  nlohmann::ordered_json j;
  j["schema"] = "realm-replay/study";
  j["schema_version"] = 1;
  j["context"] = context_json(ctx);
  j["scaling"] = session::scaling_name(r.scaling);
  j["source"] = report.source;
  j["machine"] = report.machine;
  nlohmann::ordered_json strategies = nlohmann::ordered_json::array();
  for (const auto& s : report.strategies)
    strategies.push_back({{"name", s.name}, {"given", s.text}, {"summary", strategy_summary(report, s)},
                          {"overrides", s.overrides}});
  j["strategies"] = strategies;
  nlohmann::ordered_json series = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.series.size(); ++i) series.push_back({{"name", r.series[i]}, {"colour", report.colours[i]}});
  j["series"] = series;
  j["node_counts"] = r.node_counts;
  nlohmann::ordered_json cells = nlohmann::ordered_json::array();
  for (const auto& c : r.cells) cells.push_back(cell_json(c));
  j["cells"] = cells;
  j["winners"] = winners_json(r.winners);
  j["crossovers"] = crossovers_json(r.crossovers);
  if (!r.truth_winners.empty()) {
    j["truth_winners"] = winners_json(r.truth_winners);
    j["truth_crossovers"] = crossovers_json(r.truth_crossovers);
  }
  j["warnings"] = r.warnings;
  j["notes"] = r.notes;
  return j;
}

}  // namespace rr::app
