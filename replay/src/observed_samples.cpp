#include "replay/src/observed_samples.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "graph/prof_graph_builder.hpp"

namespace rr::replay {

namespace {

using graph::OpKind;
using graph::VertexId;

ObservedGroup group_of(const graph::EventGraph& g, VertexId v) {
  if (g.kind(v) == OpKind::copy) {
    const auto& c = g.copy(v);
    return c.src_memory == c.dst_memory ? ObservedGroup::fill : ObservedGroup::copy;  // a fill writes into one memory
  }
  const std::uint32_t f = g.task(v).func_id;
  if (f >= graph::kProfilerFunction) return ObservedGroup::profiler;
  if (f >= graph::kPartitionFunction) return ObservedGroup::partition;
  if (f >= graph::kMetaFunction) return ObservedGroup::meta_task;
  return ObservedGroup::task;
}

}  // namespace

std::size_t nearest_rank(double q, std::size_t n) {
  return static_cast<std::size_t>(std::max(1.0, std::ceil(q * static_cast<double>(n))));
}

ObservedSampleSet collect_observed_samples(const graph::EventGraph& g, const ReplayResult& r, const RecordOf& record_of) {
  ObservedSampleSet out;
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    const OpKind kind = g.kind(v);
    if (kind != OpKind::task && kind != OpKind::background && kind != OpKind::copy) continue;
    const TimeNs observed_start = g.observed_start(v), observed_end = g.observed_end(v);
    if (observed_start == graph::kNoTime || observed_end == graph::kNoTime) continue;
    const VertexId record = record_of(v);
    if (record == graph::kNoVertex || !r.counts(record)) continue;
    out.observed_makespan_ns = std::max(out.observed_makespan_ns, observed_end);
    // A task split by its waits ends with its last segment. Busy is what ran, on both sides: the observed span
    // less its waits, the replayed segments' own durations (not the waits and queueing between them). A task's
    // segments are its own, so they are wherever the task is.
    VertexId last = record;
    TimeNs observed_busy = observed_end - observed_start;
    TimeNs replayed_busy = 0;
    bool replayed = r.start(record) != kNever && r.end(record) != kNever;
    if (replayed) replayed_busy = r.end(record) - r.start(record);
    if (kind == OpKind::task)
      for (const graph::WaitInfo& w : g.waits_of(v)) {
        observed_busy -= w.wait_ns;
        if (w.resume == graph::kNoVertex) continue;
        last = record_of(w.resume);
        if (last == graph::kNoVertex) throw std::logic_error("a task's resumed segment is not where the task is");
        replayed = replayed && r.start(last) != kNever && r.end(last) != kNever;
        if (replayed) replayed_busy += r.end(last) - r.start(last);
      }
    if (!replayed) {
      ++out.not_replayed;
      continue;
    }
    ++out.operations;
    const TimeNs start_error = r.start(record) - observed_start, end_error = r.end(last) - observed_end;
    auto add = [&](ObservedSamples& s) {
      s.start.push_back(start_error);
      s.end.push_back(end_error);
      s.observed_busy += std::max<TimeNs>(0, observed_busy);
      s.replayed_busy += replayed_busy;
    };
    add(out.by_group[static_cast<std::size_t>(group_of(g, v))]);
    if (kind != OpKind::copy) add(out.by_function[g.task(v).func_id]);
  }
  return out;
}

}  // namespace rr::replay
