// One replay split by model node into blocks (ReplayExecution::blocks, docs/replay.md) gives what one engine gives,
// field by field (replay/result_difference.hpp): every operation's times, releasers, processors, the channel and
// path sums, the timeline's intervals, the stuck operations. On every generator family, the bundled real traces
// and Legion Prof logs, on the generators' truth machine and the bundled models, with noise, at 2 to 4 blocks on
// 1, 2 and 4 threads (more blocks than threads: a worker steps whichever block is free); on models whose nodes share
// cores and whose processors start up, the critical path too.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "gen/s3d.hpp"
#include "machine_models/mapping.hpp"
#include "replay/critical_path.hpp"
#include "replay/replay_engine.hpp"
#include "replay/result_difference.hpp"
#include "session/session.hpp"
#include "support/critical_path_checks.hpp"
#include "support/generated_trace.hpp"
#include "support/test_dir.hpp"
#include "support/cores_and_start_ups.hpp"

namespace rr::gen {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kModels = {RR_SOURCE_DIR "/data/machines/titan.toml",
                                          RR_SOURCE_DIR "/data/machines/modern_multigpu.toml"};

// Every block count and thread count against one engine. Returns how many of the runs were split (so a test
// can say that the split happened, not only that the fallback is right). Small traces are split too
// (min_block_operations 0).
// `overrides`: --set on the model. With `paths`, the critical paths walked on both results must be the same too.
int expect_blocks_same(const session::LoadedTrace& trace, const std::string& machine, const std::string& label,
                       double sigma = 0, const session::ReplaySettings& settings = {},
                       const std::vector<std::string>& overrides = {}, bool paths = false) {
  auto run = session::replay_trace(trace, {machine, overrides}, settings);
  if (!run.ok()) {
    ADD_FAILURE() << label << ": " << run.error().to_string();
    return 0;
  }
  replay::ReplayOptions one;
  one.detail.record_intervals = true;
  one.rules.noise = {sigma, 7};
  auto serial = replay::run_replay(trace.graph(), run->map, run->model, one);
  if (!serial.ok()) {
    ADD_FAILURE() << label << ": " << serial.error().to_string();
    return 0;
  }
  EXPECT_EQ(serial->blocks, 1u);
  const replay::CriticalPath serial_path =
      paths ? replay::critical_path(trace.graph(), run->map, run->model, *serial) : replay::CriticalPath{};
  int split = 0;
  for (std::uint32_t blocks : {2u, 3u, 4u})
    for (std::uint32_t threads : {1u, 2u, 4u}) {
      replay::ReplayOptions options = one;
      options.execution.blocks = blocks;
      options.execution.threads = threads;
      options.execution.min_block_operations = 0;
      options.execution.min_lookahead_ns = 0;
      auto split_run = replay::run_replay(trace.graph(), run->map, run->model, options);
      if (!split_run.ok()) {
        ADD_FAILURE() << label << ": " << split_run.error().to_string();
        continue;
      }
      split += split_run->blocks > 1;
      const std::string what = label + " on " + machine + ", " + std::to_string(blocks) + " blocks (" +
                               std::to_string(split_run->blocks) + " used) on " + std::to_string(threads) + " threads";
      EXPECT_EQ(replay::first_difference(*serial, *split_run), std::nullopt) << what;
      if (paths) {
        const replay::CriticalPath path = replay::critical_path(trace.graph(), run->map, run->model, *split_run);
        rr::testing::expect_same_steps(serial_path, path, what);
        rr::testing::expect_same_sums(serial_path, path, what);
      }
    }
  return split;
}

TEST(ReplayBlocks, EveryGeneratorFamilyGivesTheOneEngineResult) {
  const SmallOptions four{4, 2, 3};
  struct Family {
    const char* name;
    Program program;
  };
  S3dOptions mixed;
  mixed.nodes = 4;
  mixed.mapping = "mixed";
  S3dOptions all;
  all.nodes = 8;
  all.mechanism = "heptane";
  const std::vector<Family> families = {
      {"chain", make_chain(80, four)},          {"fork-join", make_fork_join(9, 5, four)},
      {"random-dag", make_random_dag(2500, four)}, {"stencil 1-D", make_stencil(1, 4, four)},
      {"stencil 3-D", make_stencil(3, 3, {8, 2, 5})}, {"s3d mixed", make_s3d(mixed)},
      {"s3d all", make_s3d(all)},
      // Copies whose first hop is on another block's node: shared channel instances, lanes given out late.
      {"random-dag, 8 nodes", make_random_dag(6000, {8, 2, 7})}};
  for (const Family& f : families) {
    const rr::testing::TestDir dir("rr_blocks");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), f.program);
    int split = expect_blocks_same(trace, (dir.path() / "machine.toml").string(), f.name);
    for (const auto& model : kModels) split += expect_blocks_same(trace, model, f.name);
    // Chains and fork-joins cross nodes at every step; every family is split on some machine.
    EXPECT_GT(split, 0) << f.name << " was never split into blocks";
  }
}

