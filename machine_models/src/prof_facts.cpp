// What Legion Prof logs measured about the traced machine: how long the runtime holds a processor around each
// task segment (per processor kind), and how long copies within a node took for their size. Both are read off the
// observed timeline, not fitted to a makespan.
#include "machine_models/prof_facts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

namespace rr::machine {

namespace {

using core::TimeNs;

std::uint32_t node_of(core::Handle h) { return core::realm_node_of(h.value()); }

std::string fmt(const char* format, double a, double b = 0, double c = 0) {
  char buf[200];
  std::snprintf(buf, sizeof buf, format, a, b, c);
  return buf;
}

// Every segment a processor ran (a work item's parts between its waits), with when it could have run.
struct Segment {
  TimeNs ready;
  TimeNs start;
  TimeNs end;
};

}  // namespace

ProfSamples prof_samples(const core::TraceRecords& trace, const core::TraceRecords& kinds) {
  ProfSamples out;
  if (trace.format != core::TraceFormat::legion_prof) return out;
  // ---- the overhead of a task segment on its processor ----
  std::map<std::uint64_t, core::ProcessorKind> kind_of;
  for (const auto& f : kinds.files)
    for (const auto& proc : f.profile.processors) kind_of.try_emplace(proc.id.value(), core::processor_kind_of(proc));
  std::map<std::uint64_t, std::vector<Segment>> by_processor;
  for (const auto& f : trace.files) {
    const auto& p = f.profile;
    for (const auto& w : p.work) {
      if (w.proc.value() == 0 || w.kind == core::ProfWorkKind::implicit_task || w.kind == core::ProfWorkKind::partition)
        continue;
      auto& segments = by_processor[w.proc.value()];
      TimeNs ready = w.ready, start = w.start;
      for (std::uint32_t i = 0; i < w.wait_count; ++i) {
        const core::ProfWait& wait = p.waits[w.first_wait + i];
        segments.push_back({ready, start, wait.wait_start});
        ready = wait.wait_ready;
        start = wait.wait_end;
      }
      segments.push_back({ready, start, w.stop});
    }
  }
  // A segment that was ready before the previous one on its processor ended, and started after it: the gap
  // between them is the runtime's own work on the processor. Segments that overlap the previous one (a task
  // blocked without a wait record) say nothing and are left out; the median keeps the rare long gaps (a
  // thread busy with unlogged work) from standing for every task.
  for (auto& [proc, segments] : by_processor) {
    auto it = kind_of.find(proc);
    // The program's own thread runs no segment of the application: its processor has no overhead to measure.
    if (it == kind_of.end() || it->second == core::ProcessorKind::unknown || it->second == core::ProcessorKind::group ||
        it->second == core::ProcessorKind::external)
      continue;
    const auto k = static_cast<std::size_t>(it->second);
    std::sort(segments.begin(), segments.end(), [](const Segment& a, const Segment& b) {
      return a.start != b.start ? a.start < b.start : a.end < b.end;
    });
    for (std::size_t i = 1; i < segments.size(); ++i) {
      const Segment& s = segments[i];
      const TimeNs previous_end = segments[i - 1].end;
      if (s.ready <= previous_end && previous_end <= s.start) out.gaps[k].push_back(s.start - previous_end);
    }
  }
  // ---- copies within a node ----
  for (const auto& f : trace.files) {
    const auto& p = f.profile;
    for (const auto& c : p.copies) {
      const auto [src, dst] = core::copy_endpoints(p, c);
      if (src.value() && node_of(src) == node_of(dst) && c.stop >= c.start)
        out.local_copies.emplace_back(c.size, c.stop - c.start);
    }
  }
  return out;
}

core::TimeNs local_latency(const ProfMeasures& m) { return m.small_copies >= 5 ? m.median_small : 0; }

void add_prof_measures(const ProfMeasures& m, TracedFacts& facts) {
  for (std::size_t k = 0; k < 3; ++k) {
    if (m.gaps[k] < 10) continue;
    facts.segment_overhead_ns[k] = MeasuredValue{
        static_cast<double>(m.median_gap[k]), "[T]",
        fmt("the median gap before the %.0f task segments that waited for their processor", static_cast<double>(m.gaps[k]))};
  }
  // Latency from the small copies, bandwidth from the large ones.
  if (m.small_copies >= 5)
    facts.local_latency_ns = MeasuredValue{
        static_cast<double>(m.median_small), "[T]",
        fmt("the median duration of the %.0f copies of at most 64 KiB within a node", static_cast<double>(m.small_copies))};
  if (m.large_copies >= 3)
    facts.local_bandwidth_gbs = MeasuredValue{
        std::round(static_cast<double>(m.large_bytes) / static_cast<double>(m.large_ns) * 1000.0) / 1000.0, "[T]",
        fmt("the bytes of the %.0f copies of at least 1 MiB within a node over their durations less the latency",
            static_cast<double>(m.large_copies))};
}

void add_prof_facts(const core::TraceRecords& trace, TracedFacts& facts) {
  if (trace.format != core::TraceFormat::legion_prof) return;
  ProfSamples samples = prof_samples(trace, trace);
  ProfMeasures m;
  auto upper_median = [](std::vector<TimeNs>& xs) {
    std::nth_element(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(xs.size() / 2), xs.end());
    return xs[xs.size() / 2];
  };
  for (std::size_t k = 0; k < 3; ++k) {
    m.gaps[k] = samples.gaps[k].size();
    if (!samples.gaps[k].empty()) m.median_gap[k] = upper_median(samples.gaps[k]);
  }
  std::vector<TimeNs> small;
  for (const auto& [bytes, ns] : samples.local_copies)
    if (bytes <= kSmallCopyBytes) small.push_back(ns);
  m.small_copies = small.size();
  if (!small.empty()) m.median_small = upper_median(small);
  const TimeNs latency = local_latency(m);
  for (const auto& [bytes, ns] : samples.local_copies)
    if (bytes >= kLargeCopyBytes) {
      ++m.large_copies;
      m.large_bytes += bytes;
      m.large_ns += large_copy_ns(ns, latency);
    }
  add_prof_measures(m, facts);
}

}  // namespace rr::machine
