// The estimate under noise run from parts (session/part_perturbation.hpp): ranks that each hold only their part of
// the graph (ranks as threads on an in-process network that shuffles messages from different ranks) replay every
// sample one after another on the part prepared for the run, and every rank gets one process's distribution, sample
// by sample, at 1 to 4 ranks (as many as the model has nodes), on an S3D sample and a real trace. A rank whose
// network fails in a sample ends the noisy replays on every rank, each with an error.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "replay/machine_map.hpp"
#include "replay/part_exchange.hpp"
#include "replay/part_replay.hpp"
#include "session/part_perturbation.hpp"
#include "session/perturbation.hpp"
#include "session/session.hpp"
#include "session/trace_part.hpp"
#include "support/failing_exchange.hpp"
#include "support/generated_trace.hpp"
#include "support/in_process_network.hpp"
#include "support/ranks_as_threads.hpp"
#include "support/test_dir.hpp"

namespace rr::session {
namespace {

const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";
const PerturbationRequest kRequest{0.1, 8, 3, 1};

machine::MachineModel model_of(const LoadedTrace& trace, const std::string& machine) {
  auto model = load_machine_for(trace, {machine, {}}, nullptr);
  if (!model) ADD_FAILURE() << model.error().to_string();
  return model ? *model : machine::MachineModel{};
}

// A rank whose exchange fails at its `at`-th call once the run is done (0: never).
struct Failing {
  std::uint32_t rank = ~0u;
  std::uint32_t at = 0;
};

// Every rank reads its nodes' files of the trace in `dir`, prepares its part, replays the run from it and then the
// noisy samples of `request`: each rank's distribution, or its error, in rank order.
std::vector<core::Expected<EstimateDistribution>> from_parts(const std::string& dir, const machine::MachineModel& model,
                                                             const ReplaySettings& settings, std::uint32_t count,
                                                             const PerturbationRequest& request, Failing failing = {}) {
  const auto files = files_by_node({dir});
  if (!files) throw std::runtime_error(files.error().to_string());
  rr::testing::InProcessNetwork net(count, 80 + count);
  return rr::testing::on_ranks(net, count, [&](std::uint32_t r, replay::BlockNetwork& end) {
    replay::NetworkRankExchange exchange(end);
    ReplaySettings on_network = settings;
    on_network.engine.execution.network = &end;
    try {
      auto part = load_trace_part({dir}, *files, {}, count, exchange);
      if (!part) throw std::runtime_error(part.error().to_string());
      auto map = replay::MachineMap::build(part->records, model, on_network.mapping);
      if (!map) throw std::runtime_error(map.error().to_string());
      auto prepared = replay::prepare_part(std::move(part->part), part->ranks, exchange, *map, model, on_network.engine);
      if (!prepared) throw std::runtime_error(prepared.error().to_string());
      auto run = replay::run_part_over_network(*prepared, part->ranks, exchange, *map, model, on_network.engine);
      if (!run) throw std::runtime_error(run.error().to_string());
      rr::testing::FailingExchange samples_exchange(exchange, r == failing.rank ? failing.at : 0);
      return perturbed_estimates_from_part(*prepared, part->ranks, samples_exchange, *map, model, on_network.engine,
                                           request);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "rank " << r << ": " << e.what();
      core::InputError error;  // (filled in place: GCC 12 warns, wrongly, of a braced one's uninitialised string)
      error.message = e.what();
      return core::Expected<EstimateDistribution>(error);
    }
  });
}

void expect_equal(const EstimateDistribution& got, const EstimateDistribution& expected, const std::string& at) {
  EXPECT_EQ(got.samples, expected.samples) << at;
  EXPECT_EQ(got.sigma, expected.sigma) << at;
  EXPECT_EQ(got.seed, expected.seed) << at;
  EXPECT_EQ(got.mean_ns, expected.mean_ns) << at;
  EXPECT_EQ(got.p5_ns, expected.p5_ns) << at;
  EXPECT_EQ(got.p50_ns, expected.p50_ns) << at;
  EXPECT_EQ(got.p95_ns, expected.p95_ns) << at;
  EXPECT_EQ(got.min_ns, expected.min_ns) << at;
  EXPECT_EQ(got.max_ns, expected.max_ns) << at;
}

// One process's distribution (samples side by side) against every rank's from parts, under `settings`.
void expect_one_process_distribution(const std::string& dir, const std::string& machine, const ReplaySettings& settings,
                                     const std::string& label, const PerturbationRequest& request = kRequest) {
  auto trace = load_trace({dir}, {});
  ASSERT_TRUE(trace.ok()) << label << ": " << trace.error().to_string();
  const machine::MachineModel model = model_of(*trace, machine);
  auto run = replay_on(*trace, model, settings);
  ASSERT_TRUE(run.ok()) << label << ": " << run.error().to_string();
  PerturbationRequest side_by_side = request;
  side_by_side.threads = 2;
  auto one = perturbed_estimates(*trace, run->model, settings.mapping, settings.engine.rules, side_by_side);
  ASSERT_TRUE(one.ok()) << label << ": " << one.error().to_string();
  ASSERT_LT(one->min_ns, one->max_ns) << label;  // (the noise does move the estimate)
  const std::uint32_t top = std::min(4u, run->map.model_nodes());
  for (std::uint32_t count = 1; count <= top; ++count) {
    const auto by_rank = from_parts(dir, model, settings, count, request);
    for (std::uint32_t r = 0; r < count; ++r) {
      const std::string at = label + " at " + std::to_string(count) + " ranks, rank " + std::to_string(r);
      ASSERT_TRUE(by_rank[r].ok()) << at << ": " << by_rank[r].error().to_string();
      expect_equal(*by_rank[r], *one, at);
    }
  }
}

TEST(PartPerturbation, GivesOneProcesssDistributionOnAGeneratedS3dTrace) {
  const rr::testing::TestDir dir("rr_part_perturbation_s3d");
  rr::testing::mixed_s3d(dir.path(), 4);
  expect_one_process_distribution(dir.path().string(), kTitan, {}, "mixed S3D on Titan");
  ReplaySettings traced;
  traced.mapping.placement = machine::Placement::traced;
  expect_one_process_distribution(dir.path().string(), (dir.path() / "machine.toml").string(), traced,
                                  "mixed S3D on its machine, traced placement");
}

TEST(PartPerturbation, GivesOneProcesssDistributionOnARealTrace) {
  expect_one_process_distribution(RR_SOURCE_DIR "/data/traces/real/full_circuit_2node_p4_cpu2", kTitan, {},
                                  "full_circuit_2node_p4_cpu2 on Titan");
}

// At the largest sigma the command takes (4), most factors are below e^-8: noise that rounded a copy's hop to 0 ns
// would leave the ranks no delay to run ahead by, and the replay from parts would refuse samples one process runs.
TEST(PartPerturbation, GivesOneProcesssDistributionUnderTheLargestNoise) {
  const rr::testing::TestDir dir("rr_part_perturbation_wild");
  rr::testing::mixed_s3d(dir.path(), 4);
  expect_one_process_distribution(dir.path().string(), kTitan, {}, "mixed S3D on Titan, sigma 4", {4.0, 4, 3, 1});
}

// Rank 1's network fails at its second exchange of the samples: every rank ends the noisy replays with an error
// (rank 1 its own), none waits for the others.
TEST(PartPerturbation, ARankThatFailsInASampleEndsEveryRanksSamples) {
  const rr::testing::TestDir dir("rr_part_perturbation_fail");
  const LoadedTrace trace = rr::testing::mixed_s3d(dir.path(), 4);
  const auto by_rank = from_parts(dir.path().string(), model_of(trace, kTitan), {}, 3, kRequest, {1, 2});
  for (std::uint32_t r = 0; r < 3; ++r) {
    ASSERT_FALSE(by_rank[r].ok()) << "rank " << r;
    EXPECT_FALSE(by_rank[r].error().message.empty()) << "rank " << r;
  }
  EXPECT_NE(by_rank[1].error().to_string().find("the network went away"), std::string::npos)
      << by_rank[1].error().to_string();
}

}  // namespace
}  // namespace rr::session