// Nodes that share their cores, fewer than the threads busy on them (1 and 2 per node) or more (64), and processors
// that start up, alone and with 2 cores: each node's clock and start-ups are its block's alone, so the split gives
// one engine's result (the issue times and start-ups included) and critical path, on several generator families.
TEST(ReplayBlocks, SharedCoresAndStartUpsGiveTheOneEngineResult) {
  // The splits' shared list, and more cores than threads.
  std::vector<rr::testing::NamedOverrides> models = rr::testing::cores_and_start_up_models();
  models.push_back({"64 cores per node", {"node.cores=64"}});
  S3dOptions mixed;
  mixed.nodes = 4;
  mixed.mapping = "mixed";
  const std::vector<std::pair<const char*, Program>> families = {
      {"s3d mixed", make_s3d(mixed)},
      {"stencil 3-D", make_stencil(3, 3, {8, 2, 5})},
      {"random-dag, 8 nodes", make_random_dag(6000, {8, 2, 7})},
      {"fork-join", make_fork_join(9, 5, {4, 2, 3})}};
  for (const auto& [name, program] : families) {
    const rr::testing::TestDir dir("rr_blocks_cores");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
    for (const auto& [what, overrides] : models) {
      const std::string label = std::string(name) + ", " + what;
      int split = expect_blocks_same(trace, (dir.path() / "machine.toml").string(), label, 0, {}, overrides, true);
      split += expect_blocks_same(trace, kModels[0], label, 0, {}, overrides, true);
      EXPECT_GT(split, 0) << label << " was never split into blocks";
    }
  }
  // With noise, and under eft placement (its queue chosen by the earliest finish, which reads the processors' loads).
  const rr::testing::TestDir dir("rr_blocks_cores_s3d");
  const session::LoadedTrace trace = rr::testing::mixed_s3d(dir.path(), 4);
  const std::vector<std::string> two_cores = {"node.cores=2", "runtime.processor_start_ns=20000"};
  EXPECT_GT(expect_blocks_same(trace, kModels[0], "s3d mixed, 2 cores, sigma 0.4", 0.4, {}, two_cores, true), 0);
  session::ReplaySettings eft;
  eft.mapping.placement = machine::Placement::eft;
  EXPECT_GT(expect_blocks_same(trace, kModels[0], "s3d mixed, 2 cores, eft", 0, eft, two_cores, true), 0);
}

// The bundled real traces (2015 Realm logs and Legion Prof logs) on shared cores with start-ups. The first two split on
// Titan; whether the others do is the partition's affair, which reads neither the cores nor the start-ups.
TEST(ReplayBlocks, RealTracesOnSharedCoresGiveTheOneEngineResult) {
  const std::pair<const char*, bool> traces[] = {{"real/full_circuit_2node_p4_cpu2", true},
                                                 {"s3d/dme_mixed_4n", true},
                                                 {"real/full_ghost_b2_cpu2", false},
                                                 {"legion-prof/circuit_mpi2_medium_cpu2_util1", false}};
  for (const auto& [dir, splits] : traces)
    for (const auto& overrides : {std::vector<std::string>{"node.cores=1"},
                                  std::vector<std::string>{"node.cores=2", "runtime.processor_start_ns=30000"}}) {
      auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + dir}, {});
      ASSERT_TRUE(trace.ok()) << dir;
      const std::string label = std::string(dir) + ", " + overrides[0];
      const int split = expect_blocks_same(*trace, kModels[0], label, 0, {}, overrides, true);
      if (splits) {
        EXPECT_GT(split, 0) << label;
      }
    }
}

// The generators' machine with the NIC on the destination's side and a second hop back on the source: a remote
// copy's first hop is on another block's channel instance (a request without lookahead, lanes given out late),
// its second hop back on the first block's, and its end on its own.
TEST(ReplayBlocks, FirstHopsOnAnotherBlocksChannel) {
  const rr::testing::TestDir dir("rr_blocks_shared");
  rr::testing::FarNicTrace far;
  ASSERT_NO_FATAL_FAILURE(rr::testing::write_far_nic_trace(dir.path(), far));
  EXPECT_GT(expect_blocks_same(far.trace, far.machine, rr::testing::kFarNicLabel), 0);
  EXPECT_GT(expect_blocks_same(far.trace, far.machine, std::string(rr::testing::kFarNicLabel) + ", sigma 0.5", 0.5), 0);
}

TEST(ReplayBlocks, NoiseIsTheSameOnEveryBlock) {
  const rr::testing::TestDir dir("rr_blocks_noise");
  const session::LoadedTrace trace = rr::testing::mixed_s3d(dir.path(), 4);
  EXPECT_GT(expect_blocks_same(trace, kModels[0], "s3d mixed, sigma 0.4", 0.4), 0);
  // Noise on the hops sets the lookahead of the hops handed to another block (each copy's own factor).
  const rr::testing::TestDir dag_dir("rr_blocks_noise_dag");
  const session::LoadedTrace dag = rr::testing::write_and_load(dag_dir.path(), make_random_dag(4000, {4, 2, 21}));
  EXPECT_GT(expect_blocks_same(dag, (dag_dir.path() / "machine.toml").string(), "random-dag, sigma 0.8", 0.8), 0);
}

