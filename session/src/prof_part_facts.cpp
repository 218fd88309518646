#include "session/src/prof_part_facts.hpp"

#include <array>
#include <cstdint>
#include <vector>

#include "machine_models/prof_facts.hpp"
#include "replay/network_sums.hpp"

namespace rr::session {

namespace {

std::vector<std::uint64_t> as_unsigned(const std::vector<core::TimeNs>& xs) {
  return {xs.begin(), xs.end()};  // (gaps and durations are never negative: prof_samples keeps none that is)
}

}  // namespace

void add_prof_facts_over_ranks(const TracePart& trace, replay::BlockNetwork& net, machine::TracedFacts& facts) {
  const machine::ProfSamples samples = machine::prof_samples(trace.records, trace.map_records());
  machine::ProfMeasures m;
  for (std::size_t k = 0; k < 3; ++k) {
    m.gaps[k] = static_cast<std::uint64_t>(replay::combine_over_ranks(
        net, std::array{static_cast<std::int64_t>(samples.gaps[k].size())}, replay::Combine::sum)[0]);
    if (auto median = replay::median_over_ranks(net, as_unsigned(samples.gaps[k])))
      m.median_gap[k] = static_cast<core::TimeNs>(*median);
  }
  std::vector<core::TimeNs> small;
  for (const auto& [bytes, ns] : samples.local_copies)
    if (bytes <= machine::kSmallCopyBytes) small.push_back(ns);
  m.small_copies = static_cast<std::uint64_t>(replay::combine_over_ranks(
      net, std::array{static_cast<std::int64_t>(small.size())}, replay::Combine::sum)[0]);
  if (auto median = replay::median_over_ranks(net, as_unsigned(small))) m.median_small = static_cast<core::TimeNs>(*median);
  const core::TimeNs latency = machine::local_latency(m);
  std::array<std::int64_t, 3> large{};  // copies, bytes, durations less the latency
  for (const auto& [bytes, ns] : samples.local_copies)
    if (bytes >= machine::kLargeCopyBytes) {
      ++large[0];
      large[1] += static_cast<std::int64_t>(bytes);
      large[2] += machine::large_copy_ns(ns, latency);
    }
  large = [&] {
    const std::vector<std::int64_t> all = replay::combine_over_ranks(net, large, replay::Combine::sum);
    return std::array{all[0], all[1], all[2]};
  }();
  m.large_copies = static_cast<std::uint64_t>(large[0]);
  m.large_bytes = static_cast<std::uint64_t>(large[1]);
  m.large_ns = large[2];
  machine::add_prof_measures(m, facts);
}

}  // namespace rr::session
