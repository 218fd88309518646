// A study as SQLite tables (docs/sql.md, Studies), through apps/sqlite_writer.hpp.
#include <algorithm>
#include <string_view>

#include "sqlite_writer.hpp"
#include "study_report.hpp"

namespace rr::app {

namespace {

// The schema, one statement per table; docs/sql.md describes every column.
constexpr std::string_view kStudySchema = R"sql(
PRAGMA user_version = 1;
CREATE TABLE study (
  scaling TEXT NOT NULL, source TEXT NOT NULL, machine TEXT NOT NULL, command TEXT NOT NULL,
  tool_version TEXT NOT NULL);
CREATE TABLE study_series (
  series TEXT PRIMARY KEY, strategy TEXT NOT NULL, variant TEXT NOT NULL, colour TEXT NOT NULL,
  summary TEXT NOT NULL);
CREATE TABLE study_cells (
  nodes INTEGER NOT NULL, series TEXT NOT NULL, trace TEXT NOT NULL, machine TEXT NOT NULL,
  placement TEXT NOT NULL, moves TEXT NOT NULL, estimated_ns INTEGER NOT NULL, truth_ns INTEGER,
  reference_nodes INTEGER NOT NULL, speedup REAL, efficiency REAL, relative_to_winner REAL,
  winner INTEGER NOT NULL, stuck INTEGER NOT NULL, lower_bound_ns INTEGER, PRIMARY KEY (nodes, series));
CREATE TABLE study_critical_path (
  nodes INTEGER NOT NULL, series TEXT NOT NULL, class TEXT NOT NULL, time_ns INTEGER NOT NULL,
  PRIMARY KEY (nodes, series, class));
CREATE TABLE study_bounds (
  nodes INTEGER NOT NULL, series TEXT NOT NULL, rank INTEGER NOT NULL, name TEXT NOT NULL,
  path_ns INTEGER NOT NULL, change TEXT NOT NULL, PRIMARY KEY (nodes, series, rank));
CREATE TABLE study_winners (
  nodes INTEGER NOT NULL, judged_by TEXT NOT NULL, series TEXT NOT NULL, time_ns INTEGER NOT NULL,
  PRIMARY KEY (nodes, judged_by));
CREATE TABLE study_crossovers (
  judged_by TEXT NOT NULL, after_nodes INTEGER NOT NULL, nodes INTEGER NOT NULL, from_series TEXT NOT NULL,
  to_series TEXT NOT NULL);
)sql";

using std::int64_t;

std::optional<int64_t> optional_ns(const std::optional<replay::TimeNs>& t) {
  return t ? std::optional<int64_t>(*t) : std::nullopt;
}

void write_series(Database& db, const StudyReport& report) {
  Inserter ins(db, "study_series", 5);
  const auto& r = report.result;
  for (std::size_t i = 0; i < r.series.size(); ++i) {
    const auto cell = std::find_if(r.cells.begin(), r.cells.end(), [&](const auto& c) { return c.series == r.series[i]; });
    if (cell == r.cells.end()) continue;
    const auto strategy = std::find_if(report.strategies.begin(), report.strategies.end(),
                                       [&](const auto& s) { return s.name == cell->strategy; });
    ins << r.series[i] << cell->strategy << cell->variant << report.colours[i]
        << (strategy == report.strategies.end() ? std::string() : strategy_summary(report, *strategy));
    ins.row();
  }
}

void write_cells(Database& db, const StudyReport& report) {
  Inserter cells(db, "study_cells", 15), classes(db, "study_critical_path", 4), bounds(db, "study_bounds", 6);
  for (const auto& c : report.result.cells) {
    const auto& r = c.run;
    const auto nodes = static_cast<int64_t>(c.nodes);
    cells << nodes << c.series << r.trace_label << r.machine_label << r.placement
          << (r.moves == "-" ? std::string() : r.moves) << static_cast<int64_t>(r.estimated_ns) << optional_ns(c.truth_ns)
          << static_cast<int64_t>(c.reference_nodes) << c.speedup << c.efficiency << c.to_winner
          << static_cast<int64_t>(c.winner) << static_cast<int64_t>(r.stuck)
          << (r.lower_bound_ns < 0 ? std::nullopt : std::optional<int64_t>(r.lower_bound_ns));
    cells.row();
    for (std::size_t k = 0; k < replay::kPathClassCount; ++k) {
      classes << nodes << c.series << replay::path_class_name(static_cast<replay::PathClass>(k))
              << static_cast<int64_t>(r.critical[k]);
      classes.row();
    }
    for (std::size_t i = 0; i < r.bounded_by.size(); ++i) {
      const auto& b = r.bounded_by[i];
      bounds << nodes << c.series << static_cast<int64_t>(i + 1) << b.name << static_cast<int64_t>(b.path_ns) << b.change;
      bounds.row();
    }
  }
}

void write_winners(Database& db, const std::vector<session::StudyWinner>& winners,
                   const std::vector<session::StudyCrossover>& crossovers, const char* judged_by) {
  Inserter w(db, "study_winners", 4), x(db, "study_crossovers", 5);
  for (const auto& winner : winners) {
    w << static_cast<int64_t>(winner.nodes) << judged_by << winner.series << static_cast<int64_t>(winner.time_ns);
    w.row();
  }
  for (const auto& c : crossovers) {
    x << judged_by << static_cast<int64_t>(c.after_nodes) << static_cast<int64_t>(c.nodes) << c.from << c.to;
    x.row();
  }
}

}  // namespace

std::string export_study_sqlite(const std::string& path, const StudyReport& report, const RunContext& ctx) {
  return write_database(path, [&](Database& db) {
    db.exec(kStudySchema);
    {
      Inserter ins(db, "study", 5);
      ins << session::scaling_name(report.result.scaling) << report.source << report.machine << ctx.command
          << RR_VERSION;
      ins.row();
    }
    write_series(db, report);
    write_cells(db, report);
    write_winners(db, report.result.winners, report.result.crossovers, "estimate");
    write_winners(db, report.result.truth_winners, report.result.truth_crossovers, "truth");
  });
}

}  // namespace rr::app
