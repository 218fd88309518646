// `realm-replay diff A.json B.json`: two replay reports (`replay --json`) metric by metric, with signed relative
// differences, and the operations that enter or leave the critical path.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "commands.hpp"
#include "output_file.hpp"
#include "stats_report.hpp"

namespace rr::app {

namespace {

using Json = nlohmann::ordered_json;

// Numeric leaves of the sections worth comparing, keyed by their dotted path.
void flatten(const Json& j, const std::string& prefix, std::map<std::string, double>& out) {
  if (j.is_number()) {
    out[prefix] = j.get<double>();
  } else if (j.is_object()) {
    for (const auto& [k, v] : j.items()) flatten(v, prefix.empty() ? k : prefix + "." + k, out);
  }
}

std::map<std::string, double> metrics(const Json& report) {
  std::map<std::string, double> out;
  for (const char* key : {"estimated_time_ns", "operations", "stuck", "processor_kinds", "nodes", "copy_paths"})
    if (report.contains(key)) flatten(report[key], key, out);
  if (report.contains("critical_path")) {
    const auto& cp = report["critical_path"];
    for (const char* key : {"length_ns", "lower_bound_ns", "by_class_ns"})
      if (cp.contains(key)) flatten(cp[key], std::string("critical_path.") + key, out);
  }
  return out;
}

std::set<std::string> critical_ops(const Json& report) {
  std::set<std::string> out;
  if (report.contains("critical_path") && report["critical_path"].contains("operations"))
    for (const auto& e : report["critical_path"]["operations"]) out.insert(e.get<std::string>());
  return out;
}

std::optional<Json> read_report(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "realm-replay diff: error: " << path << ": cannot open\n";
    return std::nullopt;
  }
  Json j = Json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    std::cerr << "realm-replay diff: error: " << path << ": not JSON\n";
    return std::nullopt;
  }
  if (j.value("schema", "") != "realm-replay/replay") {
    std::cerr << "realm-replay diff: error: " << path << ": not a replay report (make it with `realm-replay replay --json`)\n";
    return std::nullopt;
  }
  return j;
}

}  // namespace

std::function<int()> add_diff_command(CLI::App& app, CommonOptions&) {
  struct Options {
    std::string a, b;
    bool json = false;
    std::string output;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("diff", "Compare two replay reports (realm-replay replay --json) metric by metric.");
  cmd->add_option("before", opts->a, "the first report")->required();
  cmd->add_option("after", opts->b, "the second report")->required();
  cmd->add_flag("--json", opts->json, "print JSON instead of text");
  cmd->add_option("-o,--output", opts->output, "write to this file (whole or not at all)");
  return [opts]() -> int {
    auto a = read_report(opts->a);
    auto b = read_report(opts->b);
    if (!a || !b) return kExitBadInput;
    auto ma = metrics(*a), mb = metrics(*b);
    std::set<std::string> keys;
    for (const auto& [k, v] : ma) keys.insert(k);
    for (const auto& [k, v] : mb) keys.insert(k);
    auto ca = critical_ops(*a), cb = critical_ops(*b);
    std::vector<std::string> entering, leaving;
    for (const auto& e : cb)
      if (!ca.count(e)) entering.push_back(e);
    for (const auto& e : ca)
      if (!cb.count(e)) leaving.push_back(e);

    std::string text;
    if (opts->json) {
      Json j;
      j["schema"] = "realm-replay/diff";
      j["schema_version"] = 1;
      j["before"] = opts->a;
      j["after"] = opts->b;
      Json rows = Json::array();
      for (const auto& k : keys) {
        Json row = {{"metric", k}};
        row["before"] = ma.count(k) ? Json(ma[k]) : Json();
        row["after"] = mb.count(k) ? Json(mb[k]) : Json();
        if (ma.count(k) && mb.count(k) && ma[k] != 0) row["relative"] = (mb[k] - ma[k]) / ma[k];
        else row["relative"] = Json();
        rows.push_back(row);
      }
      j["metrics"] = rows;
      j["critical_path_entering"] = entering;
      j["critical_path_leaving"] = leaving;
      text = j.dump(2) + "\n";
    } else {
      char line[256];
      std::snprintf(line, sizeof line, "%-56s %18s %18s %10s\n", "metric", "before", "after", "change");
      text += line;
      for (const auto& k : keys) {
        auto fmt = [](const std::map<std::string, double>& m, const std::string& key) {
          if (!m.count(key)) return std::string("-");
          char b[40];
          std::snprintf(b, sizeof b, "%.6g", m.at(key));
          return std::string(b);
        };
        std::string change = "-";
        if (ma.count(k) && mb.count(k)) {
          if (ma[k] != 0) {
            char c[40];
            std::snprintf(c, sizeof c, "%+.2f%%", 100.0 * (mb[k] - ma[k]) / ma[k]);
            change = c;
          } else if (mb[k] == 0) {
            change = "0";
          } else {
            change = "new";
          }
        }
        std::snprintf(line, sizeof line, "%-56s %18s %18s %10s\n", k.c_str(), fmt(ma, k).c_str(), fmt(mb, k).c_str(),
                      change.c_str());
        text += line;
      }
      text += "\nOperations entering the critical path (" + std::to_string(entering.size()) + "):";
      for (std::size_t i = 0; i < entering.size() && i < 20; ++i) text += " " + entering[i];
      text += "\nOperations leaving the critical path (" + std::to_string(leaving.size()) + "):";
      for (std::size_t i = 0; i < leaving.size() && i < 20; ++i) text += " " + leaving[i];
      text += "\n";
    }
    if (!emit_report("diff", opts->output, text)) return kExitBadInput;
    return kExitOk;
  };
}

}  // namespace rr::app
