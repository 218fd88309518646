#include "session/part_perturbation.hpp"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "session/src/over_ranks.hpp"

namespace rr::session {

core::Expected<EstimateDistribution> perturbed_estimates_from_part(
    const std::shared_ptr<const replay::PreparedPart>& prepared, const graph::NodeRanks& ranks,
    graph::RankExchange& exchange, const replay::MachineMap& map, const machine::MachineModel& model,
    const replay::ReplayOptions& options, const PerturbationRequest& request) {
  if (!options.execution.network) throw std::invalid_argument("noisy replays from parts: no network to run over");
  replay::ReplayOptions sample = options;
  sample.detail = {};  // as one process's samples: the estimate only
  std::vector<replay::TimeNs> samples(request.samples, 0);
  for (std::uint32_t i = 0; i < request.samples; ++i) {
    sample.rules.noise = sample_noise(request, i);
    auto run = replay::run_part_over_network(prepared, ranks, exchange, map, model, sample);
    // A rank whose replay failed would leave the others waiting in the next sample's first round: all agree first.
    const OverRanks all = agree_over_ranks(*options.execution.network, run.ok(), run ? run->makespan_ns : 0,
                                           run ? std::string() : run.error().to_string());
    if (!all.everyone) {
      if (!run) return run.error();
      core::InputError elsewhere;
      elsewhere.where.file = "--perturb";
      elsewhere.message = "sample " + std::to_string(i) + " failed on " + all.error;
      return elsewhere;
    }
    samples[i] = all.latest;  // (the run's makespan on every rank already: the same)
  }
  return summarise_samples(request, std::move(samples));
}

}  // namespace rr::session
