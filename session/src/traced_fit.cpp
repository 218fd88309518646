// Bisection on log(latency + 1 µs) of "replayed produced-wait time − measured produced-wait time", which grows
// with the latency; each step replays the trace once on its traced machine. With more than one thread, the
// replays a step will need are guessed ahead and run side by side: the steps, and so the result, are those of
// the plain bisection, only sooner.
#include "session/traced_fit.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "machine_models/machine_loader.hpp"
#include "machine_models/traced_machine.hpp"
#include "platform/available_memory.hpp"
#include "replay/network_sums.hpp"
#include "session/src/trace_cache.hpp"
#include "session/src/traced_network_fit.hpp"

namespace rr::session {

namespace {

constexpr double kAssumedNs = machine::kAssumedNetworkLatencyNs;  // where the fit starts: the traced machine's assumption
constexpr double kMaxNs = 1e8;         // 100 ms
constexpr double kOffsetNs = 1000;
constexpr int kSteps = 14;             // the bracket [1 µs, 100 ms] shrinks to a factor of about 1.0008 in log space

std::string number(double ns) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
  return buf;
}

// The replays asked for so far, by latency in whole ns (what the machine file gets), so that none runs twice;
// several at once run side by side.
class WaitCurve {
 public:
  template <typename F>
  WaitCurve(F&& replay, std::size_t side_by_side) : replay_(std::forward<F>(replay)), side_by_side_(side_by_side) {}

  static long long key(double latency) { return std::llround(latency); }
  bool knows(double latency) const { return known_.count(key(latency)) != 0; }
  std::size_t side_by_side() const { return side_by_side_; }
  // How many replays it ran: one per latency asked for, side by side or not.
  std::size_t replays() const { return known_.size(); }

  const Replayed& at(double latency) {
    ensure({key(latency)});
    return known_.at(key(latency));
  }

  // Replays the latencies not yet known, side by side when side_by_side() > 1 (callers ask for at most that
  // many). Each replay depends only on its latency, so which of them run together changes when the answers
  // come, never what they are.
  void ensure(std::vector<long long> latencies) {
    std::erase_if(latencies, [&](long long l) { return known_.count(l) != 0; });
    std::sort(latencies.begin(), latencies.end());
    latencies.erase(std::unique(latencies.begin(), latencies.end()), latencies.end());
    std::vector<Replayed> out(latencies.size());
    if (side_by_side_ > 1 && latencies.size() > 1) {
      // Isolated: while it waits, this thread takes none of the caller's other work, which might need the fit
      // this replay is part of (fit_traced_machine runs it once, under a lock).
      tbb::this_task_arena::isolate([&] {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, latencies.size(), 1),
                          [&](const tbb::blocked_range<std::size_t>& r) {
                            for (std::size_t i = r.begin(); i < r.end(); ++i) out[i] = replay_(latencies[i]);
                          },
                          tbb::simple_partitioner());
      });
    } else {
      for (std::size_t i = 0; i < latencies.size(); ++i) out[i] = replay_(latencies[i]);
    }
    for (std::size_t i = 0; i < latencies.size(); ++i) known_.emplace(latencies[i], out[i]);
  }

  // A guess at whether the replayed waits at `latency` fall short of `target`: from the replays on either side,
  // interpolated in log space (they grow with the latency). Only which replays run early depends on it.
  bool guess_short(double latency, double target) const {
    const long long k = key(latency);
    auto above = known_.lower_bound(k);
    if (above != known_.end() && above->first == k) return above->second.waits_ns < target;
    const bool has_above = above != known_.end(), has_below = above != known_.begin();
    if (has_above && above->second.waits_ns < target) return true;  // even the longer latency falls short
    if (!has_below) return true;
    const auto below = std::prev(above);
    if (below->second.waits_ns >= target) return false;
    if (!has_above) return true;
    auto x = [](long long l) { return std::log(static_cast<double>(l) + kOffsetNs); };
    const double f = below->second.waits_ns + (above->second.waits_ns - below->second.waits_ns) *
                                                  (x(k) - x(below->first)) / (x(above->first) - x(below->first));
    return f < target;
  }

 private:
  std::function<Replayed(long long)> replay_;
  std::size_t side_by_side_;
  std::map<long long, Replayed> known_;
};

