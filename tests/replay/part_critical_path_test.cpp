// The critical path and its lower bound after a replay from parts (replay/part_replay.hpp: critical_path on
// graph_of_part), walked back across the ranks, each from its own view of the graph, with the ranks as threads on an
// in-process network that shuffles messages from different ranks: rank 0's path equals one engine's on the whole graph
// step by step (each step's operation by whole id, its event, class, label and span), with its sums by class, label,
// contended resource and function, its length and lower bound; every other rank gets the sums without the steps. At
// 1 to 4 ranks on the inputs of the replay from parts' tests: every generator family with and without noise, the
// bundled real traces and S3D samples, random DAGs of random seeds, a trace with tasks without Task Time and a copy
// whose first hop runs on another rank's channel, under the traced placement; generator families and an S3D sample
// under the pool and eft placements; on nodes that share cores and processors that start up.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "gen/generators.hpp"
#include "replay/critical_operations.hpp"
#include "replay/critical_path.hpp"
#include "replay/part_replay.hpp"
#include "session/session.hpp"
#include "support/critical_path_checks.hpp"
#include "support/generated_trace.hpp"
#include "support/part_replay_run.hpp"
#include "support/test_dir.hpp"
#include "support/cores_and_start_ups.hpp"

namespace rr::replay {
namespace {

namespace fs = std::filesystem;
using rr::testing::expect_same_steps;
using rr::testing::expect_same_sums;

const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";

// Times the path passes from one rank's operations to another's.
int crossings(const CriticalPath& cp, const graph::EventGraph& whole, const graph::NodeRanks& ranks) {
  int n = 0;
  for (std::size_t i = 1; i < cp.steps.size(); ++i)
    n += ranks.rank_of(whole.node(cp.steps[i].vertex)) != ranks.rank_of(whole.node(cp.steps[i - 1].vertex));
  return n;
}

// Rank 0's path at 1 to 4 ranks against one engine's, every rank's sums; the most crossings between ranks seen.
int expect_parts_path(const session::LoadedTrace& trace, const std::string& machine, const std::string& label,
                      double sigma, std::uint64_t seed = 1, machine::Placement placement = machine::Placement::traced,
                      const std::vector<std::string>& overrides = {}) {
  session::ReplaySettings settings;
  settings.mapping.placement = placement;
  settings.engine.rules.noise = {sigma, 11};
  const auto one = session::replay_trace(trace, {machine, overrides}, settings);
  if (!one.ok() || !one->critical) {
    ADD_FAILURE() << label << ": " << (one.ok() ? "no critical path" : one.error().to_string());
    return 0;
  }
  int most = 0;
  const std::uint32_t nodes = one->map.model_nodes();
  for (std::uint32_t count = 1; count <= std::min(4u, nodes); ++count) {
    const std::string at = label + " on " + machine + " at " + std::to_string(count) + " ranks";
    std::vector<CriticalPath> paths(count);
    const auto runs = rr::testing::run_parts(trace, one->model, settings, count, seed + count, nodes,
                                             [&](std::uint32_t r, const MachineMap& map, const ReplayResult& result) {
                                               paths[r] = critical_path(graph_of_part(result), map, one->model, result);
                                             });
    bool all = true;
    for (std::uint32_t r = 0; r < count; ++r)
      if (!runs[r].result) {
        ADD_FAILURE() << at << ", rank " << r << ": " << runs[r].error;
        all = false;
      }
    if (!all) continue;
    expect_same_steps(*one->critical, paths[0], at);
    EXPECT_EQ(critical_operations(paths[0]), critical_operations(*one->critical)) << at;
    for (std::uint32_t r = 0; r < count; ++r) {
      expect_same_sums(*one->critical, paths[r], at + ", rank " + std::to_string(r));
      if (r) {
        EXPECT_TRUE(paths[r].steps.empty()) << at << ", rank " << r;
      }
    }
    most = std::max(most, crossings(paths[0], trace.graph(), {count, nodes}));
  }
  return most;
}

TEST(PartCriticalPath, EveryGeneratorFamilyGivesTheOneEnginePath) {
  int most = 0;
  for (const auto& [name, program] : rr::testing::part_test_families()) {
    const rr::testing::TestDir dir("rr_part_path");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
    most = std::max(most, expect_parts_path(trace, (dir.path() / "machine.toml").string(), name, 0));
    most = std::max(most, expect_parts_path(trace, kTitan, name, 0.3));
  }
  EXPECT_GT(most, 0) << "no path crossed ranks";
}

// A remote copy's first hop on the far node's channel instance, held by another rank: the copy's owner walks it.
TEST(PartCriticalPath, ACopyWhoseHopRunsOnAnotherRanksChannel) {
  const rr::testing::TestDir dir("rr_part_path_far_nic");
  rr::testing::FarNicTrace far;
  ASSERT_NO_FATAL_FAILURE(rr::testing::write_far_nic_trace(dir.path(), far));
  EXPECT_GT(expect_parts_path(far.trace, far.machine, rr::testing::kFarNicLabel, 0.5), 0);
}

TEST(PartCriticalPath, BundledRealTracesAndS3dSamples) {
  for (const char* name : {"real/full_circuit_2node_p4_cpu2", "real/full_ghost_b2_cpu2", "s3d/dme_mixed_4n",
                           "s3d/dme_all_2n"}) {
    auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + name}, {});
    ASSERT_TRUE(trace.ok()) << name;
    expect_parts_path(*trace, kTitan, name, 0);
    expect_parts_path(*trace, kTitan, name, 0.2);
  }
}

