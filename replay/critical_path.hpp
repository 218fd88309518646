// The critical path of a replay: from the last operation to finish, back through the input that made each operation
// ready, every nanosecond of the run classed as compute, copy, runtime, latency, contention, issue or wait
// (docs/replay.md, "Critical path").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
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
  contention,  // ready, but its processor, copy lane or core was taken by other work (by resource)
  issue,     // the issuing task had not yet reached the action
  wait,      // a Task Wait on an event no record produces, replayed with its measured duration
};
inline constexpr std::size_t kPathClassCount = 7;
const char* path_class_name(PathClass c);

// A step names its operation by its whole-graph id, and carries the operation's event: over ranks the process that
// reports the path (rank 0) need not hold the operation (a replay from parts holds only its own part of the graph).
struct PathStep {
  graph::VertexId vertex;
  PathClass cls;
  std::string label;  // "compute CPU f5", "copy system -> system (remote)", "contention utility n0", ...
  TimeNs begin;
  TimeNs end;
  core::EventKey event{};  // the operation's event, "(id,gen)" in the reports
};

// What an operation on the path queued for: the processors of one kind on one model node, the lanes of one copy
// path leaving one node, a node's cores (when a machine sets node.cores and threads shared them), or a node's
// processor start-ups (runtime.processor_start_ns: one after another, each holding the node's runtime).
struct PathResource {
  enum class Type : std::uint8_t { processors, copy_lanes, cores, start_ups, other };
  Type type = Type::other;
  core::ProcessorKind kind = core::ProcessorKind::cpu;  // processors
  std::string path;                                     // copy_lanes: the copy path's name
  core::MemoryKind src = core::MemoryKind::system;      // copy_lanes: its ends, and whether it crosses nodes
  core::MemoryKind dst = core::MemoryKind::system;
  bool remote = false;
  std::uint32_t node = 0;
  auto operator<=>(const PathResource&) const = default;
};
// "utility processors, node 0", "copy lanes system -> system (local), node 1", "cores, node 0"
std::string resource_name(const PathResource& r);
// The same resource on every node: "utility processors (all nodes)"
std::string resource_group_name(const PathResource& r);

struct CriticalPath {
  TimeNs length_ns = 0;  // equals the replay's estimated time
  std::vector<PathStep> steps;  // from the start of the run to the end
  std::array<TimeNs, kPathClassCount> by_class{};
  std::map<std::string, TimeNs> by_label;  // finer: per kind+function, per copy path, per contended resource
  std::map<PathResource, TimeNs> contention;  // the contention class by resource; sums to by_class[contention]
  // The compute class by function and the kind it ran on (a task on no model processor left out; background work
  // as CPU): what "Bounded by" ranks functions by, summed where each step's operation is known.
  std::map<std::pair<std::uint32_t, core::ProcessorKind>, TimeNs> compute_by_function;
  TimeNs lower_bound_ns = 0;  // infinite-resource bound: the same durations and latencies, no queueing
};

CriticalPath critical_path(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                           const ReplayResult& result);

}  // namespace rr::replay
