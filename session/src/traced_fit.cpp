// Bisection on log(latency + 1 µs) of "replayed produced-wait time − measured produced-wait time", which grows
// with the latency; each step replays the trace once on its traced machine.
#include "session/traced_fit.hpp"

#include "session/prof_facts.hpp"
#include "session/src/trace_cache.hpp"

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "machine_models/machine_loader.hpp"
#include "machine_models/traced_machine.hpp"

namespace rr::session {

namespace {

constexpr double kAssumedNs = 25000;   // the traced machine's assumption (machine_models/src/traced_machine.cpp)
constexpr double kMaxNs = 1e8;         // 100 ms
constexpr double kOffsetNs = 1000;
constexpr int kSteps = 14;             // the bracket [1 µs, 100 ms] shrinks to a factor of about 1.0008 in log space

std::string number(double ns) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
  return buf;
}

}  // namespace

TracedNetworkFit fit_traced_network(const LoadedTrace& trace, const ReplaySettings& settings,
                                    const machine::TracedFacts& facts) {
  TracedNetworkFit fit;
  fit.latency_ns = kAssumedNs;
  const graph::EventGraph& g = trace.graph();
  for (const graph::WaitInfo& w : g.waits())
    if (w.awaited != graph::kNoVertex) {
      ++fit.waits;
      fit.measured_ns += static_cast<double>(w.wait_ns);
    }
  const std::string toml = machine::traced_machine_toml(trace.records, trace.label, facts);
  // The replayed spans of the produced waits, and the estimate, with a given latency.
  auto replay_with = [&](double latency, double* estimate) -> double {
    const std::string value = std::to_string(std::llround(latency));
    auto model = machine::parse_machine(toml, "traced", {"network.latency_ns=" + value, "channels.network.latency_ns=" + value});
    if (!model) return -1;
    ReplaySettings s = settings;
    s.critical_path = false;
    s.engine.record_intervals = false;
    s.engine.perturb_sigma = 0;
    auto run = replay_on(trace, std::move(*model), s);
    if (!run) return -1;
    const auto& r = run->result;
    if (estimate) *estimate = static_cast<double>(r.makespan_ns);
    double sum = 0;
    for (const graph::WaitInfo& w : g.waits()) {
      if (w.awaited == graph::kNoVertex || r.ready[w.resume] < 0) continue;
      // The segment before the resume: the task itself, or the resume of the wait before this one.
      for (std::size_t i = 0; i < g.predecessors(w.resume).size(); ++i)
        if (g.predecessor_kinds(w.resume)[i] == graph::EdgeKind::continuation) {
          const graph::VertexId before = g.predecessors(w.resume)[i];
          if (r.end[before] >= 0) sum += static_cast<double>(std::max<replay::TimeNs>(0, r.ready[w.resume] - r.end[before]));
        }
    }
    return sum;
  };
  if (trace.nodes < 2) {
    fit.reason = "one node: no message crosses a network";
    return fit;
  }
  double estimate = 0;
  fit.replayed_before_ns = replay_with(kAssumedNs, &estimate);
  fit.replayed_after_ns = fit.replayed_before_ns;
  if (fit.waits == 0 || fit.measured_ns < 1e6 || fit.measured_ns < 0.05 * estimate) {
    fit.reason = std::to_string(fit.waits) + " wait(s) on produced events measure " + number(fit.measured_ns) +
                 ": too little to fit (at least 1 ms and 5% of the estimate)";
    return fit;
  }
  if (fit.replayed_before_ns < 0) {
    fit.reason = "the replay on the traced machine failed";
    return fit;
  }
  if (fit.replayed_before_ns >= fit.measured_ns) {
    fit.reason = "the replay already takes as long as the measured waits (" + number(fit.replayed_before_ns) +
                 " replayed, " + number(fit.measured_ns) + " measured)";
    return fit;
  }
  double lo = std::log(kOffsetNs), hi = std::log(kMaxNs + kOffsetNs);
  const double at_max = replay_with(kMaxNs, nullptr);
  if (at_max < fit.measured_ns) {
    fit.fitted = true;
    fit.latency_ns = kMaxNs;
    fit.replayed_after_ns = at_max;
    fit.reason = "capped at 100 ms: even then the replayed waits (" + number(at_max) + ") fall short of the measured (" +
                 number(fit.measured_ns) + ")";
    return fit;
  }
  for (int step = 0; step < kSteps; ++step) {
    const double mid = 0.5 * (lo + hi);
    const double replayed = replay_with(std::exp(mid) - kOffsetNs, nullptr);
    (replayed < fit.measured_ns ? lo : hi) = mid;
  }
  fit.fitted = true;
  fit.latency_ns = std::round(std::exp(hi) - kOffsetNs);
  fit.replayed_after_ns = replay_with(fit.latency_ns, nullptr);
  fit.reason = "fitted so that the " + std::to_string(fit.waits) + " wait(s) on produced events add up to their measured " +
               number(fit.measured_ns) + " (" + number(fit.replayed_before_ns) + " with the assumed 25 µs)";
  return fit;
}

}  // namespace rr::session

namespace rr::session {

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
  add_prof_facts(trace.records, facts);
  return facts;
}

}  // namespace rr::session