// Under pool and eft placements a task may run on another processor of its node: the walk reads the one it ran on.
TEST(PartCriticalPath, PoolAndEftPlacements) {
  for (const machine::Placement placement : {machine::Placement::pool, machine::Placement::eft}) {
    const std::string under = std::string(", ") + machine::placement_name(placement) + " placement";
    for (const auto& [name, program] : rr::testing::part_test_families()) {
      const rr::testing::TestDir dir("rr_part_path_pool");
      const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
      expect_parts_path(trace, (dir.path() / "machine.toml").string(), name + under, 0, 1, placement);
      expect_parts_path(trace, kTitan, name + under, 0.3, 1, placement);
    }
    auto trace = session::load_trace({RR_SOURCE_DIR "/data/traces/s3d/dme_mixed_4n"}, {});
    ASSERT_TRUE(trace.ok());
    expect_parts_path(*trace, kTitan, "dme_mixed_4n" + under, 0.2, 1, placement);
  }
}

// Tasks without Task Time, and what waits on them, are left out of the estimate and of its path on every rank.
TEST(PartCriticalPath, TasksWithoutTaskTimeAreLeftOut) {
  const rr::testing::TestDir dir("rr_part_path_untimed");
  const session::LoadedTrace trace =
      rr::testing::write_without_some_task_times(dir.path(), gen::make_random_dag(2500, {4, 2, 9}), 150);
  EXPECT_GT(expect_parts_path(trace, (dir.path() / "machine.toml").string(), "random-dag without some task times", 0.2),
            0);
}

// The time a path spends waiting for shared cores or start-ups (PathResource::Type::cores, start_ups).
TimeNs on_cores_and_start_ups(const CriticalPath& cp) {
  TimeNs ns = 0;
  for (const auto& [res, t] : cp.contention)
    if (res.type == PathResource::Type::cores || res.type == PathResource::Type::start_ups) ns += t;
  return ns;
}

// Nodes that share cores (1 and 2 per node) and processors that start up (typical and measured lengths, one of no
// length): each rank classes its own steps' time on its nodes' cores and start-ups from the start-ups every rank
// lists, and weighs its issuers' out-edges in the lower bound from the issue times its own work kept.
TEST(PartCriticalPath, SharedCoresAndStartUps) {
  const auto& models = rr::testing::cores_and_start_up_models();
  int most = 0;
  TimeNs cores_ns = 0;
  for (const auto& [name, program] : rr::testing::part_test_families()) {
    const rr::testing::TestDir dir("rr_part_path_cores");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
    for (const auto& [what, overrides] : models) {
      const std::string label = std::string(name) + ", " + what;
      const std::string own = (dir.path() / "machine.toml").string();
      most = std::max(most, expect_parts_path(trace, own, label, 0, 1, machine::Placement::traced, overrides));
      const auto one = session::replay_trace(trace, {own, overrides}, {});
      ASSERT_TRUE(one.ok() && one->critical) << label;
      cores_ns += on_cores_and_start_ups(*one->critical);
    }
    expect_parts_path(trace, kTitan, std::string(name) + ", 2 cores, start-ups, sigma 0.3", 0.3, 2,
                      machine::Placement::traced, models[3].second);
  }
  for (const char* name : {"real/full_circuit_2node_p4_cpu2", "s3d/dme_mixed_4n"}) {
    auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + name}, {});
    ASSERT_TRUE(trace.ok()) << name;
    for (const auto& [what, overrides] : models)
      expect_parts_path(*trace, kTitan, std::string(name) + ", " + what, 0, 1, machine::Placement::traced,
                        overrides);
  }
  EXPECT_GT(most, 0) << "no path crossed ranks";
  EXPECT_GT(cores_ns, 0) << "no path waited for shared cores or start-ups";
}

TEST(PartCriticalPath, RandomDagsOfRandomSeeds) {
  for (std::uint64_t seed = 21; seed < 26; ++seed) {
    const gen::SmallOptions options{static_cast<std::uint32_t>(2 + seed % 5), 1 + static_cast<std::uint32_t>(seed % 3),
                                    seed};
    const rr::testing::TestDir dir("rr_part_path_seed");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), gen::make_random_dag(1500, options));
    expect_parts_path(trace, (dir.path() / "machine.toml").string(), "random-dag seed " + std::to_string(seed),
                      0.1 * static_cast<double>(seed % 4), seed);
  }
}

}  // namespace
}  // namespace rr::replay
