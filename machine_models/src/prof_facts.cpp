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

void add_prof_facts(const core::TraceRecords& trace, TracedFacts& facts) {
  if (trace.format != core::TraceFormat::legion_prof) return;
  // ---- the overhead of a task segment on its processor ----
  std::map<std::uint64_t, core::ProcessorKind> kind_of;
  std::map<std::uint64_t, std::vector<Segment>> by_processor;
  for (const auto& f : trace.files) {
    const auto& p = f.profile;
    for (const auto& proc : p.processors) kind_of.try_emplace(proc.id.value(), core::processor_kind_of(proc));
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
  std::array<std::vector<TimeNs>, 3> gaps;
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
      if (s.ready <= previous_end && previous_end <= s.start) gaps[k].push_back(s.start - previous_end);
    }
  }
  for (std::size_t k = 0; k < 3; ++k) {
    auto& g = gaps[k];
    if (g.size() < 10) continue;
    std::nth_element(g.begin(), g.begin() + static_cast<std::ptrdiff_t>(g.size() / 2), g.end());
    facts.segment_overhead_ns[k] = MeasuredValue{
        static_cast<double>(g[g.size() / 2]), "[T]",
        fmt("the median gap before the %.0f task segments that waited for their processor", static_cast<double>(g.size()))};
  }

  // ---- copies within a node: latency from the small ones, bandwidth from the large ones ----
  std::vector<std::pair<std::uint64_t, TimeNs>> local;  // (bytes, observed duration)
  for (const auto& f : trace.files) {
    const auto& p = f.profile;
    for (const auto& c : p.copies) {
      const auto [src, dst] = core::copy_endpoints(p, c);
      if (src.value() && node_of(src) == node_of(dst) && c.stop >= c.start) local.emplace_back(c.size, c.stop - c.start);
    }
  }
  constexpr std::uint64_t kSmall = 64 * 1024, kLarge = 1024 * 1024;
  std::vector<TimeNs> small;
  for (const auto& [bytes, ns] : local)
    if (bytes <= kSmall) small.push_back(ns);
  double latency = 0;
  if (small.size() >= 5) {
    std::nth_element(small.begin(), small.begin() + static_cast<std::ptrdiff_t>(small.size() / 2), small.end());
    latency = static_cast<double>(small[small.size() / 2]);
    facts.local_latency_ns = MeasuredValue{
        latency, "[T]", fmt("the median duration of the %.0f copies of at most 64 KiB within a node", static_cast<double>(small.size()))};
  }
  double bytes = 0, ns = 0, large = 0;
  for (const auto& [b, d] : local)
    if (b >= kLarge) {
      bytes += static_cast<double>(b);
      ns += std::max(1.0, static_cast<double>(d) - latency);
      ++large;
    }
  if (large >= 3)
    facts.local_bandwidth_gbs = MeasuredValue{
        std::round(bytes / ns * 1000.0) / 1000.0, "[T]",
        fmt("the bytes of the %.0f copies of at least 1 MiB within a node over their durations less the latency", large)};
}

}  // namespace rr::machine
