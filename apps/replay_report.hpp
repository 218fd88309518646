// Rendering of a replay: estimated time, utilisation per processor kind and node, copies per path, stuck work
// (its timeline: timeline_report.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/critical_path.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"
#include "replay/utilisation.hpp"
#include "session/perturbation.hpp"
#include "stats_report.hpp"

namespace rr::app {

struct ReplayView {
  const graph::EventGraph& graph;
  const machine::MachineModel& model;
  const replay::MachineMap& map;
  const replay::ReplayResult& result;
  const replay::CriticalPath* critical = nullptr;  // included in JSON when given (for `diff`)
  std::vector<std::string> overrides;               // the --set values, named in the text header
  std::string bounded_by;                           // "Bounded by ..." lines (bounds_report.hpp), after the estimate
};

// "Machine: titan (...), 2 node(s) (the trace's 4 nodes folded onto them); overrides: a=1, b=2": the first line of
// the text reports that replay on one machine.
std::string machine_line(const machine::MachineModel& model, const replay::MachineMap& map,
                         const std::vector<std::string>& overrides);

std::string render_replay_text(const ReplayView& v);
// {"compute": ns, "copy": ns, ...}: time per critical-path class, in class order.
// The infinite-resource lower bound, null when the graph has a cycle (the analysis gives -1 then).
inline nlohmann::ordered_json lower_bound_json(replay::TimeNs ns) {
  return ns < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(ns);
}
nlohmann::ordered_json path_classes_json(const std::array<replay::TimeNs, replay::kPathClassCount>& by_class);
// The critical path's compute by the kind it ran on: {"GPU": ns, "CPU": ns, "utility": ns, "other": ns}.
inline nlohmann::ordered_json critical_compute_json(const std::array<replay::TimeNs, replay::kApplicationKindCount + 1>& t) {
  return {{"GPU", t[0]}, {"CPU", t[1]}, {"utility", t[2]}, {"other", t[3]}};
}
// A value that may be missing: null when it is.
template <typename T>
nlohmann::ordered_json optional_json(const std::optional<T>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json();
}
// A run's moves as a list: "18=gpu:0.0191 20=gpu" -> ["18=gpu:0.0191", "20=gpu"]; "-" (none) -> [].
inline nlohmann::ordered_json moves_json(const std::string& moves) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (std::size_t at = 0; moves != "-" && at < moves.size();) {
    const std::size_t end = std::min(moves.find(' ', at), moves.size());
    list.push_back(moves.substr(at, end - at));
    at = end + 1;
  }
  return list;
}
// The critical path's contention by resource: {"utility processors, node 0": ns, ...}
nlohmann::ordered_json contention_json(const replay::CriticalPath& cp);
nlohmann::ordered_json render_replay_json(const ReplayView& v, const RunContext& ctx);

// The estimate under noise (replay --perturb): mean and percentiles.
std::string distribution_text(const session::EstimateDistribution& d);
nlohmann::ordered_json distribution_json(const session::EstimateDistribution& d);

}  // namespace rr::app
