// Reports of `realm-replay explain` (apps/explain_report.hpp).
#include "explain_report.hpp"

#include "text_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>


namespace rr::app {

namespace {

using Json = nlohmann::ordered_json;


double share_of(std::int64_t part, std::int64_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}


std::string work_value(const explain::WorkChange& w, std::int64_t v) {
  return w.op_class == explain::OpClass::copy ? std::to_string(v) + " B" : ms(v) + " ms";
}

void text_changes(const explain::Changes& c, std::string& s) {
  s += "\nWhat changed (A -> B):\n";
  s += "  nodes " + std::to_string(c.nodes_a) + " -> " + std::to_string(c.nodes_b) + "; operations " +
       std::to_string(c.operations_a) + " -> " + std::to_string(c.operations_b) + "; compared " +
       std::to_string(c.compared_a) + " and " + std::to_string(c.compared_b) + ", matched " + std::to_string(c.matched) +
       "\n";
  if (!c.unmatched.empty()) {
    s += "  unmatched operations (only in A / only in B):\n";
    for (std::size_t i = 0; i < std::min<std::size_t>(c.unmatched.size(), 8); ++i) {
      const auto& w = c.unmatched[i];
      s += "    " + pad(w.name, 40) + " " + std::to_string(w.count_a - w.matched) + " / " +
           std::to_string(w.count_b - w.matched) + "\n";
    }
    if (c.unmatched.size() > 8) s += "    ... " + std::to_string(c.unmatched.size() - 8) + " more (--json lists all)\n";
  }
  s += "  per kind: count A -> B, work A -> B\n";
  for (const auto& k : c.kinds)
    s += "    " + pad(k.name, 12) + pad(std::to_string(k.count_a) + " -> " + std::to_string(k.count_b), 20) +
         work_value(k, k.total_a) + " -> " + work_value(k, k.total_b) + "\n";
  s += "  functions with the largest change of busy time: count A -> B, busy (ms) A -> B, median (ms) A -> B, "
       "median ratio of matched\n";
  for (std::size_t i = 0; i < std::min<std::size_t>(c.functions.size(), 10); ++i) {
    const auto& w = c.functions[i];
    s += "    " + pad(w.name + " (" + explain::op_class_name(w.op_class) + ")", 36) + " " +
         pad(std::to_string(w.count_a) + " -> " + std::to_string(w.count_b), 16) + pad(ms(w.total_a) + " -> " + ms(w.total_b), 24) +
         pad(ms(w.median_a) + " -> " + ms(w.median_b), 22) + "x" + significant(w.median_ratio) + "\n";
  }
  if (!c.copy_paths.empty()) {
    s += "  copies per path: count A -> B, bytes A -> B\n";
    for (const auto& w : c.copy_paths)
      s += "    " + pad(w.name, 36) + " " + pad(std::to_string(w.count_a) + " -> " + std::to_string(w.count_b), 16) +
           std::to_string(w.total_a) + " -> " + std::to_string(w.total_b) + "\n";
  }
  bool any = false;
  for (const auto& p : c.processors)
    if (p.a != p.b) {
      if (!any) s += "  traced processors that differ (node, kind: A -> B):\n";
      any = true;
      s += "    node " + std::to_string(p.node) + " " + p.kind + ": " + std::to_string(p.a) + " -> " + std::to_string(p.b) + "\n";
    }
  if (!c.machine.empty()) {
    s += "  machines:\n";
    for (const auto& m : c.machine) s += "    " + m + "\n";
  }
}

}  // namespace

std::string render_explain_text(const explain::ExplainResult& r) {
  std::string s = "explain: A = " + r.label_a + ", B = " + r.label_b + "\n";
  const std::int64_t d = r.difference_ns();
  s += "B - A: " + signed_ms(d) + " ms (" + signed_pct(share_of(d, r.replay_a_ns)) + "): replay of A " +
       ms(r.replay_a_ns) + " ms, of B " + ms(r.replay_b_ns) + " ms (placement " + r.placement + ")\n";
  if (r.observed_a_ns && r.observed_b_ns)
    s += "observed: A " + ms(*r.observed_a_ns) + " ms, B " + ms(*r.observed_b_ns) + " ms, B - A " +
         signed_ms(*r.observed_b_ns - *r.observed_a_ns) + " ms\n";
  s += "\nShares of B - A (Shapley values over " + std::to_string(r.classes.size()) +
       (r.classes.size() == 1 ? " class; " : " classes; ") +
       std::to_string(r.replays) + " replays on " + std::to_string(r.threads) + " thread(s) in " + significant(r.seconds) +
       " s):\n";
  s += "  " + pad("class", 44) + pad("share (ms)", 12, true) + pad("of B - A", 10, true) +
       "   replay of A with this class from B\n";
  for (std::size_t i : r.ranked()) {
    const auto& c = r.classes[i];
    s += "  " + pad(c.name, 44) + pad(signed_ms(c.share_ns), 12, true) + pad(pct(share_of(c.share_ns, d)), 10, true) +
         "   " + ms(r.replay_a_ns + c.alone_ns) + " ms (" + signed_ms(c.alone_ns) + ")\n";
    if (c.members.size() > 1 && c.kind == explain::FactKind::durations) {
      std::string list;
      for (std::size_t k = 0; k < c.members.size(); ++k) list += (k ? ", " : "") + c.members[k];
      s += "      grouped: " + list + "\n";
    }
    for (const auto& change : c.changes) s += "      " + change + "\n";
  }
  if (r.classes.empty()) s += "  (none: the runs differ in nothing a replay sees)\n";
  text_changes(r.changes, s);
  for (const auto& n : r.notes) s += "note: " + n + "\n";
  return s;
}

namespace {

Json work_json(const explain::WorkChange& w) {
  return Json{{"name", w.name}, {"kind", explain::op_class_name(w.op_class)}, {"count_a", w.count_a},
              {"count_b", w.count_b}, {"matched", w.matched}, {"total_a", w.total_a}, {"total_b", w.total_b},
              {"median_a", w.median_a}, {"median_b", w.median_b}, {"median_ratio", w.median_ratio}};
}

Json changes_json(const explain::Changes& c) {
  Json j{{"nodes_a", c.nodes_a}, {"nodes_b", c.nodes_b}, {"operations_a", c.operations_a},
         {"operations_b", c.operations_b}, {"compared_a", c.compared_a}, {"compared_b", c.compared_b},
         {"matched", c.matched}};
  for (const char* key : {"unmatched", "functions", "kinds", "copy_paths"}) {
    const auto& list = std::string(key) == "unmatched" ? c.unmatched
                       : std::string(key) == "functions" ? c.functions
                       : std::string(key) == "kinds" ? c.kinds : c.copy_paths;
    Json a = Json::array();
    for (const auto& w : list) a.push_back(work_json(w));
    j[key] = std::move(a);
  }
  Json p = Json::array();
  for (const auto& x : c.processors) p.push_back({{"node", x.node}, {"kind", x.kind}, {"a", x.a}, {"b", x.b}});
  j["processors"] = std::move(p);
  j["machine"] = c.machine;
  return j;
}

}  // namespace

Json render_explain_json(const explain::ExplainResult& r, const RunContext& ctx) {
  Json j{{"schema", "realm-replay/explain"}, {"schema_version", 1}, {"context", context_json(ctx)},
         {"a", r.label_a}, {"b", r.label_b}, {"replay_a_ns", r.replay_a_ns}, {"replay_b_ns", r.replay_b_ns},
         {"difference_ns", r.difference_ns()}, {"placement", r.placement}};
  j["observed_a_ns"] = r.observed_a_ns ? Json(*r.observed_a_ns) : Json(nullptr);
  j["observed_b_ns"] = r.observed_b_ns ? Json(*r.observed_b_ns) : Json(nullptr);
  Json classes = Json::array();
  for (std::size_t i : r.ranked()) {
    const auto& c = r.classes[i];
    classes.push_back({{"name", c.name}, {"kind", explain::fact_kind_name(c.kind)}, {"bit", i},
                       {"share_ns", c.share_ns}, {"share", share_of(c.share_ns, r.difference_ns())},
                       {"alone_ns", c.alone_ns}, {"replay_alone_ns", r.replay_a_ns + c.alone_ns},
                       {"members", c.members}, {"changes", c.changes}, {"matched", c.matched},
                       {"median_ratio", c.median_ratio}});
  }
  j["classes"] = std::move(classes);
  Json subsets = Json::array();
  for (std::size_t mask = 0; mask < r.subset_ns.size(); ++mask) {
    Json names = Json::array();
    for (std::size_t c = 0; c < r.classes.size(); ++c)
      if ((mask >> c) & 1u) names.push_back(r.classes[c].name);
    subsets.push_back({{"mask", mask}, {"from_b", std::move(names)}, {"replay_ns", r.subset_ns[mask]}});
  }
  j["subsets"] = std::move(subsets);
  j["replays"] = r.replays;
  j["threads"] = r.threads;
  j["seconds"] = r.seconds;
  j["changes"] = changes_json(r.changes);
  j["notes"] = r.notes;
  return j;
}

}  // namespace rr::app