TEST(ReplayBlocks, RealTracesAndLegionProfLogsGiveTheOneEngineResult) {
  for (const char* dir : {"real/full_circuit_2node_p4_cpu2", "real/full_ghost_b2_cpu2", "s3d/dme_mixed_4n",
                          "s3d/dme_all_4n", "legion-prof/circuit_mpi2_medium_cpu2_util1",
                          "legion-prof/ghost_mpi2_n4096_b4_s20_cpu2_util1", "legion-prof/circuit_small_cpu2_util1"}) {
    auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + dir}, {});
    ASSERT_TRUE(trace.ok()) << dir;
    for (const auto& model : kModels) expect_blocks_same(*trace, model, dir);
  }
}

// The mappings of docs/mapping.md: placements (traced, pool, eft: the queue is chosen when the task is ready),
// functions moved to the GPU (with the copies that follow their data and the implied ones), node maps and folds
// (a task may then run on another node than its record's, and an issue cross blocks with no delay: one engine).
TEST(ReplayBlocks, MappingsGiveTheOneEngineResult) {
  const rr::testing::TestDir dir("rr_blocks_mapping");
  const session::LoadedTrace trace = rr::testing::mixed_s3d(dir.path(), 8);
  std::vector<std::pair<std::string, session::ReplaySettings>> mappings;
  for (auto placement : {machine::Placement::traced, machine::Placement::pool, machine::Placement::eft}) {
    session::ReplaySettings s;
    s.mapping.placement = placement;
    mappings.push_back({"placement " + std::to_string(static_cast<int>(placement)), s});
  }
  session::ReplaySettings moved;
  for (const char* m : {"18=gpu:0.0191", "20=gpu:0.0153"}) {
    auto move = machine::parse_move(m);
    ASSERT_TRUE(move.ok());
    moved.mapping.moves.push_back(*move);
  }
  mappings.push_back({"functions moved to the GPU", moved});
  moved.mapping.placement = machine::Placement::eft;
  mappings.push_back({"functions moved, eft", moved});
  session::ReplaySettings cyclic;
  auto map = machine::parse_node_map("cyclic");
  ASSERT_TRUE(map.ok());
  cyclic.mapping.nodes = *map;
  cyclic.mapping.fold = 4;
  mappings.push_back({"cyclic node map on 4 nodes", cyclic});
  session::ReplaySettings folded;
  folded.mapping.fold = 2;
  mappings.push_back({"folded on 2 nodes", folded});
  int split = 0;
  for (const auto& [label, settings] : mappings) split += expect_blocks_same(trace, kModels[0], label, 0, settings);
  EXPECT_GT(split, 0);
}

// A replay that gets stuck (a barrier that never gets its arrivals) is stuck the same way on blocks, and says so
// the same way.
TEST(ReplayBlocks, StuckOperationsAreTheSame) {
  const rr::testing::TestDir dir("rr_blocks_stuck");
  Program p = make_stencil(1, 3, {4, 2, 9});
  ASSERT_TRUE(inject_cycle(p));
  TruthMachine machine;
  const Truth truth = schedule(p, machine);
  write_trace(p, truth, machine, dir.path().string(), Compression::none);
  auto trace = session::load_trace({dir.path().string()}, {});
  ASSERT_TRUE(trace.ok());
  expect_blocks_same(*trace, (dir.path() / "machine.toml").string(), "stencil with a cycle");
}

// Where the split would not pay, one engine runs it: too few operations per block, a model of one node.
TEST(ReplayBlocks, SmallReplaysStayOnOneEngine) {
  auto trace = session::load_trace({RR_SOURCE_DIR "/data/traces/s3d/dme_mixed_4n"}, {});
  ASSERT_TRUE(trace.ok());
  auto run = session::replay_trace(*trace, {kModels[0], {}}, {});
  ASSERT_TRUE(run.ok());
  replay::ReplayOptions options;
  options.execution.blocks = 2;  // 22,420 operations: fewer than min_block_operations per block
  auto small = replay::run_replay(trace->graph(), run->map, run->model, options);
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->blocks, 1u);
  session::ReplaySettings fold;
  fold.mapping.fold = 1;
  auto folded = session::replay_trace(*trace, {kModels[0], {}}, fold);
  ASSERT_TRUE(folded.ok());
  options.execution.min_block_operations = 0;
  auto one_node = replay::run_replay(trace->graph(), folded->map, folded->model, options);
  ASSERT_TRUE(one_node.ok());
  EXPECT_EQ(one_node->blocks, 1u);
}

}  // namespace
}  // namespace rr::gen