// How many replays may run at once: the trace's thread budget (`-j`; 0 is every hardware thread), at most 4,
// and no more than half the memory still available holds at an estimated 64 bytes of replay state per
// operation (docs/performance.md), so that running ahead never makes the fit run out of memory.
std::size_t replays_side_by_side(unsigned threads, std::uint64_t operations) {
  const std::size_t budget = threads == 0 ? static_cast<std::size_t>(tbb::info::default_concurrency()) : threads;
  const std::uint64_t per_replay = std::max<std::uint64_t>(1, operations * 64);
  const std::uint64_t extra = platform::available_memory_bytes() / 2 / per_replay;
  return std::clamp<std::size_t>(std::min<std::uint64_t>(budget, 1 + extra), 1, 4);
}

// The fit proper on a trace of several nodes, with `fit`'s waits and measured time counted: the checks that it can
// be fitted, then the bisection, each replay asked of `curve`.
void fit_on(WaitCurve& curve, TracedNetworkFit& fit) {
  // The bracket's upper end is needed unless the checks below stop the fit: replayed alongside when they cannot
  // (the estimate's check needs the first replay).
  if (curve.side_by_side() > 1 && fit.waits > 0 && fit.measured_ns >= 1e6)
    curve.ensure({WaitCurve::key(kAssumedNs), WaitCurve::key(kMaxNs)});
  const Replayed& assumed = curve.at(kAssumedNs);
  const double estimate = assumed.estimate_ns;
  fit.replayed_before_ns = assumed.waits_ns;
  fit.replayed_after_ns = fit.replayed_before_ns;
  if (fit.waits == 0 || fit.measured_ns < 1e6 || fit.measured_ns < 0.05 * estimate) {
    fit.reason = std::to_string(fit.waits) + " wait(s) on produced events measure " + number(fit.measured_ns) +
                 ": too little to fit (at least 1 ms and 5% of the estimate)";
    return;
  }
  if (fit.replayed_before_ns < 0) {
    fit.reason = "the replay on the traced machine failed";
    return;
  }
  if (fit.replayed_before_ns >= fit.measured_ns) {
    fit.reason = "the replay already takes as long as the measured waits (" + number(fit.replayed_before_ns) +
                 " replayed, " + number(fit.measured_ns) + " measured)";
    return;
  }
  double lo = std::log(kOffsetNs), hi = std::log(kMaxNs + kOffsetNs);
  const double at_max = curve.at(kMaxNs).waits_ns;
  if (at_max < fit.measured_ns) {
    fit.fitted = true;
    fit.latency_ns = kMaxNs;
    fit.replayed_after_ns = at_max;
    fit.reason = "capped at 100 ms: even then the replayed waits (" + number(at_max) + ") fall short of the measured (" +
                 number(fit.measured_ns) + ")";
    return;
  }
  for (int step = 0; step < kSteps; ++step) {
    if (curve.side_by_side() > 1) {
      // The next steps' latencies as far as the guesses reach, the first few not yet replayed run together.
      std::vector<long long> ahead;
      double a = lo, b = hi;
      for (int s = step; s < kSteps && ahead.size() < curve.side_by_side(); ++s) {
        const double mid = 0.5 * (a + b);
        const double latency = std::exp(mid) - kOffsetNs;
        if (!curve.knows(latency)) ahead.push_back(WaitCurve::key(latency));
        (curve.guess_short(latency, fit.measured_ns) ? a : b) = mid;
      }
      curve.ensure(std::move(ahead));
    }
    const double mid = 0.5 * (lo + hi);
    const double replayed = curve.at(std::exp(mid) - kOffsetNs).waits_ns;
    (replayed < fit.measured_ns ? lo : hi) = mid;
  }
  fit.fitted = true;
  fit.latency_ns = std::round(std::exp(hi) - kOffsetNs);
  fit.replayed_after_ns = curve.at(fit.latency_ns).waits_ns;
  fit.reason = "fitted so that the " + std::to_string(fit.waits) + " wait(s) on produced events add up to their measured " +
               number(fit.measured_ns) + " (" + number(fit.replayed_before_ns) + " with the assumed " +
               std::to_string(machine::kAssumedNetworkLatencyNs / 1000) + " µs)";
}

}  // namespace

