// The critical path of a replay (DESIGN §3): from the last operation to finish, back through whatever released
// each operation, every nanosecond of the run classed as compute, copy, runtime, latency, queueing or issue.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"

namespace rr::replay {

enum class PathClass : std::uint8_t {
  compute,   // a task segment running (by processor kind and function)
  copy,      // a copy moving data (by path)
  runtime,   // merges, triggers, barrier arrivals: runtime overheads of the model
  latency,   // an event travelling to where it is awaited (trigger cost, network)
  queueing,  // ready, but its processor or lane was busy
  issue,     // the issuing task had not yet reached the action
  wait,      // a Task Wait on an event no record produces, replayed with its measured duration
};
inline constexpr std::size_t kPathClassCount = 7;
const char* path_class_name(PathClass c);

struct PathStep {
  graph::VertexId vertex;
  PathClass cls;
  std::string label;  // "compute CPU f5", "copy system -> system (remote)", ...
  TimeNs begin;
  TimeNs end;
};

struct CriticalPath {
  TimeNs length_ns = 0;  // equals the replay's estimated time
  std::vector<PathStep> steps;  // from the start of the run to the end
  std::array<TimeNs, kPathClassCount> by_class{};
  std::map<std::string, TimeNs> by_label;  // finer: per kind+function, per copy path
  TimeNs lower_bound_ns = 0;  // infinite-resource bound: the same durations and latencies, no queueing
};

CriticalPath critical_path(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                           const ReplayResult& result);

}  // namespace rr::replay
