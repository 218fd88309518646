// Splitting tasks at their Task Waits, for every graph builder (text logs and Legion Prof logs): each wait gets
// a task_resume vertex that follows the previous segment and the awaited event. Issue edges leave the segment
// their action is in; edges out of the task's finish event leave its last segment. Without this split, a task
// that issues work and then waits for it would look like a cycle.
#pragma once

#include <span>
#include <vector>

#include "graph/event_graph.hpp"

namespace rr::graph::build_detail {

class WaitSplit {
 public:
  // Adds the task_resume vertices of `v`'s waits (sorted by task and position, TaskInfo::first_wait and the
  // positions of the actions set) and returns the continuation and wait edges they need.
  std::vector<Edge> add_resumes(VertexTable& v);
  // Moves the sources of `edges` onto the right segment; safe to call on disjoint edge runs in parallel.
  void move_sources(const VertexTable& v, std::span<Edge> edges) const;

 private:
  VertexId first_resume_ = 0;
  std::vector<VertexId> last_segment_;  // by task vertex, for tasks that wait
};

}  // namespace rr::graph::build_detail
