// The wait split: resume vertices and the segment each edge leaves from. A task's waits are a contiguous run
// sorted by position, so the segment of an action is found by binary search, not by walking the waits.
#include "graph/src/builder/wait_split.hpp"

#include <algorithm>

namespace rr::graph::build_detail {

std::vector<Edge> WaitSplit::add_resumes(VertexTable& v) {
  std::vector<Edge> tail;
  first_resume_ = v.size();
  if (v.waits.empty()) return tail;
  for (std::uint32_t i = 0; i < v.waits.size(); ++i) {
    WaitInfo& w = v.waits[i];
    w.resume = v.add(OpKind::task_resume, v.node[w.task], v.event[w.task], i);
  }
  last_segment_.assign(first_resume_, kNoVertex);
  for (std::uint32_t i = 0; i < v.waits.size(); ++i) {
    const WaitInfo& w = v.waits[i];
    const TaskInfo& t = v.tasks[v.payload[w.task]];
    const VertexId previous = i == t.first_wait ? w.task : v.waits[i - 1].resume;
    tail.push_back({previous, w.resume, EdgeKind::continuation});
    if (w.awaited != kNoVertex) tail.push_back({w.awaited, w.resume, EdgeKind::wait});
    last_segment_[w.task] = w.resume;
  }
  return tail;
}

void WaitSplit::move_sources(const VertexTable& v, std::span<Edge> edges) const {
  if (last_segment_.empty()) return;
  for (Edge& e : edges) {
    if (e.from >= first_resume_ || v.kind[e.from] != OpKind::task || last_segment_[e.from] == kNoVertex) continue;
    if (e.kind == EdgeKind::issue) {
      // The segment of the action at position k: the resume after the last wait before k.
      const std::uint32_t k = v.position[e.to];
      const auto waits = v.waits_of(e.from);
      const auto after = std::lower_bound(waits.begin(), waits.end(), k,
                                          [](const WaitInfo& w, std::uint32_t pos) { return w.position < pos; });
      e.from = after == waits.begin() ? e.from : std::prev(after)->resume;
    } else if (e.kind != EdgeKind::continuation) {
      e.from = last_segment_[e.from];  // the finish event fires when the last segment ends
    }
  }
}

}  // namespace rr::graph::build_detail
