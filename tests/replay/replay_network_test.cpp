// One replay over ranks (ReplayExecution::network, docs/scale.md) gives rank 0 what one engine gives, field by field
// (replay/result_difference.hpp), but the intervals and the issue times, which each rank keeps of its own operations
// (of its own work) and which together are one engine's, with the ranks as threads on an in-process network that
// delivers messages from different ranks in a shuffled order (tests/support/in_process_network.hpp): every generator
// family, copies whose first hop is on another rank, noise, the bundled real traces and Legion Prof logs, nodes that
// share cores and processors that start up (every rank then lists the run's start-ups), at 2 to 4 ranks; what the
// split cannot serve on rank 0 alone; too many ranks refused by every rank alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "gen/generators.hpp"
#include "gen/s3d.hpp"
#include "replay/replay_engine.hpp"
#include "replay/result_difference.hpp"
#include "replay/src/rank_part.hpp"
#include "replay/timeline_order.hpp"
#include "session/session.hpp"
#include "support/in_process_network.hpp"
#include "support/generated_trace.hpp"
#include "support/ranks_as_threads.hpp"
#include "support/test_dir.hpp"
#include "support/cores_and_start_ups.hpp"

namespace rr::gen {
namespace {

namespace fs = std::filesystem;

const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";

// Every rank's replay of `trace` on `model`, each a thread with its own machine map, as each process has its own;
// a rank whose replay went through says its part is done, as the command does once nothing more runs over ranks.
std::vector<core::Expected<session::ReplayRun>> replay_on_ranks(const session::LoadedTrace& trace,
                                                               const machine::MachineModel& model,
                                                               session::ReplaySettings settings, std::uint32_t ranks,
                                                               rr::testing::InProcessNetwork& net) {
  settings.critical_path = false;  // (network_critical_path_test.cpp walks it over the ranks)
  return rr::testing::on_ranks(net, ranks, [&](std::uint32_t, replay::BlockNetwork& end) {
    session::ReplaySettings mine = settings;
    mine.engine.execution.network = &end;
    auto run = session::replay_on(trace, model, mine);
    if (run) end.part_done();
    return run;
  });
}

// Rank 0's result with every rank's intervals, in the timeline's order; each rank's must be of its own operations,
// and list every channel instance as rank 0 does. With every rank's issue times too: each rank holds those its own
// work issued, no two ranks the same one; and every rank lists the run's start-ups, as rank 0 does.
replay::ReplayResult with_every_ranks_intervals(const std::vector<core::Expected<session::ReplayRun>>& runs,
                                                const std::string& what) {
  replay::ReplayResult all = runs[0]->result;
  if (!replay::split_over_ranks(all)) return all;
  all.intervals.clear();
  std::fill(all.issued_at.begin(), all.issued_at.end(), replay::kNever);
  for (const auto& run : runs) {
    if (!run.ok()) continue;
    const replay::ReplayResult& r = run->result;
    EXPECT_TRUE(std::is_sorted(r.intervals.begin(), r.intervals.end(), replay::timeline_before)) << what;
    EXPECT_EQ(r.channels.size(), all.channels.size()) << what;
    for (const replay::Interval& in : r.intervals) {
      EXPECT_TRUE(r.over_ranks->mine(in.vertex)) << what << ": an interval of another rank's operation " << in.vertex;
      all.intervals.push_back(in);
    }
    EXPECT_EQ(r.issued_at.size(), all.issued_at.size()) << what;
    for (graph::VertexId v = 0; v < std::min(r.issued_at.size(), all.issued_at.size()); ++v) {
      if (r.issued_at[v] == replay::kNever) continue;
      EXPECT_EQ(all.issued_at[v], replay::kNever) << what << ": two ranks issued operation " << v;
      all.issued_at[v] = r.issued_at[v];
    }
    EXPECT_EQ(r.start_ups.size(), all.start_ups.size()) << what;
    for (std::size_t i = 0; i < std::min(r.start_ups.size(), all.start_ups.size()); ++i) {
      const replay::StartUp &a = r.start_ups[i], &b = all.start_ups[i];
      EXPECT_EQ(std::tie(a.node, a.processor, a.from, a.to), std::tie(b.node, b.processor, b.from, b.to))
          << what << ", start-up " << i;
    }
  }
  std::sort(all.intervals.begin(), all.intervals.end(), replay::timeline_before);
  return all;
}

// Rank 0's result at 2, 3 and 4 ranks (those the model's nodes allow) against one engine's. How many runs were split.
int expect_ranks_same(const session::LoadedTrace& trace, const std::string& machine, const std::string& label,
                      double sigma = 0, const std::vector<std::string>& overrides = {}) {
  session::ReplaySettings settings;
  settings.critical_path = false;
  settings.engine.detail.record_intervals = true;
  settings.engine.rules.noise = {sigma, 7};
  auto one = session::replay_trace(trace, {machine, overrides}, settings);
  if (!one.ok()) {
    ADD_FAILURE() << label << ": " << one.error().to_string();
    return 0;
  }
  int split = 0;
  for (std::uint32_t ranks = 2; ranks <= std::min(4u, one->map.model_nodes()); ++ranks) {
    rr::testing::InProcessNetwork net(ranks, ranks);
    auto runs = replay_on_ranks(trace, one->model, settings, ranks, net);
    EXPECT_EQ(net.parts_done(), ranks) << label;
    if (!runs[0].ok()) {
      ADD_FAILURE() << label << " at " << ranks << " ranks: " << runs[0].error().to_string();
      continue;
    }
    split += runs[0]->result.blocks > 1;
    EXPECT_EQ(net.notes().empty(), runs[0]->result.blocks > 1) << label;
    const std::string what = label + " on " + machine + " at " + std::to_string(ranks) + " ranks (" +
                             std::to_string(runs[0]->result.blocks) + " blocks)";
    EXPECT_EQ(replay::first_difference(one->result, with_every_ranks_intervals(runs, what)), std::nullopt) << what;
  }
  return split;
}

TEST(ReplayNetwork, EveryGeneratorFamilyGivesTheOneEngineResult) {
  const SmallOptions four{4, 2, 3};
  const S3dOptions mixed = rr::testing::mixed_s3d_options(4);
  const std::vector<std::pair<const char*, Program>> families = {
      {"chain", make_chain(80, four)},          {"fork-join", make_fork_join(9, 5, four)},
      {"random-dag", make_random_dag(2500, four)}, {"stencil 3-D", make_stencil(3, 3, {8, 2, 5})},
      {"s3d mixed", make_s3d(mixed)},           {"random-dag, 8 nodes", make_random_dag(6000, {8, 2, 7})}};
  for (const auto& [name, program] : families) {
    const rr::testing::TestDir dir("rr_network");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
    int split = expect_ranks_same(trace, (dir.path() / "machine.toml").string(), name);
    split += expect_ranks_same(trace, kTitan, name, 0.3);
    EXPECT_GT(split, 0) << name << " was never split over ranks";
  }
}

// A remote copy's first hop on another rank's channel instance (a request without lookahead), its second hop back.
TEST(ReplayNetwork, FirstHopsOnAnotherRanksChannel) {
  const rr::testing::TestDir dir("rr_network_far_nic");
  rr::testing::FarNicTrace far;
  ASSERT_NO_FATAL_FAILURE(rr::testing::write_far_nic_trace(dir.path(), far));
  EXPECT_GT(expect_ranks_same(far.trace, far.machine, rr::testing::kFarNicLabel, 0.5), 0);
}

TEST(ReplayNetwork, RealTracesAndLegionProfLogsGiveTheOneEngineResult) {
  for (const char* dir : {"real/full_circuit_2node_p4_cpu2", "s3d/dme_mixed_4n", "legion-prof/circuit_mpi2_medium_cpu2_util1"}) {
    auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + dir}, {});
    ASSERT_TRUE(trace.ok()) << dir;
    expect_ranks_same(*trace, kTitan, dir);
  }
}