void fit_network_latency(std::uint32_t nodes, const ReplayAtLatency& replay, std::size_t side_by_side,
                         TracedNetworkFit& fit) {
  if (nodes < 2) {
    fit.reason = "one node: no message crosses a network";
    return;
  }
  WaitCurve curve(replay, side_by_side);
  fit_on(curve, fit);
  fit.replays = curve.replays();
}

core::Expected<machine::MachineModel> traced_model_at(const std::string& toml, long long latency_ns) {
  const std::string value = std::to_string(latency_ns);
  return machine::parse_machine(toml, "traced", {"network.latency_ns=" + value, "channels.network.latency_ns=" + value});
}

Replayed replayed_over_ranks(std::int64_t waits_ns, std::int64_t estimate_ns, replay::BlockNetwork* network) {
  if (network) {
    waits_ns = replay::combine_over_ranks(*network, std::array{waits_ns}, replay::Combine::sum)[0];
    estimate_ns = replay::combine_over_ranks(*network, std::array{estimate_ns}, replay::Combine::max)[0];
  }
  return {static_cast<double>(waits_ns), static_cast<double>(estimate_ns)};
}

void add_fitted_latency(const TracedNetworkFit& fit, machine::TracedFacts& facts) {
  if (fit.fitted) facts.network_latency_ns = machine::MeasuredValue{fit.latency_ns, "[F]", fit.reason};
}

TracedNetworkFit fit_traced_network(const LoadedTrace& trace, const replay::ReplayRules& rules,
                                    const machine::TracedFacts& facts, replay::BlockNetwork* network) {
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
  auto replay_with = [&](long long latency) -> Replayed {
    auto model = traced_model_at(toml, latency);
    if (!model) return {};
    // One engine, keeping nothing but the times; without noise, which would make the fit depend on its seed.
    ReplaySettings s;
    s.engine.rules = rules;
    s.engine.rules.noise = {};
    s.engine.execution.network = network;
    s.critical_path = false;
    auto run = replay_on(trace, std::move(*model), s);
    if (!run) return {};  // (over ranks every rank fails alike: what refuses a replay is agreed)
    const auto& r = run->result;
    std::int64_t sum = 0;
    const auto waits = g.waits();
    for (std::size_t i = 0; i < waits.size(); ++i) {
      const graph::WaitInfo& w = waits[i];
      if (w.awaited == graph::kNoVertex || !replay::owns_record(r, w.resume) || r.ready(w.resume) < 0) continue;
      const graph::VertexId before = g.segment_before_wait(i);
      if (r.end(before) >= 0) sum += std::max<replay::TimeNs>(0, r.ready(w.resume) - r.end(before));
    }
    // Each rank held its own waits' records; the estimate is rank 0's.
    return replayed_over_ranks(sum, r.makespan_ns, network);
  };
  // Over ranks every rank takes part in each replay, one after another.
  fit_network_latency(trace.nodes, replay_with, network ? 1 : replays_side_by_side(trace.threads, g.vertex_count()), fit);
  return fit;
}

TracedMachineFit fit_traced_machine(const LoadedTrace& trace, replay::BlockNetwork* network) {
  if (!trace.cache) throw std::logic_error("LoadedTrace without its cache: make traces with load_trace or load_records");
  TracedMachineFit out;
  std::call_once(trace.cache->traced_once, [&] {
    machine::TracedFacts facts = traced_facts(trace);
    if (!facts.network_latency_ns) {
      const TracedNetworkFit fit = fit_traced_network(trace, {}, facts, network);
      out.replays = fit.replays;
      add_fitted_latency(fit, facts);
    }
    trace.cache->traced_toml = machine::traced_machine_toml(trace.records, trace.label, facts);
  });
  out.toml = trace.cache->traced_toml;
  return out;
}

core::Expected<machine::MachineModel> traced_machine_model(const std::string& toml, const std::string& label,
                                                           const std::vector<std::string>& overrides) {
  return machine::parse_machine(toml, "the traced machine of " + label, overrides);
}

}  // namespace rr::session
