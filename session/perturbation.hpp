// The estimate's distribution under noise: the same replay repeated with seeded multiplicative lognormal noise on
// every duration (ReplayRules::noise), samples run in parallel, the same for a seed at any thread count. Over ranks
// that each hold their part of the graph, the samples run one after another (session/part_perturbation.hpp), with
// the same noise and the same summary.
#pragma once

#include <cstdint>
#include <vector>

#include "core/result.hpp"
#include "session/session.hpp"

namespace rr::session {

struct PerturbationRequest {
  double sigma = 0.1;        // of log(duration factor); factors have mean 1
  std::uint32_t samples = 100;
  std::uint64_t seed = 1;
  unsigned threads = 0;      // 0: every hardware thread
};

struct EstimateDistribution {
  double sigma = 0;
  std::uint64_t seed = 0;
  std::vector<replay::TimeNs> samples;  // estimated run time of each sample, in sample order
  double mean_ns = 0;
  // Nearest-rank percentiles of the samples: the smallest sample with at least p% of them at or below it.
  replay::TimeNs p5_ns = 0, p50_ns = 0, p95_ns = 0, min_ns = 0, max_ns = 0;
};

// Sample i replays with `mapping` and `rules`, its noise the request's sigma with seed mix(seed, i).
core::Expected<EstimateDistribution> perturbed_estimates(const LoadedTrace& trace, const machine::MachineModel& model,
                                                         const machine::MappingSpec& mapping,
                                                         const replay::ReplayRules& rules,
                                                         const PerturbationRequest& request);

// Sample i's noise: the request's sigma, with seed mix(seed, i). It keys each duration's factor on the operation's
// whole-graph id only (TaskTiming::perturbed), so any replay of the sample draws the same factors.
replay::Noise sample_noise(const PerturbationRequest& request, std::uint32_t i);

// The distribution of the samples' estimates, given in sample order (none: no statistics).
EstimateDistribution summarise_samples(const PerturbationRequest& request, std::vector<replay::TimeNs> samples);

}  // namespace rr::session