// Shared cores and start-ups split over ranks as over threads: a node's clock and start-ups are its rank's alone.
// Rank 0 gets one engine's result, every rank the run's start-ups, each rank the issue times of its own work.
TEST(ReplayNetwork, SharedCoresAndStartUpsGiveTheOneEngineResult) {
  const S3dOptions mixed = rr::testing::mixed_s3d_options(4);
  const std::vector<std::pair<const char*, Program>> families = {
      {"s3d mixed", make_s3d(mixed)},
      {"stencil 3-D", make_stencil(3, 3, {8, 2, 5})},
      {"random-dag, 8 nodes", make_random_dag(6000, {8, 2, 7})}};
  for (const auto& [name, program] : families) {
    const rr::testing::TestDir dir("rr_network_cores");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
    for (const auto& [what, overrides] : rr::testing::cores_and_start_up_models()) {
      const std::string label = std::string(name) + ", " + what;
      int split = expect_ranks_same(trace, (dir.path() / "machine.toml").string(), label, 0, overrides);
      split += expect_ranks_same(trace, kTitan, label, 0.3, overrides);
      EXPECT_GT(split, 0) << label << " was never split over ranks";
    }
  }
  auto trace = session::load_trace({RR_SOURCE_DIR "/data/traces/real/full_circuit_2node_p4_cpu2"}, {});
  ASSERT_TRUE(trace.ok());
  for (const auto& [what, overrides] : rr::testing::cores_and_start_up_models())
    EXPECT_GT(expect_ranks_same(*trace, kTitan, std::string("full_circuit, ") + what, 0, overrides), 0) << what;
}

