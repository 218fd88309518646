// What a trace measured of the machine it ran on, for its traced machine: the median copy size from the graph, what
// a Legion Prof log measured on its observed timeline (machine::add_prof_facts), and with --traced-cores the
// lengths of the processors' start-ups, read off the logs' start-up silences (which the graph's Legion Prof build
// finds too, so it is measured here and not in machine_models, which never sees the graph).
#include <algorithm>
#include <cstdio>
#include <vector>

#include "graph/prof_span_work.hpp"
#include "machine_models/prof_facts.hpp"
#include "session/src/trace_cache.hpp"
#include "session/traced_fit.hpp"

namespace rr::session {

namespace {

// With the traced cores known (--traced-cores): the lengths of the start-ups the logs measured, in order, and of one
// they did not (graph::measured_start_ups). Nothing when no log has one.
void add_processor_start(const core::TraceRecords& trace, machine::TracedFacts& facts) {
  if (trace.format != core::TraceFormat::legion_prof) return;
  std::vector<std::vector<graph::SilentWindow>> windows;
  for (const auto& f : trace.files) windows.push_back(graph::silent_windows(f.profile));
  const graph::MeasuredStartUps measured = graph::measured_start_ups(windows);
  if (measured.silences == 0) return;
  char note[200];
  std::snprintf(note, sizeof note,
                "the median length of the log's %.0f start-up silence(s) of 20 ms or more, one per processor: a "
                "start-up the log did not measure",
                static_cast<double>(measured.silences));
  facts.processor_start_ns = machine::MeasuredValue{static_cast<double>(measured.typical), "[T]", note};
  facts.processor_starts_ns.assign(measured.in_order.begin(), measured.in_order.end());
}

}  // namespace

machine::TracedFacts traced_facts(const LoadedTrace& trace) {
  if (trace.cache && trace.cache->packed_facts) return *trace.cache->packed_facts;
  machine::TracedFacts facts;
  std::vector<std::uint64_t> sizes;
  const graph::EventGraph& g = trace.graph();
  for (graph::VertexId v = 0; v < g.vertex_count(); ++v)
    if (g.kind(v) == graph::OpKind::copy && g.copy(v).bytes != graph::kNoValue && g.copy(v).bytes > 0)
      sizes.push_back(g.copy(v).bytes);
  if (!sizes.empty()) {
    std::nth_element(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(sizes.size() / 2), sizes.end());
    facts.median_copy_bytes = sizes[sizes.size() / 2];
  }
  machine::add_prof_facts(trace.records, facts);
  if (trace.traced_cores > 0) {
    facts.cores = traced_cores_fact(trace.traced_cores);
    add_processor_start(trace.records, facts);
  }
  return facts;
}

machine::MeasuredValue traced_cores_fact(std::uint32_t traced_cores) {
  return {static_cast<double>(traced_cores), "[G]",
          "given with --traced-cores: the cores each traced process's threads shared"};
}

}  // namespace rr::session
