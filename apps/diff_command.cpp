// `realm-replay diff A.json B.json`: reads two replay reports (`replay --json`) and prints them metric by metric.
#include <fstream>
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "core/text_file.hpp"
#include "output_file.hpp"
#include "diff_report.hpp"
#include "messages.hpp"

namespace rr::app {

namespace {

using Json = nlohmann::ordered_json;

std::optional<Json> read_report(const std::string& path) {
  auto text = core::read_text_file(path, "replay report");
  if (!text) {
    print_error("diff", text.error().to_string());
    return std::nullopt;
  }
  Json j = Json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    print_error("diff", path + ": not JSON");
    return std::nullopt;
  }
  if (j.value("schema", "") != "realm-replay/replay") {
    print_error("diff", path + ": not a replay report (make it with `realm-replay replay --json`)");
    return std::nullopt;
  }
  // Schema 1 called the critical path's contention "queueing" (time ready, with its resource taken).
  if (j.value("schema_version", 1) < 2 && j.contains("critical_path") && j["critical_path"].is_object()) {
    Json& classes = j["critical_path"]["by_class_ns"];
    if (classes.is_object() && classes.contains("queueing")) {
      Json renamed = Json::object();
      for (auto it = classes.begin(); it != classes.end(); ++it) renamed[it.key() == "queueing" ? "contention" : it.key()] = it.value();
      classes = std::move(renamed);
    }
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
  CLI::App* cmd = app.add_subcommand(
      "diff", "Compare two replay reports (realm-replay replay --json) metric by metric. Use diff for one trace "
              "replayed two ways (two machines, two settings); `explain A B` to say why one run is slower than another "
              "(two traces of one application); `profile --against-trace` for where busy time moved per task context.");
  cmd->add_option("before", opts->a, "the first report")->required();
  cmd->add_option("after", opts->b, "the second report")->required();
  cmd->add_flag("--json", opts->json, "print JSON instead of text");
  cmd->add_option("-o,--output", opts->output, "write to this file (whole or not at all)");
  return [opts]() -> int {
    auto a = read_report(opts->a);
    auto b = read_report(opts->b);
    if (!a || !b) return kExitBadInput;
    const DiffInput before{opts->a, std::move(*a)}, after{opts->b, std::move(*b)};
    const std::string text = opts->json ? render_diff_json(before, after).dump(2) + "\n" : render_diff_text(before, after);
    if (!emit_report("diff", opts->output, text)) return kExitBadInput;
    return kExitOk;
  };
}

}  // namespace rr::app
