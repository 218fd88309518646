// The critical path's walk back from the last operation (docs/replay.md, "Critical path and profile"), in pieces that
// may run in different processes: each operation's own time and the gap before it are classed where its record is
// (its owner's), and the gap back to the operation that released it where that one's record is. What crosses from
// one to the other is a Handover; one process walks the whole path by handing over to itself.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/critical_path.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"
#include "replay/task_timing.hpp"

namespace rr::replay {

// The walk between an operation (`from`, whose own time is classed) and the one that released it (`next`): the
// facts of `from` that classing the gap needs, so that `next`'s owner reads only its own record.
struct PathHandover {
  graph::VertexId from = graph::kNoVertex;
  graph::VertexId next = graph::kNoVertex;
  TimeNs hi = 0;                 // where the part of the run not yet classed ends
  std::uint64_t walked = 0;      // operations walked so far (a guard against a cycle of releases)
  Release release = Release::none;
  std::uint8_t measured_wait = 0;          // input: `from` resumes after a wait no record explains
  graph::VertexId issuer = graph::kNoVertex;  // observed: `from`'s issuing task
};

class PathWalk {
 public:
  // `mine` says whether this process holds v's record (null: every record); the walk reads no other, and throws
  // std::logic_error if it would. `whole_vertices`: the whole graph's vertex count, which bounds a walk that does
  // not go round a cycle (0: g's, which a local view's is not).
  PathWalk(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model, const ReplayResult& r,
           std::function<bool(graph::VertexId)> mine = {}, std::uint64_t whole_vertices = 0);

  // Walks back from v, whose end is where the run's classing starts, for as long as the records are this
  // process's; the hand-over to the owner of the next operation, or nothing once the start of the run is reached.
  std::optional<PathHandover> from_last(graph::VertexId v);
  // Goes on from a hand-over whose `next` is this process's.
  std::optional<PathHandover> from(const PathHandover& h);

  // The steps classed so far, in walk order (from the end of the run back), naming their operations by whole id
  // (EventGraph::whole_id: a local view's steps read alike on any rank), and the contention by resource.
  std::vector<PathStep>& walked_steps() { return reversed_; }
  std::map<PathResource, TimeNs>& contention() { return contention_; }
  std::map<std::pair<std::uint32_t, core::ProcessorKind>, TimeNs>& compute_by_function() { return functions_; }

 private:
  std::optional<PathHandover> walk(graph::VertexId v, std::uint64_t walked);
  void check_mine(graph::VertexId v) const;
  void account(graph::VertexId at, PathClass cls, std::string label, TimeNs begin, TimeNs end);
  void contend(graph::VertexId at, const PathResource& res, TimeNs begin, TimeNs end);
  void own_time(graph::VertexId v);
  void compute_of(graph::VertexId v, TimeNs ns);
  std::uint32_t work_node(graph::VertexId v) const;
  TimeNs frozen_within(std::uint32_t node, TimeNs from, TimeNs to) const;
  std::optional<PathHandover> leave(graph::VertexId v, std::uint64_t walked);
  void arrive(const PathHandover& h);
  void to_start(graph::VertexId v);

  const graph::EventGraph& g_;
  const MachineMap& map_;
  const machine::MachineModel& model_;
  const ReplayResult& r_;
  const std::function<bool(graph::VertexId)> mine_;
  const TaskTiming timing_;
  const bool shared_;
  const std::uint64_t longest_;  // operations a walk may take before it has gone round a cycle
  TimeNs hi_ = 0;
  bool via_issue_ = false;
  std::vector<PathStep> reversed_;
  std::map<PathResource, TimeNs> contention_;
  std::map<std::pair<std::uint32_t, core::ProcessorKind>, TimeNs> functions_;
};

// The steps of a walk in run order, and the sums over them (by class, by label), into `cp`.
void lay_steps(std::vector<PathStep> reversed, CriticalPath& cp);

}  // namespace rr::replay
