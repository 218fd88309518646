// The traced machine's values a Legion Prof log measures on its observed timeline: the overhead of a task
// segment per processor kind, and the latency and bandwidth of copies within a node (docs/legion-prof.md).
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/trace_records.hpp"
#include "machine_models/traced_machine.hpp"

namespace rr::machine {

// What the facts are read from: the gaps before the task segments that waited for their processor, by processor
// kind (gpu, cpu, utility), and each copy within a node's size and observed duration. `kinds` holds the processors'
// descriptions (ProcDesc) that give each processor its kind: the trace's own, or every file's when `trace` is one
// rank's logs of a trace read in parts (a processor's work is in its own process's log).
struct ProfSamples {
  std::array<std::vector<core::TimeNs>, 3> gaps;
  std::vector<std::pair<std::uint64_t, core::TimeNs>> local_copies;  // (bytes, observed duration)
};
ProfSamples prof_samples(const core::TraceRecords& trace, const core::TraceRecords& kinds);

// Copies of at most kSmallCopyBytes give the latency within a node, copies of at least kLargeCopyBytes its bandwidth.
inline constexpr std::uint64_t kSmallCopyBytes = 64 * 1024, kLargeCopyBytes = 1024 * 1024;

// What the samples come to, which a trace read in parts finds over its ranks: counts, upper medians (the element at
// n/2 in ascending order) and integer sums, so that every value is the whole trace's exactly.
struct ProfMeasures {
  std::array<std::uint64_t, 3> gaps{};  // how many of each kind, and their median
  std::array<core::TimeNs, 3> median_gap{};
  std::uint64_t small_copies = 0;  // within a node, of at most kSmallCopyBytes, and their median duration
  core::TimeNs median_small = 0;
  // Within a node, of at least kLargeCopyBytes: how many, their bytes, and their durations less the latency
  // (local_latency), each at least 1 ns.
  std::uint64_t large_copies = 0, large_bytes = 0;
  std::int64_t large_ns = 0;
};
// The latency within a node the measures give (0 when too few small copies measure it): what large_ns is less.
core::TimeNs local_latency(const ProfMeasures& m);
// Each large copy's duration less the latency, at least 1 ns.
inline std::int64_t large_copy_ns(core::TimeNs duration, core::TimeNs latency) {
  return std::max<std::int64_t>(1, duration - latency);
}
// Adds what the measures measure to `facts` (where enough operations measure it).
void add_prof_measures(const ProfMeasures& m, TracedFacts& facts);

// Adds what it measures to `facts`; nothing on other formats, or where too few operations measure it.
void add_prof_facts(const core::TraceRecords& trace, TracedFacts& facts);

}  // namespace rr::machine