// What the split cannot serve runs on rank 0 alone, which says so; the others have nothing of their own.
TEST(ReplayNetwork, AStopTimeRunsOnRankZeroAlone) {
  const rr::testing::TestDir dir("rr_network_stop");
  const session::LoadedTrace trace = rr::testing::mixed_s3d(dir.path(), 4);
  auto model = session::load_machine_for(trace, {kTitan, {"node.cores=2"}});
  ASSERT_TRUE(model.ok());
  session::ReplaySettings settings;
  settings.engine.stop_after_ns = 1000000;
  auto one = session::replay_on(trace, *model, settings);
  ASSERT_TRUE(one.ok());
  rr::testing::InProcessNetwork net(3, 1);
  auto runs = replay_on_ranks(trace, *model, settings, 3, net);
  ASSERT_TRUE(runs[0].ok());
  EXPECT_EQ(runs[0]->result.blocks, 1u);
  // No rank goes on over the ranks from it (a what-if, a walk): rank 0 alone holds it.
  for (const auto& run : runs) {
    ASSERT_TRUE(run.ok());
    EXPECT_FALSE(replay::split_over_ranks(run->result));
  }
  EXPECT_EQ(replay::first_difference(one->result, runs[0]->result), std::nullopt);
  ASSERT_EQ(net.notes().size(), 1u);
  EXPECT_NE(net.notes()[0].find("rank 0 alone"), std::string::npos) << net.notes()[0];
}

TEST(ReplayNetwork, MoreRanksThanModelNodesIsRefusedByEveryRank) {
  auto trace = session::load_trace({RR_SOURCE_DIR "/data/traces/real/full_circuit_2node_p4_cpu2"}, {});
  ASSERT_TRUE(trace.ok());
  auto model = session::load_machine_for(*trace, {kTitan, {}});
  ASSERT_TRUE(model.ok());
  rr::testing::InProcessNetwork net(3, 1);
  auto runs = replay_on_ranks(*trace, *model, {}, 3, net);
  for (const auto& run : runs) {
    ASSERT_FALSE(run.ok());
    EXPECT_NE(run.error().to_string().find("at most 2 rank(s)"), std::string::npos) << run.error().to_string();
  }
  EXPECT_EQ(net.parts_done(), 3u);  // each rank, at its refusal
}

}  // namespace
}  // namespace rr::gen
