#include "replay/observed_comparison.hpp"

#include <algorithm>

#include "replay/src/observed_samples.hpp"

namespace rr::replay {

namespace {

TimeNs quantile(std::vector<TimeNs>& x, double q) {
  if (x.empty()) return 0;
  const std::size_t rank = nearest_rank(q, x.size());
  std::nth_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(rank - 1), x.end());
  return x[rank - 1];
}

ObservedErrors errors_of(std::string name, ObservedSamples& s) {
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

void finish_observed_comparison(ObservedComparison& out) {
  if (out.observed_makespan_ns > 0)
    out.error = static_cast<double>(out.estimated_ns - out.observed_makespan_ns) / static_cast<double>(out.observed_makespan_ns);
  // Most observed time first; among equals by name, for determinism.
  std::stable_sort(out.by_function.begin(), out.by_function.end(), [](const ObservedErrors& a, const ObservedErrors& b) {
    return a.observed_busy_ns != b.observed_busy_ns ? a.observed_busy_ns > b.observed_busy_ns : a.name < b.name;
  });
}

std::optional<ObservedComparison> compare_with_observed(const graph::EventGraph& g, const ReplayResult& r) {
  if (!g.has_observed()) return std::nullopt;
  ObservedSampleSet samples = collect_observed_samples(g, r, [](graph::VertexId v) { return v; });
  ObservedComparison out;
  out.estimated_ns = r.makespan_ns;
  out.observed_makespan_ns = samples.observed_makespan_ns;
  out.operations = samples.operations;
  out.not_replayed = samples.not_replayed;
  for (std::size_t k = 0; k < kObservedGroups; ++k)
    if (!samples.by_group[k].start.empty()) out.by_kind.push_back(errors_of(kObservedGroupNames[k], samples.by_group[k]));
  for (auto& [func, s] : samples.by_function) out.by_function.push_back(errors_of(g.function_name(func), s));
  finish_observed_comparison(out);
  return out;
}

}  // namespace rr::replay
