// One model processor's state in one place (a dispatch reads it all): whether it runs a segment, the task that
// holds it through a wait, and the queues it serves, the first two here (most serve one or two), the rest in a list
// of their own.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/event_graph.hpp"

namespace rr::replay {

struct ProcessorState {
  static constexpr std::uint32_t kNone = ~0u;
  graph::VertexId held_by = graph::kNoVertex;
  std::uint32_t queue[2] = {kNone, kNone};
  std::uint32_t more = kNone;  // index into the engine's lists of further queues
  bool busy = false;
  bool started = false;  // its start-up is done (runtime.processor_start_ns)

  bool idle() const { return !busy && held_by == graph::kNoVertex; }
  void serve(std::uint32_t q, std::vector<std::vector<std::uint32_t>>& more_queues) {
    if (queue[0] == kNone) queue[0] = q;
    else if (queue[1] == kNone) queue[1] = q;
    else {
      if (more == kNone) {
        more = static_cast<std::uint32_t>(more_queues.size());
        more_queues.emplace_back();
      }
      more_queues[more].push_back(q);
    }
  }
  // f(q) on each queue it serves, in the order it was given them.
  template <typename F>
  void for_each_queue(const std::vector<std::vector<std::uint32_t>>& more_queues, F&& f) const {
    if (queue[0] == kNone) return;
    f(queue[0]);
    if (queue[1] == kNone) return;
    f(queue[1]);
    if (more != kNone)
      for (const std::uint32_t q : more_queues[more]) f(q);
  }
};

}  // namespace rr::replay
