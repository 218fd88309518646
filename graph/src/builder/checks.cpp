// Checks on the frozen graph: merge input counts, timing records joined, cycles.
#include <algorithm>
#include <string>

#include "graph/graph_algorithms.hpp"
#include "graph/src/builder/graph_builder_impl.hpp"

namespace rr::graph::build_detail {

// The Event Preconditions found for a merge are its merge_input edges plus those whose input nothing
// produces (NO_EVENT, external, before a barrier's first phase).
void GraphBuilder::check_merge_counts() {
  const EventGraph& graph = out_.graph;
  std::sort(unproduced_merge_inputs_.begin(), unproduced_merge_inputs_.end());
  // Counted along the forward edges: the graph's reverse CSR is only built for the commands that need it.
  std::vector<std::uint32_t> inputs(graph.vertex_count(), 0);
  for (VertexId v = 0; v < graph.vertex_count(); ++v) {
    auto succ = graph.successors(v);
    auto kinds = graph.successor_kinds(v);
    for (std::size_t i = 0; i < succ.size(); ++i) inputs[succ[i]] += kinds[i] == EdgeKind::merge_input;
  }
  auto unproduced = unproduced_merge_inputs_.cbegin();
  for (VertexId m = 0; m < graph.vertex_count(); ++m) {
    if (graph.kind(m) != OpKind::merge) continue;
    std::uint64_t found = inputs[m];
    for (; unproduced != unproduced_merge_inputs_.cend() && *unproduced == m; ++unproduced) ++found;
    if (found != graph.payload(m))
      log_.note(core::Stat::merge_count_mismatch, graph.event(m), [&] {
        return "announced " + std::to_string(graph.payload(m)) + ", found " + std::to_string(found);
      });
  }
  unproduced_merge_inputs_ = {};
}

void GraphBuilder::check_timing_joins() {
  const EventGraph& graph = out_.graph;
  for (VertexId v = 0; v < graph.vertex_count(); ++v) {
    if (graph.kind(v) == OpKind::task && graph.task(v).time_ns == kNoTime)
      log_.note(core::Stat::task_without_time, graph.event(v));
    else if (graph.kind(v) == OpKind::copy && graph.copy(v).bytes == kNoValue)
      log_.note(core::Stat::copy_without_size, graph.event(v));
  }
}

void GraphBuilder::check_cycles() {
  const EventGraph& graph = out_.graph;
  out_.findings.cycle = find_cycle(graph);
  if (out_.findings.cycle.empty()) return;
  log_.note(core::Stat::cycle, graph.event(out_.findings.cycle.front()), [&] {
    std::string detail;
    for (VertexId v : out_.findings.cycle)
      detail += (detail.empty() ? "" : " -> ") + std::string(op_kind_name(graph.kind(v))) + " " +
                core::to_string(graph.event(v));
    return detail;
  });
}

}  // namespace rr::graph::build_detail
