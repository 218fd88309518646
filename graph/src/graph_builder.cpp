// The graph build: its phases in order (each in its own file under graph/src/builder/), the freeze into CSR, and
// the entry points.
#include "graph/graph_builder.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <array>
#include <span>

#include "graph/src/builder/graph_builder_impl.hpp"

namespace rr::graph {
namespace build_detail {

BuildResult GraphBuilder::build() {
  lay_out_batches();
  fill_all_vertices();
  place_slabs();
  collect_barriers();
  complete_barriers();
  register_producers();
  join_all_timings();
  // Written by resolve only: sized once the timing records are freed, not at the producer table's peak.
  v_.issuer.resize(v_.size(), kNoVertex);
  tbb::parallel_for(std::size_t{0}, work_.size(), [&](std::size_t i) { resolve(work_[i]); });
  join_batches();
  place_nodes();
  // The event tables are not needed past this point: free them before the CSR is built (the producers' parts are
  // small enough to live inside the heap, which keeps freed pages unless told).
  freed_.released(producers_.release());
  phases_ = EventTable();
  order_actions();
  split_tasks_at_waits();
  freeze();
  check_merge_counts();
  check_timing_joins();
  check_cycles();
  log_.append_to(out_.findings);
  return std::move(out_);
}

void GraphBuilder::set_vertex(VertexId v, OpKind kind, const core::EventKey& event, std::uint32_t payload) {
  v_.kind[v] = kind;
  v_.event[v] = event;
  v_.payload[v] = payload;
}

// Every edge in input order: barrier arrivals and phase order, each batch's, then the waits'. Within a
// vertex, the frozen graph keeps that order, which is deterministic.
void GraphBuilder::freeze() {
  std::vector<std::span<const Edge>> runs;
  runs.reserve(work_.size() + 2);
  runs.emplace_back(barrier_edges_);
  for (const BatchWork& w : work_) runs.emplace_back(w.edges.data, w.edges.size);
  runs.emplace_back(tail_edges_);
  out_.graph = EventGraph::freeze(std::move(v_), runs);
  barrier_edges_ = {};
  tail_edges_ = {};
  work_ = {};
  edge_slab_.reset();
}

}  // namespace build_detail

namespace {
BuildResult build_in_arena(const core::TraceRecords& trace, core::TraceRecords* releasable, const BuildOptions& options,
                           unsigned threads) {
  if (threads == 0) return build_detail::GraphBuilder(trace, releasable, options).build();
  tbb::task_arena arena(static_cast<int>(threads));
  return arena.execute([&] { return build_detail::GraphBuilder(trace, releasable, options).build(); });
}
}  // namespace

BuildResult build_event_graph(const core::TraceRecords& trace, const BuildOptions& options, unsigned threads) {
  return build_in_arena(trace, nullptr, options, threads);
}

BuildResult build_event_graph_releasing(core::TraceRecords& trace, const BuildOptions& options, unsigned threads) {
  return build_in_arena(trace, &trace, options, threads);
}

}  // namespace rr::graph
