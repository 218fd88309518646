// The delay a replay applied on each edge of the graph: from the source's end to when its effect reached the
// target. The critical path's lower bound and the slack pass both read the replay this way.
#pragma once

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_result.hpp"
#include "replay/task_timing.hpp"
#include "replay/timing_rules.hpp"

namespace rr::replay {

class ReplayedEdges {
 public:
  ReplayedEdges(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                const ReplayResult& r)
      : g_(g), map_(map), model_(model), r_(r), timing_(g, map, model, r.noise) {}

  // For an operation that ended and a target that ran. An issue reaches its action from the issuer's issue point,
  // before the issuer's end: the delay is negative then. Calls for one issuer's out-edges in a row work out its
  // running state once (issue times are recomputed by the engine's rules: the replay keeps none, unless cores
  // were shared).
  std::int64_t delay(graph::VertexId from, graph::VertexId to, graph::EdgeKind kind) {
    if (kind == graph::EdgeKind::issue) {
      if (!r_.issued_at.empty()) return r_.issued_at[to] - r_.end(from);
      if (issuer_ != from) {
        running_ = timing_.as_replayed(from, r_);
        issuer_ = from;
      }
      return timing_.issue_arrival(running_, from, to) - r_.end(from);
    }
    if (kind == graph::EdgeKind::precondition)
      return edge_delay_ns(g_, map_, model_, from, to, kind) + implied_copy_ns(g_, map_, model_, r_, from, to);
    // A measured wait delays the resume after its previous segment: the delay the replay applied.
    if (kind == graph::EdgeKind::continuation && g_.resume_wait(to).awaited == graph::kNoVertex)
      return r_.ready(to) - r_.end(from);
    return edge_delay_ns(g_, map_, model_, from, to, kind);
  }

 private:
  const graph::EventGraph& g_;
  const MachineMap& map_;
  const machine::MachineModel& model_;
  const ReplayResult& r_;
  TaskTiming timing_;
  graph::VertexId issuer_ = graph::kNoVertex;
  Issuing running_{};
};

}  // namespace rr::replay
