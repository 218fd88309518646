// The critical path of a replay over ranks (replay/src/network_critical_path.hpp), walked back across the ranks with
// the ranks as threads on an in-process network that shuffles messages from different ranks: rank 0's path equals
// one engine's step by step, with its sums, contention and lower bound; every other rank gets the sums without the
// steps; the walk hands over between ranks many times, on shared cores and with start-ups too; and no rank reads a
// record that is not its own (rank 0's copies of the other ranks' records are forgotten before the walk, and a walk
// that would read one is refused).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "gen/generators.hpp"
#include "gen/s3d.hpp"
#include "replay/critical_path.hpp"
#include "replay/src/path_walk.hpp"
#include "replay/src/rank_part.hpp"
#include "session/session.hpp"
#include "support/critical_path_checks.hpp"
#include "support/generated_trace.hpp"
#include "support/in_process_network.hpp"
#include "support/ranks_as_threads.hpp"
#include "support/test_dir.hpp"
#include "support/cores_and_start_ups.hpp"

namespace rr::gen {
namespace {

const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";

using rr::testing::expect_same_steps;
using rr::testing::expect_same_sums;

// Times the path passes from one rank's operations to another's.
int crossings(const replay::CriticalPath& cp, const replay::RankPart& part) {
  int n = 0;
  for (std::size_t i = 1; i < cp.steps.size(); ++i)
    n += part.partition.of_vertex[cp.steps[i].vertex] != part.partition.of_vertex[cp.steps[i - 1].vertex];
  return n;
}

// Rank 0's records of the operations other ranks own, forgotten: what rank 0 holds once it gathers nothing.
replay::ReplayResult own_records_only(replay::ReplayResult r) {
  for (graph::VertexId v = 0; v < r.processor_of.size(); ++v)
    if (!r.over_ranks->mine(v)) {
      r.ops.forget(v);
      r.processor_of[v] = ~0u;
    }
  return r;
}

// The time one engine's path spends waiting for shared cores or start-ups (PathResource::Type::cores, start_ups).
replay::TimeNs on_cores_and_start_ups(const replay::CriticalPath& cp) {
  replay::TimeNs ns = 0;
  for (const auto& [res, t] : cp.contention)
    if (res.type == replay::PathResource::Type::cores || res.type == replay::PathResource::Type::start_ups) ns += t;
  return ns;
}

// The critical path over 2 to 4 ranks against one engine's; the most crossings between ranks seen. `cores_ns`, when
// given, adds the time one engine's path spends on shared cores and start-ups.
int expect_path_over_ranks(const session::LoadedTrace& trace, const std::string& machine, const std::string& label,
                           const std::vector<std::string>& overrides = {}, replay::TimeNs* cores_ns = nullptr) {
  session::ReplaySettings settings;
  auto one = session::replay_trace(trace, {machine, overrides}, settings);
  if (!one.ok()) {
    ADD_FAILURE() << label << ": " << one.error().to_string();
    return 0;
  }
  settings.critical_path = false;  // walked below, after rank 0's other records are forgotten
  if (cores_ns) *cores_ns += on_cores_and_start_ups(*one->critical);
  int most = 0;
  for (std::uint32_t ranks = 2; ranks <= std::min(4u, one->map.model_nodes()); ++ranks) {
    const std::string what = label + " on " + machine + " at " + std::to_string(ranks) + " ranks";
    rr::testing::InProcessNetwork net(ranks, 10 + ranks);
    struct Walked {
      core::Expected<session::ReplayRun> run;
      replay::CriticalPath cp;
    };
    auto walked = rr::testing::on_ranks(net, ranks, [&](std::uint32_t r, replay::BlockNetwork& end) {
      session::ReplaySettings mine = settings;
      mine.engine.execution.network = &end;
      Walked w{session::replay_on(trace, one->model, mine), {}};
      if (!w.run) return w;
      const replay::ReplayResult own = r == 0 && w.run->result.over_ranks ? own_records_only(w.run->result) : w.run->result;
      w.cp = replay::critical_path(trace.graph(), w.run->map, w.run->model, own);
      return w;
    });
    if (!walked[0].run.ok()) {
      ADD_FAILURE() << what << ": " << walked[0].run.error().to_string();
      continue;
    }
    if (walked[0].run->result.blocks < 2) {  // replayed on rank 0 alone: its path is one engine's
      EXPECT_FALSE(on_cores_and_start_ups(*one->critical)) << what << " was not split";
      continue;
    }
    expect_same_steps(*one->critical, walked[0].cp, what);
    for (std::uint32_t r = 0; r < ranks; ++r) {
      expect_same_sums(*one->critical, walked[r].cp, what + ", rank " + std::to_string(r));
      if (r) {
        EXPECT_TRUE(walked[r].cp.steps.empty()) << what;
      }
    }
    most = std::max(most, crossings(walked[0].cp, *walked[0].run->result.over_ranks));
  }
  return most;
}

TEST(NetworkCriticalPath, WalkedBackAcrossRanksGivesTheOneEnginePath) {
  const S3dOptions mixed = rr::testing::mixed_s3d_options(4);
  // The least number of times the path of each must cross between ranks: an S3D step's path stays on one node.
  const std::vector<std::tuple<const char*, Program, int>> families = {
      {"s3d mixed", make_s3d(mixed), 0}, {"stencil 3-D", make_stencil(3, 3, {8, 2, 5}), 3},
      {"random-dag, 8 nodes", make_random_dag(6000, {8, 2, 7}), 3}};
  for (const auto& [name, program, least] : families) {
    const rr::testing::TestDir dir("rr_network_path");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
    const int most = std::max(expect_path_over_ranks(trace, (dir.path() / "machine.toml").string(), name),
                              expect_path_over_ranks(trace, kTitan, name));
    // The walk hands over between ranks again and again, not once.
    EXPECT_GE(most, least) << name;
  }
}

TEST(NetworkCriticalPath, RealTracesAndLegionProfLogs) {
  for (const char* dir : {"real/full_circuit_2node_p4_cpu2", "s3d/dme_mixed_4n", "legion-prof/circuit_mpi2_medium_cpu2_util1"}) {
    auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + dir}, {});
    ASSERT_TRUE(trace.ok()) << dir;
    expect_path_over_ranks(*trace, kTitan, dir);
  }
}

