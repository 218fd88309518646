// The tune report, text and JSON.
#include "tune_report.hpp"

#include <sstream>

#include "text_format.hpp"

namespace rr::app {

namespace {

std::string kind_name(core::ProcessorKind k) { return std::string(core::processor_kind_name(k)); }

std::string move_text(const tuning::MoveOption& m, const graph::EventGraph& g) {
  const std::string name = g.function_name(m.function);
  std::string out = "function " + std::to_string(m.function);
  if (name != graph::unnamed_function_label(m.function)) out += " (" + name + ")";
  out += " -> " + kind_name(m.kind) + ", ";
  out += m.factor ? "busy time x " + significant(*m.factor) + " (" + m.source + ")" : "priced by " + m.source;
  return out;
}

std::string counts_text(const tuning::SearchSpace& s) {
  if (s.counts.kinds.empty()) return "none (the machine has no CPU or utility processor)";
  std::vector<std::string> kinds;
  for (auto k : s.counts.kinds) kinds.push_back(kind_name(k));
  return join(kinds, " and ") + ", " + std::to_string(s.counts.budget) + " at most per node (" +
         s.counts.budget_source + "); GPUs stay the machine's";
}

// The mapping file's lines, indented: what --write-mapping writes, without its comment.
std::string mapping_lines(const machine::MappingSpec& m) {
  std::istringstream in(machine::mapping_toml(m));
  std::string out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out += "  " + line + "\n";
  return out;
}

double rate(const tuning::TuneResult& r) {
  return r.seconds > 0 ? static_cast<double>(r.candidates) / r.seconds : 0.0;
}

std::string change_text(std::int64_t before, std::int64_t after) {
  return signed_ms(after - before) + " ms (" +
         signed_pct(before > 0 ? static_cast<double>(after - before) / static_cast<double>(before) : 0.0) + ")";
}

void write_space(std::ostringstream& out, const TuneView& v) {
  const tuning::SearchSpace& s = v.result.space;
  out << "What may change:\n";
  out << "  moves the factors allow: "
      << (s.moves.empty() ? std::string("none (--factors FILE, or the machine's function_speed)")
                          : std::to_string(s.moves.size()))
      << "\n";
  for (const auto& m : s.moves) out << "    " << move_text(m, v.graph) << "\n";
  out << "  processor counts: " << counts_text(s) << "\n";
  out << "  placement: traced, pool, eft (eft only with a move)\n";
  out << "  node map: "
      << (s.node_maps ? "cyclic or block (" + std::to_string(s.traced_nodes) + " traced nodes on " +
                            std::to_string(s.model_nodes) + " model nodes)"
                      : std::string("as it is (the trace is not folded onto fewer nodes: --fold M)"))
      << "\n";
  for (const auto& note : s.notes) out << "  note: " << note << "\n";
}

void write_path(std::ostringstream& out, const TuneView& v) {
  const tuning::TuneResult& r = v.result;
  out << "\nSearch path (each round's best, when it beat the best before it)\n";
  if (r.path.empty()) {
    out << "  no improvement: the starting mapping is the best found\n";
    return;
  }
  out << "  round  estimate (ms)  change (ms)  candidates  what changed\n";
  for (const auto& step : r.path)
    out << "  " << pad(std::to_string(step.round), 5, true) << "  " << pad(ms(step.after_ns), 13, true) << "  "
        << pad(signed_ms(step.after_ns - step.before_ns), 11, true) << "  "
        << pad(std::to_string(step.round_candidates), 10, true) << "  " << step.change << "\n";
}

}  // namespace

std::string render_tune_text(const TuneView& v) {
  const tuning::TuneResult& r = v.result;
  std::ostringstream out;
  out << "Tuning trace " << v.trace << " on machine " << v.machine << " (" << v.machine_file << "), "
      << r.space.traced_nodes << " traced node(s) on " << r.space.model_nodes << " model node(s)\n";
  out << "Search: seed " << v.seed << ", at most " << v.budget << " candidates in " << v.rounds << " rounds; "
      << (v.early_stop ? "each candidate stopped once its time passes the best so far" : "every candidate replayed to its end")
      << "\n";
  write_space(out, v);
  out << "\nEstimated run time (ms)\n";
  out << "  starting mapping  " << pad(ms(r.start_ns), 12, true) << "\n";
  out << "  best found        " << pad(ms(r.best_ns), 12, true) << "  " << change_text(r.start_ns, r.best_ns) << "\n";
  write_path(out, v);
  out << "\nBest mapping\n" << mapping_lines(r.best);
  if (!v.written.empty())
    out << "Written to " << v.written << ": `" << v.reproduce << "` gives " << ms(r.best_ns) << " ms\n";
  else
    out << "  (--write-mapping FILE writes it as a mapping file for replay --mapping)\n";
  for (const auto& note : r.notes) out << "note: " << note << "\n";
  out << "\nCandidates: " << r.candidates << " replayed in " << r.rounds << " round(s), " << r.cut_off
      << " stopped past the best so far, " << r.failed << " failed";
  out << "; the search ended: " << r.stopped << "\n";
  if (r.first_failure) out << "  first failure: " << *r.first_failure << "\n";
  out << "Done in " << fixed(r.seconds, 3) << " s: " << fixed(rate(r), 1) << " candidates/s\n";
  return out.str();
}

nlohmann::ordered_json render_tune_json(const TuneView& v, const RunContext& ctx) {
  const tuning::TuneResult& r = v.result;
  nlohmann::ordered_json j;
  j["context"] = context_json(ctx);
  j["trace"] = v.trace;
  j["machine"] = v.machine;
  j["search"] = {{"seed", v.seed}, {"budget", v.budget}, {"rounds", v.rounds}, {"early_stop", v.early_stop}};
  nlohmann::ordered_json moves = nlohmann::ordered_json::array();
  for (const auto& m : r.space.moves)
    moves.push_back({{"function", m.function},
                     {"name", v.graph.function_name(m.function)},
                     {"to", machine::kind_key(m.kind)},
                     {"factor", m.factor ? nlohmann::ordered_json(*m.factor) : nlohmann::ordered_json(nullptr)},
                     {"source", m.source}});
  nlohmann::ordered_json kinds = nlohmann::ordered_json::array();
  for (auto k : r.space.counts.kinds) kinds.push_back(machine::kind_key(k));
  j["space"] = {{"moves", moves},
                {"counts", {{"kinds", kinds}, {"budget", r.space.counts.budget}, {"budget_source", r.space.counts.budget_source}}},
                {"node_maps", r.space.node_maps},
                {"traced_nodes", r.space.traced_nodes},
                {"model_nodes", r.space.model_nodes},
                {"notes", r.space.notes}};
  j["start"] = {{"estimated_time_ns", r.start_ns}, {"mapping", machine::mapping_toml(r.start)}};
  j["best"] = {{"estimated_time_ns", r.best_ns},
               {"change_ns", r.best_ns - r.start_ns},
               {"relative", r.start_ns > 0 ? static_cast<double>(r.best_ns - r.start_ns) / static_cast<double>(r.start_ns) : 0.0},
               {"mapping", machine::mapping_toml(r.best)}};
  nlohmann::ordered_json path = nlohmann::ordered_json::array();
  for (const auto& s : r.path)
    path.push_back({{"round", s.round},
                    {"change", s.change},
                    {"before_ns", s.before_ns},
                    {"estimated_time_ns", s.after_ns},
                    {"candidates", s.round_candidates}});
  j["path"] = path;
  j["candidates"] = {{"replayed", r.candidates},
                     {"rounds", r.rounds},
                     {"cut_off", r.cut_off},
                     {"failed", r.failed},
                     {"first_failure", r.first_failure ? nlohmann::ordered_json(*r.first_failure) : nlohmann::ordered_json(nullptr)},
                     {"stopped", r.stopped}};
  j["notes"] = r.notes;
  j["written_mapping"] = v.written.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v.written);
  j["elapsed_seconds"] = r.seconds;
  j["candidates_per_second"] = rate(r);
  return j;
}

}  // namespace rr::app
