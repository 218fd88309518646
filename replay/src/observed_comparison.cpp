#include "replay/observed_comparison.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "graph/prof_graph_builder.hpp"

namespace rr::replay {

namespace {

using graph::OpKind;
using graph::VertexId;

enum class Group : std::uint8_t { task, meta_task, partition, profiler, copy, fill, count };
constexpr std::array<const char*, static_cast<std::size_t>(Group::count)> kGroupNames{"task", "meta-task", "partition",
                                                                                      "profiler", "copy", "fill"};

Group group_of(const graph::EventGraph& g, VertexId v) {
  if (g.kind(v) == OpKind::copy) {
    const auto& c = g.copy(v);
    return c.src_memory == c.dst_memory ? Group::fill : Group::copy;  // a fill writes into one memory (prof builder)
  }
  const std::uint32_t f = g.task(v).func_id;
  if (f >= graph::kProfilerFunction) return Group::profiler;
  if (f >= graph::kPartitionFunction) return Group::partition;
  if (f >= graph::kMetaFunction) return Group::meta_task;
  return Group::task;
}

struct Samples {
  std::vector<TimeNs> start, end;
  TimeNs observed_busy = 0, replayed_busy = 0;
};

// Nearest rank: the smallest value with at least q of the samples at or below it.
TimeNs quantile(std::vector<TimeNs>& x, double q) {
  if (x.empty()) return 0;
  auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(q * static_cast<double>(x.size()))));
  std::nth_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(rank - 1), x.end());
  return x[rank - 1];
}

ObservedErrors errors_of(std::string name, Samples& s) {
  ObservedErrors e;
  e.name = std::move(name);
  e.count = s.start.size();
  e.observed_busy_ns = s.observed_busy;
  e.replayed_busy_ns = s.replayed_busy;
  e.start_median_ns = quantile(s.start, 0.5);
  e.end_median_ns = quantile(s.end, 0.5);
  for (auto* x : {&s.start, &s.end})
    for (TimeNs& t : *x) t = t < 0 ? -t : t;
  e.start_p95_abs_ns = quantile(s.start, 0.95);
  e.end_p95_abs_ns = quantile(s.end, 0.95);
  return e;
}

}  // namespace

std::optional<ObservedComparison> compare_with_observed(const graph::EventGraph& g, const ReplayResult& r) {
  if (!g.has_observed()) return std::nullopt;
  ObservedComparison out;
  out.estimated_ns = r.makespan_ns;
  std::array<Samples, static_cast<std::size_t>(Group::count)> by_group;
  std::map<std::uint32_t, Samples> by_function;
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    const OpKind kind = g.kind(v);
    if (kind != OpKind::task && kind != OpKind::background && kind != OpKind::copy) continue;
    const TimeNs observed_start = g.observed_start(v), observed_end = g.observed_end(v);
    if (observed_start == graph::kNoTime || observed_end == graph::kNoTime || !r.counts(v)) continue;
    out.observed_makespan_ns = std::max(out.observed_makespan_ns, observed_end);
    // A task split by its waits ends with its last segment. Busy is what ran, on both sides: the observed span
    // less its waits, the replayed segments' own durations (not the waits and queueing between them).
    VertexId last = v;
    TimeNs observed_busy = observed_end - observed_start;
    TimeNs replayed_busy = 0;
    bool replayed = r.start(v) != kNever && r.end(v) != kNever;
    if (replayed) replayed_busy = r.end(v) - r.start(v);
    if (kind == OpKind::task)
      for (const graph::WaitInfo& w : g.waits_of(v)) {
        observed_busy -= w.wait_ns;
        if (w.resume == graph::kNoVertex) continue;
        last = w.resume;
        replayed = replayed && r.start(w.resume) != kNever && r.end(w.resume) != kNever;
        if (replayed) replayed_busy += r.end(w.resume) - r.start(w.resume);
      }
    if (!replayed) {
      ++out.not_replayed;
      continue;
    }
    ++out.operations;
    const TimeNs start_error = r.start(v) - observed_start, end_error = r.end(last) - observed_end;
    auto add = [&](Samples& s) {
      s.start.push_back(start_error);
      s.end.push_back(end_error);
      s.observed_busy += std::max<TimeNs>(0, observed_busy);
      s.replayed_busy += replayed_busy;
    };
    add(by_group[static_cast<std::size_t>(group_of(g, v))]);
    if (kind != OpKind::copy) add(by_function[g.task(v).func_id]);
  }
  if (out.observed_makespan_ns > 0)
    out.error = static_cast<double>(out.estimated_ns - out.observed_makespan_ns) / static_cast<double>(out.observed_makespan_ns);
  for (std::size_t k = 0; k < by_group.size(); ++k)
    if (!by_group[k].start.empty()) out.by_kind.push_back(errors_of(kGroupNames[k], by_group[k]));
  for (auto& [func, s] : by_function) out.by_function.push_back(errors_of(g.function_name(func), s));
  // Most observed time first; among equals by name, for determinism.
  std::stable_sort(out.by_function.begin(), out.by_function.end(), [](const ObservedErrors& a, const ObservedErrors& b) {
    return a.observed_busy_ns != b.observed_busy_ns ? a.observed_busy_ns > b.observed_busy_ns : a.name < b.name;
  });
  return out;
}

}  // namespace rr::replay
