// What-ifs on one trace: more CPUs under pool placement on a CPU-bound generated trace never lengthen it and never
// beat the infinite-resource bound; the S3D mixed sample with its CPU functions moved to the GPU comes close to
// the all-GPU sample on the same machine.
#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "session/session.hpp"

namespace rr::session {
namespace {

namespace fs = std::filesystem;

const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";

TEST(PlacementProperty, MoreCpusUnderPoolNeverLengthenACpuBoundRun) {
  const fs::path dir = fs::temp_directory_path() / ("rr_pool_" + std::to_string(::getpid()));
  // Fork-join stages of 24 tasks traced on 2 CPUs per node: CPU-bound, with parallelism to spare.
  gen::Program p = gen::make_fork_join(24, 6, {2, 2, 3});
  gen::TruthMachine m;
  gen::write_trace(p, gen::schedule(p, m), m, dir.string(), gen::Compression::none);
  auto trace = load_trace({dir.string()}, {});
  fs::remove_all(dir);
  ASSERT_TRUE(trace.ok());
  ReplaySettings pool;
  pool.mapping.placement = machine::Placement::pool;
  replay::TimeNs previous = 0;
  for (const char* count : {"2", "4", "8", "24"}) {
    auto run = replay_trace(*trace, {kTitan, {std::string("processors.cpu.count=") + count}}, pool);
    ASSERT_TRUE(run.ok()) << run.error().to_string();
    const replay::TimeNs t = run->result.makespan_ns;
    EXPECT_GE(t, run->critical->lower_bound_ns) << count << " CPUs";
    if (previous) {
      EXPECT_LT(t, previous) << count << " CPUs: more processors, shorter run";
    }
    previous = t;
  }
  // Under traced placement the model's extra CPUs stay idle: the count changes nothing.
  ReplaySettings traced;
  traced.mapping.placement = machine::Placement::traced;
  auto two = replay_trace(*trace, {kTitan, {"processors.cpu.count=2"}}, traced);
  auto eight = replay_trace(*trace, {kTitan, {"processors.cpu.count=8"}}, traced);
  ASSERT_TRUE(two.ok() && eight.ok());
  EXPECT_EQ(two->result.makespan_ns, eight->result.makespan_ns);
}

TEST(PlacementProperty, MixedS3dWithItsCpuFunctionsOnTheGpuApproachesAllGpu) {
  auto estimate = [](const std::string& sample, std::vector<std::string> moves) {
    auto trace = load_trace({RR_SOURCE_DIR "/data/traces/s3d/" + sample}, {});
    EXPECT_TRUE(trace.ok());
    ReplaySettings settings;
    for (const auto& m : moves) settings.mapping.moves.push_back(*machine::parse_move(m));
    auto run = replay_trace(*trace, {kTitan, {}}, settings);
    EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().to_string());
    return std::pair{run->result.makespan_ns, run->result.copies_removed};
  };
  const auto all = estimate("dme_all_4n", {}).first;
  const auto mixed = estimate("dme_mixed_4n", {}).first;
  // Functions 18 (species gradients) and 20 (species fluxes) run on CPUs in mixed; on the GPU they take
  // 0.065 ms instead of 3.4 ms and 0.11 ms instead of 7.2 ms (the generator's durations, docs/s3d.md).
  const auto [moved, removed] = estimate("dme_mixed_4n", {"18=gpu:0.0191", "20=gpu:0.0153"});
  EXPECT_GT(mixed, all * 13 / 10);
  EXPECT_LT(moved, mixed * 8 / 10);
  EXPECT_NEAR(static_cast<double>(moved), static_cast<double>(all), 0.05 * static_cast<double>(all));
  EXPECT_GT(removed, 0u);  // the host-device copies around the moved tasks move nothing any more
}

}  // namespace
}  // namespace rr::session
