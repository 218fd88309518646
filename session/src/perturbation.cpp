// Perturbed replays side by side on oneTBB; every sample has its own seed, so the order they run in is irrelevant.
#include "session/perturbation.hpp"
#include "platform/usable_threads.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace rr::session {

namespace {
replay::TimeNs nearest_rank(const std::vector<replay::TimeNs>& sorted, double percent) {
  const auto n = sorted.size();
  auto rank = static_cast<std::size_t>(std::ceil(percent / 100.0 * static_cast<double>(n)));
  return sorted[std::clamp<std::size_t>(rank, 1, n) - 1];
}
}  // namespace

replay::Noise sample_noise(const PerturbationRequest& request, std::uint32_t i) {
  std::uint64_t x = request.seed * 0x9e3779b97f4a7c15ull + i + 1;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return {request.sigma, x ^ (x >> 31)};
}

EstimateDistribution summarise_samples(const PerturbationRequest& request, std::vector<replay::TimeNs> samples) {
  EstimateDistribution d;
  d.sigma = request.sigma;
  d.seed = request.seed;
  d.samples = std::move(samples);
  if (d.samples.empty()) return d;
  std::vector<replay::TimeNs> sorted = d.samples;
  std::sort(sorted.begin(), sorted.end());
  double sum = 0;
  for (auto t : sorted) sum += static_cast<double>(t);
  d.mean_ns = sum / static_cast<double>(sorted.size());
  d.min_ns = sorted.front();
  d.max_ns = sorted.back();
  d.p5_ns = nearest_rank(sorted, 5);
  d.p50_ns = nearest_rank(sorted, 50);
  d.p95_ns = nearest_rank(sorted, 95);
  return d;
}

core::Expected<EstimateDistribution> perturbed_estimates(const LoadedTrace& trace, const machine::MachineModel& model,
                                                         const machine::MappingSpec& mapping,
                                                         const replay::ReplayRules& rules,
                                                         const PerturbationRequest& request) {
  std::vector<replay::TimeNs> samples(request.samples, 0);
  std::vector<std::optional<core::InputError>> errors(request.samples);
  const unsigned workers = platform::threads_or_all(request.threads);
  tbb::task_arena arena(static_cast<int>(workers));
  arena.execute([&] {
    tbb::parallel_for(std::uint32_t{0}, request.samples, [&](std::uint32_t i) {
      // One engine each (the samples already run side by side), keeping nothing but the estimate.
      ReplaySettings s;
      s.mapping = mapping;
      s.engine.rules = rules;
      s.engine.rules.noise = sample_noise(request, i);
      s.critical_path = false;
      auto run = replay_on(trace, model, s);
      if (!run) errors[i] = run.error();
      else samples[i] = run->result.makespan_ns;
    });
  });
  for (const auto& e : errors)
    if (e) return *e;
  return summarise_samples(request, std::move(samples));
}

}  // namespace rr::session