// Nodes that share cores and processors that start up: the walk classes a step's time past its own work (its node's
// cores, its node's start-ups) on the rank that owns it, from the start-ups every rank lists; the lower bound weighs
// an issue edge on its issuer's rank, from the issue times that rank's work kept. Rank 0's path is one engine's.
TEST(NetworkCriticalPath, SharedCoresAndStartUps) {
  const auto& models = rr::testing::cores_and_start_up_models();
  const S3dOptions mixed = rr::testing::mixed_s3d_options(4);
  const std::vector<std::pair<const char*, Program>> families = {
      {"s3d mixed", make_s3d(mixed)},
      {"stencil 3-D", make_stencil(3, 3, {8, 2, 5})},
      {"random-dag, 8 nodes", make_random_dag(6000, {8, 2, 7})}};
  replay::TimeNs cores_ns = 0;
  int most = 0;
  for (const auto& [name, program] : families) {
    const rr::testing::TestDir dir("rr_network_path_cores");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
    for (const auto& [what, overrides] : models) {
      const std::string label = std::string(name) + ", " + what;
      most = std::max(most, expect_path_over_ranks(trace, (dir.path() / "machine.toml").string(), label, overrides,
                                                   &cores_ns));
      most = std::max(most, expect_path_over_ranks(trace, kTitan, label, overrides, &cores_ns));
    }
  }
  auto trace = session::load_trace({RR_SOURCE_DIR "/data/traces/real/full_circuit_2node_p4_cpu2"}, {});
  ASSERT_TRUE(trace.ok());
  for (const auto& [what, overrides] : models)
    expect_path_over_ranks(*trace, kTitan, "full_circuit, " + what, overrides, &cores_ns);
  EXPECT_GT(cores_ns, 0) << "no path waited for shared cores or start-ups";
  EXPECT_GE(most, 3) << "the walk never handed over between ranks";
}

// A walk that would read a record its process does not hold is refused, at its start and at a hand-over.
TEST(NetworkCriticalPath, AWalkNeverReadsAnotherRanksRecord) {
  const rr::testing::TestDir dir("rr_network_path_refused");
  const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), make_chain(20, {2, 1, 3}));
  auto one = session::replay_trace(trace, {(dir.path() / "machine.toml").string(), {}}, {});
  ASSERT_TRUE(one.ok());
  const auto& steps = one->critical->steps;
  ASSERT_GE(steps.size(), 2u);
  const graph::VertexId last = steps.back().vertex;
  const graph::VertexId earlier = steps.front().vertex;
  ASSERT_NE(last, earlier);
  replay::PathWalk none_mine(trace.graph(), one->map, one->model, one->result, [](graph::VertexId) { return false; });
  EXPECT_THROW(none_mine.from_last(last), std::logic_error);
  // Every record but the earliest step's: the walk stops at a hand-over to it, and may not go on from there.
  replay::PathWalk all_but(trace.graph(), one->map, one->model, one->result,
                           [&](graph::VertexId v) { return v != earlier; });
  const auto handover = all_but.from_last(last);
  ASSERT_TRUE(handover.has_value());
  EXPECT_EQ(handover->next, earlier);
  EXPECT_THROW(all_but.from(*handover), std::logic_error);
}

}  // namespace
}  // namespace rr::gen
