// `realm-replay critpath TRACE --machine FILE`: why the run takes as long as it does.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "output_file.hpp"
#include "bounds_report.hpp"
#include "replay/critical_operations.hpp"
#include "replay/critical_path.hpp"
#include "replay/slack.hpp"
#include "replay_report.hpp"
#include "trace_inputs.hpp"
#include "text_format.hpp"

namespace rr::app {

namespace {

// The operations with slack under 1% of the run, by end time: those on the critical path and those nearly on it.
struct NearCritical {
  replay::TimeNs threshold_ns = 0;
  std::vector<graph::VertexId> operations;
  std::vector<replay::TimeNs> slack;  // every operation's (replay::operation_slack)
};

NearCritical near_critical(const OpenedReplay& s) {
  const auto& r = s.run.result;
  NearCritical out;
  out.slack = replay::operation_slack(s.trace.graph(), s.run.map, s.run.model, r);
  const std::vector<replay::TimeNs>& slack = out.slack;
  out.threshold_ns = replay::near_critical_slack(r.makespan_ns);
  for (graph::VertexId v = 0; v < slack.size(); ++v)
    if (slack[v] != replay::kUnboundedSlack && slack[v] < std::max<replay::TimeNs>(1, out.threshold_ns) && r.counts(v))
      out.operations.push_back(v);
  std::stable_sort(out.operations.begin(), out.operations.end(),
                   [&](graph::VertexId a, graph::VertexId b) { return r.end(a) < r.end(b); });
  return out;
}

nlohmann::ordered_json slack_json(replay::TimeNs slack) {
  return slack == replay::kUnboundedSlack ? nlohmann::ordered_json() : nlohmann::ordered_json(slack);
}

// At most this many near-critical operations are listed in JSON (all are counted).
constexpr std::size_t kNearCriticalListed = 1000;

std::string render_text(const OpenedReplay& s, const std::vector<std::string>& overrides, const replay::CriticalPath& cp,
                        std::size_t top, const std::string& bounded_by, const NearCritical& near) {
  std::string out = machine_line(s.run.model, s.run.map, overrides) + "\n";
  out += "Critical path: " + ms(cp.length_ns) +
                    " ms (the estimated run time); infinite-resource lower bound: " + lower_bound_ms(cp.lower_bound_ns) + "; " +
                    std::to_string(cp.steps.size()) + " steps\n\n" + (bounded_by.empty() ? "" : bounded_by + "\n") +
         "By class            time (ms)    share\n";
  for (std::size_t c = 0; c < replay::kPathClassCount; ++c) {
    char line[120];
    std::snprintf(line, sizeof line, "  %-14s %12s %8s\n", replay::path_class_name(static_cast<replay::PathClass>(c)),
                  ms(cp.by_class[c]).c_str(), (share(cp.by_class[c], cp.length_ns) + "%").c_str());
    out += line;
  }
  std::vector<std::pair<replay::TimeNs, std::string>> contended;
  for (const auto& [resource, t] : cp.contention) contended.emplace_back(t, replay::resource_name(resource));
  std::sort(contended.begin(), contended.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  if (!contended.empty()) out += "\nContention by resource                             time (ms)    share\n";
  for (std::size_t i = 0; i < contended.size() && i < top; ++i) {
    char line[200];
    std::snprintf(line, sizeof line, "  %-46s %11s %8s\n", contended[i].second.c_str(), ms(contended[i].first).c_str(),
                  (share(contended[i].first, cp.length_ns) + "%").c_str());
    out += line;
  }
  std::vector<std::pair<replay::TimeNs, std::string>> labels;
  for (const auto& [label, t] : cp.by_label) labels.emplace_back(t, label);
  std::sort(labels.begin(), labels.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  out += "\nBy processor kind and function, copy path         time (ms)    share\n";
  for (std::size_t i = 0; i < labels.size() && i < top; ++i) {
    char line[200];
    std::snprintf(line, sizeof line, "  %-46s %11s %8s\n", labels[i].second.c_str(), ms(labels[i].first).c_str(),
                  (share(labels[i].first, cp.length_ns) + "%").c_str());
    out += line;
  }
  out += "\nNear-critical: " + std::to_string(near.operations.size()) +
         " operation(s) could end no more than 1% of the run (" + ms(near.threshold_ns) +
         " ms) later without moving its end (--json lists them; slack per operation: export --sqlite, Python)\n";
  std::vector<const replay::PathStep*> steps = replay::work_steps(cp);
  std::sort(steps.begin(), steps.end(), [](const auto* a, const auto* b) {
    return (a->end - a->begin) != (b->end - b->begin) ? (a->end - a->begin) > (b->end - b->begin) : a->begin < b->begin;
  });
  out += "\nTop operations on the path                         time (ms)   at (ms)\n";
  for (std::size_t i = 0; i < steps.size() && i < top; ++i) {
    char line[220];
    std::snprintf(line, sizeof line, "  %-30s %-18s %11s %9s\n", steps[i]->label.c_str(),
                  core::to_string(s.trace.graph().event(steps[i]->vertex)).c_str(), ms(steps[i]->end - steps[i]->begin).c_str(),
                  ms(steps[i]->begin).c_str());
    out += line;
  }
  return out;
}

nlohmann::ordered_json render_json(const OpenedReplay& s, const replay::CriticalPath& cp, const RunContext& ctx,
                                   const NearCritical& near) {
  nlohmann::ordered_json j;
  j["schema"] = "realm-replay/critpath";
  j["schema_version"] = 2;  // 2: contention (was queueing) by resource, bounded_by, near_critical
  j["context"] = context_json(ctx);
  j["estimated_time_ns"] = s.run.result.makespan_ns;
  j["length_ns"] = cp.length_ns;
  j["lower_bound_ns"] = lower_bound_json(cp.lower_bound_ns);
  j["by_class_ns"] = path_classes_json(cp.by_class);
  j["contention_by_resource_ns"] = contention_json(cp);
  j["by_label_ns"] = cp.by_label;
  nlohmann::ordered_json steps = nlohmann::ordered_json::array();
  for (const auto& st : cp.steps)
    steps.push_back({{"vertex", st.vertex}, {"event", core::to_string(s.trace.graph().event(st.vertex))},
                     {"class", replay::path_class_name(st.cls)}, {"label", st.label}, {"begin_ns", st.begin},
                     {"end_ns", st.end}, {"slack_ns", slack_json(near.slack[st.vertex])}});
  j["steps"] = steps;
  nlohmann::ordered_json listed = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < near.operations.size() && i < kNearCriticalListed; ++i) {
    const graph::VertexId v = near.operations[i];
    listed.push_back({{"vertex", v}, {"event", core::to_string(s.trace.graph().event(v))}, {"slack_ns", near.slack[v]}});
  }
  j["near_critical"] = {{"threshold_ns", near.threshold_ns}, {"count", near.operations.size()}, {"operations", listed}};
  return j;
}

}  // namespace

std::function<int()> add_critpath_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    ReplayInputs in;
    bool json = false;
    std::size_t top = 15;
    std::string output;
    bool no_what_ifs = false;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "critpath", "The critical path of a replay: its length, the infinite-resource lower bound, and where the time goes.");
  add_replay_inputs(cmd, opts->in, common);
  cmd->add_flag("--json", opts->json, "print JSON instead of text");
  cmd->add_option("--top", opts->top, "rows in the breakdown and operation lists")->capture_default_str();
  cmd->add_option("-o,--output", opts->output, "write the report to this file (whole or not at all)");
  add_what_if_flag(cmd, opts->no_what_ifs);
  return [opts, &common]() -> int {
    RunContext ctx = replay_context("critpath", opts->in, common);
    auto s = open_replay("critpath", opts->in, common);
    if (!s) return kExitBadInput;
    const replay::CriticalPath& cp = *s->run.critical;
    const std::vector<session::RunBound> bounds = bounds_of(*s, opts->no_what_ifs, common.threads);
    ctx.machine = machine_context(opts->in, *s);
    ctx.stop_clock();
    const NearCritical near = near_critical(*s);
    std::string report;
    if (opts->json) {
      nlohmann::ordered_json j = render_json(*s, cp, ctx, near);
      j["bounded_by"] = bounds_json("critpath", opts->in, bounds, cp.length_ns);
      report = j.dump(2) + "\n";
    } else {
      report = render_text(*s, opts->in.overrides, cp, opts->top,
                           bounds_text("critpath", opts->in, bounds, cp.length_ns, opts->no_what_ifs, placement_of(*s)),
                           near);
    }
    if (!emit_report("critpath", opts->output, report)) return kExitBadInput;
    return kExitOk;
  };
}

}  // namespace rr::app
