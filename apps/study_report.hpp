// A study's reports (`realm-replay study`): the table of every node count and strategy as text, CSV and JSON, a
// self-contained HTML page with its charts (study_html.cpp) and SQLite tables (study_sql.cpp). The numbers come from
// session::tabulate_study; these only render them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_context.hpp"
#include "session/study.hpp"

namespace rr::app {

struct StudyReport {
  session::StudyResult result;
  std::vector<session::StudyStrategy> strategies;
  std::string source;                  // where the node counts came from: "folds 1, 2, 4 of dme_all_4n"
  std::string machine;                 // -m as given
  std::vector<std::string> overrides;  // --set
  std::vector<std::string> colours;    // per result.series (svg_charts.hpp: the same name, the same colour)
};

// What each strategy is, as the reports list it: "placement traced; moves none (the trace's own mapping)".
std::string strategy_summary(const StudyReport& report, const session::StudyStrategy& strategy);
// The legend shared by the text and HTML reports: what each column means, and the notes of the run.
std::vector<std::string> study_legend(const StudyReport& report);
// "1 node: mixed; 2 nodes: mixed; ...", and the crossovers in words, for winners by estimate or by truth.
std::string winners_text(const std::vector<session::StudyWinner>& winners);
std::string crossovers_text(const std::vector<session::StudyCrossover>& crossovers,
                            const std::vector<session::StudyWinner>& winners);

std::string render_study_text(const StudyReport& report);
std::string render_study_csv(const StudyReport& report);
nlohmann::ordered_json render_study_json(const StudyReport& report, const RunContext& ctx);
std::string render_study_html(const StudyReport& report, const RunContext& ctx, const std::string& title);
// The study as SQLite tables (docs/sql.md, Studies), whole or not at all; an empty string or a message naming the file.
std::string export_study_sqlite(const std::string& path, const StudyReport& report, const RunContext& ctx);

}  // namespace rr::app
