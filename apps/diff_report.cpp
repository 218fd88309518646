// The metrics of two replay reports side by side. The order is fixed and follows the replay report, so
// that the run time is read first and the same metric is always in the same place.
#include "diff_report.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "text_format.hpp"

namespace rr::app {

namespace {

using Json = nlohmann::ordered_json;

enum class Unit { ns, count, bytes, fraction };

struct Metric {
  std::string group;  // "" for the headline rows
  std::string label;
  std::vector<std::string> path;  // where it is in the report; joined by dots, the metric's name in JSON
  Unit unit;
};

std::optional<double> value(const Json& report, const std::vector<std::string>& path) {
  const Json* j = &report;
  for (const auto& part : path) {
    if (!j->is_object() || !j->contains(part)) return std::nullopt;
    j = &(*j)[part];
  }
  return j->is_number() ? std::optional<double>(j->get<double>()) : std::nullopt;
}

std::string dotted(const std::vector<std::string>& path) { return join(path, "."); }

// Member names of an object at `path` in either report, in the first report's order, then the second's.
std::vector<std::string> names(const Json& a, const Json& b, const std::vector<std::string>& path) {
  std::vector<std::string> out;
  for (const Json* r : {&a, &b}) {
    const Json* j = r;
    for (const auto& part : path) j = j->is_object() && j->contains(part) ? &(*j)[part] : nullptr;
    if (!j || !j->is_object()) continue;
    for (const auto& [k, v] : j->items())
      if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
  }
  return out;
}

// Processor kinds in the replay's order (GPU, CPU, utility), then any other.
std::vector<std::string> kinds_in_order(std::vector<std::string> found) {
  std::vector<std::string> out;
  for (const char* k : {"GPU", "CPU", "utility"})
    if (std::find(found.begin(), found.end(), k) != found.end()) out.push_back(k);
  for (const auto& k : found)
    if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
  return out;
}

struct Row {
  Metric metric;
  std::optional<double> before, after;
};

std::vector<Row> rows(const Json& a, const Json& b) {
  std::vector<Metric> metrics = {{"", "Estimated run time", {"estimated_time_ns"}, Unit::ns},
                                 {"", "Operations replayed", {"operations"}, Unit::count},
                                 {"", "Stuck operations", {"stuck"}, Unit::count},
                                 {"Critical path", "length", {"critical_path", "length_ns"}, Unit::ns},
                                 {"Critical path", "infinite-resource lower bound", {"critical_path", "lower_bound_ns"}, Unit::ns}};
  for (const auto& c : names(a, b, {"critical_path", "by_class_ns"}))
    metrics.push_back({"Critical path", c, {"critical_path", "by_class_ns", c}, Unit::ns});
  const std::vector<std::pair<std::string, Unit>> kind_fields = {
      {"busy_ns", Unit::ns},           {"utilisation_used", Unit::fraction}, {"utilisation", Unit::fraction},
      {"processors", Unit::count},     {"used_processors", Unit::count},     {"segments", Unit::count}};
  const std::map<std::string, std::string> field_label = {
      {"busy_ns", "busy"}, {"utilisation_used", "utilisation of the used"}, {"utilisation", "utilisation of all"},
      {"processors", "model processors"}, {"used_processors", "used by the mapping"}, {"segments", "task segments"}};
  for (const auto& k : kinds_in_order(names(a, b, {"processor_kinds"})))
    for (const auto& [field, unit] : kind_fields)
      metrics.push_back({"Processors by kind", k + " " + field_label.at(field), {"processor_kinds", k, field}, unit});
  std::vector<std::string> nodes = names(a, b, {"nodes"});
  std::sort(nodes.begin(), nodes.end(), [](const auto& x, const auto& y) { return std::stoul(x) < std::stoul(y); });
  for (const auto& n : nodes)
    for (const auto& k : kinds_in_order(names(a, b, {"nodes", n})))
      for (const auto& [field, unit] : kind_fields)
        if (field == "busy_ns" || field == "utilisation_used")
          metrics.push_back({"Processors by node", "node " + n + " " + k + " " + field_label.at(field),
                             {"nodes", n, k, field}, unit});
  std::vector<std::string> paths = names(a, b, {"copy_paths"});
  std::sort(paths.begin(), paths.end());
  for (const auto& p : paths) {
    metrics.push_back({"Copies by path", p + ": time", {"copy_paths", p, "time_ns"}, Unit::ns});
    metrics.push_back({"Copies by path", p + ": bytes", {"copy_paths", p, "bytes"}, Unit::bytes});
    metrics.push_back({"Copies by path", p + ": copies", {"copy_paths", p, "copies"}, Unit::count});
  }
  std::vector<Row> out;
  for (auto& m : metrics) {
    auto before = value(a, m.path), after = value(b, m.path);
    if (before || after) out.push_back({std::move(m), before, after});
  }
  return out;
}

std::string format(std::optional<double> v, Unit unit) {
  if (!v) return "-";
  switch (unit) {
    case Unit::ns: return fixed(*v / 1e6, 3) + " ms";
    case Unit::fraction: return pct(*v);
    case Unit::bytes: return fixed(*v, 0) + " B";
    case Unit::count: return fixed(*v, 0);
  }
  return "-";
}

std::optional<double> relative(const Row& r) {
  if (!r.before || !r.after || *r.before == 0) return std::nullopt;
  return (*r.after - *r.before) / *r.before;
}

std::string change(const Row& r) {
  if (!r.before) return "only after";
  if (!r.after) return "only before";
  if (*r.after == *r.before) return "same";
  if (auto rel = relative(r)) {
    char c[40];
    std::snprintf(c, sizeof c, "%+.2f%%", 100.0 * *rel);
    return c;
  }
  return "from 0";
}

std::set<std::string> critical_ops(const Json& report) {
  std::set<std::string> out;
  if (report.contains("critical_path") && report["critical_path"].contains("operations"))
    for (const auto& e : report["critical_path"]["operations"]) out.insert(e.get<std::string>());
  return out;
}

// "trace T on machine M (file F); overrides: ...; fold: N nodes", from a report's context block.
std::string describe(const Json& report) {
  const Json ctx = report.value("context", Json::object());
  std::vector<std::string> inputs;
  for (const auto& i : ctx.value("inputs", Json::array())) inputs.push_back(i.get<std::string>());
  std::string out = "trace " + (inputs.empty() ? std::string("?") : join(inputs, " "));
  if (ctx.contains("machine")) {
    const Json& m = ctx["machine"];
    out += " on " + m.value("name", "?") + " (" + m.value("file", "?") + ")";
    std::vector<std::string> overrides;
    for (const auto& o : m.value("overrides", Json::array())) overrides.push_back(o.get<std::string>());
    if (!overrides.empty()) out += "; overrides: " + join(overrides, ", ");
  }
  const Json options = ctx.value("options", Json::object());
  if (options.value("fold", 0) != 0) out += "; folded onto " + std::to_string(options.value("fold", 0)) + " node(s)";
  return out;
}

std::pair<std::vector<std::string>, std::vector<std::string>> entering_leaving(const Json& a, const Json& b) {
  auto ca = critical_ops(a), cb = critical_ops(b);
  std::vector<std::string> entering, leaving;
  for (const auto& e : cb)
    if (!ca.count(e)) entering.push_back(e);
  for (const auto& e : ca)
    if (!cb.count(e)) leaving.push_back(e);
  return {entering, leaving};
}

}  // namespace

std::string render_diff_text(const DiffInput& before, const DiffInput& after) {
  std::string text = "Before: " + before.path + ": " + describe(before.report) + "\n";
  text += "After:  " + after.path + ": " + describe(after.report) + "\n";
  text += "Change: (after - before) / before; times in ms, utilisation in % of the run time.\n\n";
  const auto all = rows(before.report, after.report);
  std::size_t width = 30;
  for (const auto& r : all) width = std::max(width, r.metric.label.size() + 2);
  char line[512];
  std::snprintf(line, sizeof line, "%-*s %16s %16s %12s\n", static_cast<int>(width), "", "before", "after", "change");
  text += line;
  std::string group = "";
  for (const auto& r : all) {
    if (r.metric.group != group) {
      group = r.metric.group;
      text += "\n" + group + "\n";
    }
    const std::string label = (group.empty() ? "" : "  ") + r.metric.label;
    std::snprintf(line, sizeof line, "%-*s %16s %16s %12s\n", static_cast<int>(width), label.c_str(),
                  format(r.before, r.metric.unit).c_str(), format(r.after, r.metric.unit).c_str(), change(r).c_str());
    text += line;
  }
  const auto [entering, leaving] = entering_leaving(before.report, after.report);
  text += "\nOperations entering the critical path (" + std::to_string(entering.size()) + "):";
  for (std::size_t i = 0; i < entering.size() && i < 20; ++i) text += " " + entering[i];
  text += "\nOperations leaving the critical path (" + std::to_string(leaving.size()) + "):";
  for (std::size_t i = 0; i < leaving.size() && i < 20; ++i) text += " " + leaving[i];
  return text + "\n";
}

Json render_diff_json(const DiffInput& before, const DiffInput& after) {
  static const char* kUnitNames[] = {"ns", "count", "bytes", "fraction"};
  Json j;
  j["schema"] = "realm-replay/diff";
  j["schema_version"] = 1;
  j["before"] = before.path;
  j["after"] = after.path;
  j["before_context"] = before.report.value("context", Json::object());
  j["after_context"] = after.report.value("context", Json::object());
  Json list = Json::array();
  for (const auto& r : rows(before.report, after.report)) {
    Json row = {{"metric", dotted(r.metric.path)}};
    row["before"] = r.before ? Json(*r.before) : Json();
    row["after"] = r.after ? Json(*r.after) : Json();
    const auto rel = relative(r);
    row["relative"] = rel ? Json(*rel) : Json();
    row["group"] = r.metric.group;
    row["unit"] = kUnitNames[static_cast<int>(r.metric.unit)];
    list.push_back(row);
  }
  j["metrics"] = list;
  const auto [entering, leaving] = entering_leaving(before.report, after.report);
  j["critical_path_entering"] = entering;
  j["critical_path_leaving"] = leaving;
  return j;
}

}  // namespace rr::app
