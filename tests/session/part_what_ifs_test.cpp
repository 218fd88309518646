// The "Bounded by" what-ifs run from parts (session/part_what_ifs.hpp): the bounds found on one process's critical
// path, replayed by ranks that each hold only their part of the graph (ranks as threads on an in-process network
// that shuffles messages from different ranks), give every rank one process's what-if estimates, at 1 to 4 ranks, on
// an S3D sample, a stencil, a random DAG and a real trace, under the traced and the pool placement, and from parts read
// rank by rank. A what-if the replay from parts refuses, and one a rank's network fails in, keeps its error on every
// rank; the next still run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gen/generators.hpp"
#include "graph/graph_part.hpp"
#include "replay/part_exchange.hpp"
#include "replay/part_replay.hpp"
#include "session/bounds.hpp"
#include "session/part_what_ifs.hpp"
#include "session/session.hpp"
#include "session/trace_part.hpp"
#include "support/failing_exchange.hpp"
#include "support/generated_trace.hpp"
#include "support/graph_part_text.hpp"
#include "support/in_process_network.hpp"
#include "support/ranks_as_threads.hpp"
#include "support/test_dir.hpp"

namespace rr::session {
namespace {

const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";

// One process's run with its critical path, and its bounds with their what-ifs run as the report runs them.
struct OneProcess {
  std::uint32_t model_nodes = 0;
  std::vector<RunBound> bounds;
};

OneProcess one_process(const LoadedTrace& trace, const machine::MachineModel& model, const ReplaySettings& settings) {
  auto run = replay_on(trace, model, settings);
  if (!run) {
    ADD_FAILURE() << run.error().to_string();
    return {};
  }
  OneProcess one{run->map.model_nodes(), find_bounds(trace, *run)};
  run_what_ifs(trace, settings, one.bounds, 1);
  return one;
}

// A rank whose exchange fails at its `fail_at`-th call (the part build makes six, then each what-if its own).
struct Failing {
  std::uint32_t rank = ~0u;
  std::uint32_t at = 0;
};

// Every rank reads its files, builds its part and runs the what-ifs of `bounds` (their results cleared) from it:
// each rank's bounds afterwards, in rank order.
std::vector<std::vector<RunBound>> from_parts(const LoadedTrace& trace, const ReplaySettings& settings,
                                              std::vector<RunBound> bounds, std::uint32_t count,
                                              std::uint32_t model_nodes, Failing failing = {}) {
  for (RunBound& b : bounds) {
    b.what_if_ns.reset();
    b.what_if_error.clear();
  }
  const graph::NodeRanks ranks{count, model_nodes};
  const std::vector<rr::testing::RankFiles> by_rank = rr::testing::read_by_rank(trace.records, ranks);
  rr::testing::InProcessNetwork net(count, 40 + count);
  return rr::testing::on_ranks(net, count, [&](std::uint32_t r, replay::BlockNetwork& end) {
    std::vector<RunBound> mine = bounds;
    replay::NetworkRankExchange network_exchange(end);
    rr::testing::FailingExchange exchange(network_exchange, r == failing.rank ? failing.at : 0);
    ReplaySettings on_network = settings;
    on_network.engine.execution.network = &end;
    try {
      const graph::GraphPart part = graph::build_graph_part(by_rank[r].files, ranks, exchange);
      run_what_ifs_from_part(part, ranks, exchange, *by_rank[r].records, on_network, mine);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "rank " << r << ": " << e.what();
    }
    return mine;
  });
}

// How many of the what-ifs ran under pool placement and how many as the run, over every count of ranks.
struct Ran {
  int pooled = 0;
  int as_run = 0;
};

void expect_one_process_estimates(const LoadedTrace& trace, const machine::MachineModel& model,
                                  const ReplaySettings& settings, const std::string& label, Ran& ran) {
  const OneProcess one = one_process(trace, model, settings);
  ASSERT_FALSE(one.bounds.empty()) << label;
  for (std::uint32_t count = 1; count <= std::min(4u, one.model_nodes); ++count) {
    const std::string at = label + " at " + std::to_string(count) + " ranks";
    const auto by_rank = from_parts(trace, settings, one.bounds, count, one.model_nodes);
    for (std::uint32_t r = 0; r < count; ++r) {
      ASSERT_EQ(by_rank[r].size(), one.bounds.size()) << at;
      for (std::size_t i = 0; i < one.bounds.size(); ++i) {
        const RunBound& expected = one.bounds[i];
        const RunBound& got = by_rank[r][i];
        ASSERT_TRUE(expected.what_if_ns || expected.overrides.empty()) << at << ": " << expected.what_if_error;
        EXPECT_EQ(got.what_if_ns, expected.what_if_ns) << at << ", rank " << r << ": " << expected.name;
        EXPECT_EQ(got.what_if_error, "") << at << ", rank " << r << ": " << expected.name;
        if (r == 0 && expected.what_if_ns) ++(expected.pool ? ran.pooled : ran.as_run);
      }
    }
  }
}

machine::MachineModel model_of(const LoadedTrace& trace, const std::string& machine) {
  auto model = load_machine_for(trace, {machine, {}}, nullptr);
  if (!model) ADD_FAILURE() << model.error().to_string();
  return model ? *model : machine::MachineModel{};
}

// Under the model's placement (pool: none of these machines names one) and under the traced one.
void expect_both_placements(const LoadedTrace& trace, const std::string& machine, const std::string& label, Ran& ran) {
  const machine::MachineModel model = model_of(trace, machine);
  ReplaySettings settings;
  expect_one_process_estimates(trace, model, settings, label + ", pool placement", ran);
  settings.mapping.placement = machine::Placement::traced;
  expect_one_process_estimates(trace, model, settings, label + ", traced placement", ran);
}

TEST(PartWhatIfs, GiveOneProcesssEstimatesOnGeneratedTraces) {
  Ran ran;
  const rr::testing::TestDir dir("rr_part_what_ifs");
  const LoadedTrace s3d = rr::testing::mixed_s3d(dir.path() / "s3d", 4);
  expect_both_placements(s3d, kTitan, "mixed S3D on Titan", ran);
  expect_both_placements(s3d, (dir.path() / "s3d" / "machine.toml").string(), "mixed S3D on its machine", ran);
  const LoadedTrace stencil = rr::testing::write_and_load(dir.path() / "stencil", gen::make_stencil(3, 3, {8, 2, 5}));
  expect_both_placements(stencil, kTitan, "3-D stencil on Titan", ran);
  const LoadedTrace dag = rr::testing::write_and_load(dir.path() / "dag", gen::make_random_dag(2500, {4, 2, 3}));
  expect_both_placements(dag, (dir.path() / "dag" / "machine.toml").string(), "random DAG on its machine", ran);
  EXPECT_GT(ran.pooled, 0);
  EXPECT_GT(ran.as_run, 0);
}

TEST(PartWhatIfs, GiveOneProcesssEstimatesOnARealTraceAndAnS3dSample) {
  Ran ran;
  for (const char* name : {"real/full_circuit_2node_p4_cpu2", "s3d/dme_mixed_4n"}) {
    auto trace = load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + name}, {});
    ASSERT_TRUE(trace.ok()) << name;
    expect_both_placements(*trace, kTitan, std::string(name) + " on Titan", ran);
  }
  EXPECT_GT(ran.pooled + ran.as_run, 0);
}

// Each rank reads only its nodes' files (load_trace_part) and runs the what-ifs from what it read.
TEST(PartWhatIfs, FromAPartReadRankByRank) {
  const rr::testing::TestDir dir("rr_part_what_ifs_read");
  const LoadedTrace trace = rr::testing::mixed_s3d(dir.path(), 4);
  const OneProcess one = one_process(trace, model_of(trace, kTitan), {});
  ASSERT_FALSE(one.bounds.empty());
  ASSERT_TRUE(one.bounds[0].what_if_ns);
  const auto files = files_by_node({dir.path().string()});
  ASSERT_TRUE(files.ok()) << files.error().to_string();
  for (std::uint32_t count = 1; count <= 4; ++count) {
    rr::testing::InProcessNetwork net(count, 60 + count);
    const auto by_rank = rr::testing::on_ranks(net, count, [&](std::uint32_t r, replay::BlockNetwork& end) {
      std::vector<RunBound> mine = one.bounds;
      for (RunBound& b : mine) b.what_if_ns.reset();
      replay::NetworkRankExchange exchange(end);
      ReplaySettings on_network;
      on_network.engine.execution.network = &end;
      try {
        auto part = load_trace_part({dir.path().string()}, *files, {}, count, exchange);
        if (!part) ADD_FAILURE() << "rank " << r << ": " << part.error().to_string();
        else run_what_ifs_from_part(*part, exchange, on_network, mine);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "rank " << r << ": " << e.what();
      }
      return mine;
    });
    for (std::uint32_t r = 0; r < count; ++r)
      for (std::size_t i = 0; i < one.bounds.size(); ++i) {
        EXPECT_EQ(by_rank[r][i].what_if_ns, one.bounds[i].what_if_ns) << count << " ranks, rank " << r;
        EXPECT_EQ(by_rank[r][i].what_if_error, "") << count << " ranks, rank " << r;
      }
  }
}

// Titan with nodes that share their cores: one process replays every what-if, the replay from parts none of them,
// and every rank keeps the refusal.
// The part prepared once (replay::prepare_part, which uses it up): the run replays on it, then every what-if does,
// with one process's estimates; a model whose copies take other routes is refused by every rank, naming why.
TEST(PartWhatIfs, FromAPartPreparedOnce) {
  const rr::testing::TestDir dir("rr_part_what_ifs_prepared");
  const LoadedTrace trace = rr::testing::mixed_s3d(dir.path(), 4);
  const machine::MachineModel titan = model_of(trace, kTitan);
  const OneProcess one = one_process(trace, titan, {});
  ASSERT_FALSE(one.bounds.empty());
  machine::MachineModel other_routes = titan;
  ASSERT_FALSE(other_routes.paths.empty());
  for (machine::CopyPath& path : other_routes.paths) std::reverse(path.hops.begin(), path.hops.end());
  bool reversed_any = false;
  for (std::size_t i = 0; i < titan.paths.size(); ++i) reversed_any |= titan.paths[i].hops != other_routes.paths[i].hops;
  ASSERT_TRUE(reversed_any);  // (some path has two hops, in another order now)
  const auto files = files_by_node({dir.path().string()});
  ASSERT_TRUE(files.ok()) << files.error().to_string();
  for (std::uint32_t count = 1; count <= 4; ++count) {
    rr::testing::InProcessNetwork net(count, 70 + count);
    struct RankEnd {
      std::vector<RunBound> bounds;
      std::optional<replay::TimeNs> makespan;
      std::string refusal;
    };
    const auto ends = rr::testing::on_ranks(net, count, [&](std::uint32_t r, replay::BlockNetwork& end) {
      RankEnd out;
      out.bounds = one.bounds;
      for (RunBound& b : out.bounds) b.what_if_ns.reset();
      replay::NetworkRankExchange exchange(end);
      ReplaySettings on_network;
      on_network.engine.execution.network = &end;
      try {
        auto part = load_trace_part({dir.path().string()}, *files, {}, count, exchange);
        if (!part) throw std::runtime_error(part.error().to_string());
        auto map = replay::MachineMap::build(part->records, titan, on_network.mapping);
        if (!map) throw std::runtime_error(map.error().to_string());
        auto prepared = replay::prepare_part(std::move(part->part), part->ranks, exchange, *map, titan, on_network.engine);
        if (!prepared) throw std::runtime_error(prepared.error().to_string());
        auto run = replay::run_part_over_network(*prepared, part->ranks, exchange, *map, titan, on_network.engine);
        if (!run) throw std::runtime_error(run.error().to_string());
        out.makespan = run->makespan_ns;
        run_what_ifs_from_part(*prepared, part->ranks, exchange, part->records, on_network, out.bounds);
        auto refused = replay::run_part_over_network(*prepared, part->ranks, exchange, *map, other_routes, on_network.engine);
        if (!refused) out.refusal = refused.error().to_string();
      } catch (const std::exception& e) {
        ADD_FAILURE() << "rank " << r << ": " << e.what();
      }
      return out;
    });
    for (std::uint32_t r = 0; r < count; ++r) {
      EXPECT_TRUE(ends[r].makespan.has_value()) << count << " ranks, rank " << r;
      for (std::size_t i = 0; i < one.bounds.size(); ++i)
        EXPECT_EQ(ends[r].bounds[i].what_if_ns, one.bounds[i].what_if_ns) << count << " ranks, rank " << r;
      EXPECT_NE(ends[r].refusal.find("other routes"), std::string::npos) << count << " ranks, rank " << r << ": "
                                                                         << ends[r].refusal;
    }
  }
}

// On shared cores with start-ups every what-if replays from the parts as the run does (the cores' and the start-ups'
// own among them: twice the cores, start-ups half as long), with one process's estimate on every rank.
TEST(PartWhatIfs, SharedCoresAndStartUpsGiveOneProcessEstimates) {
  const rr::testing::TestDir dir("rr_part_what_ifs_cores");
  const LoadedTrace trace = rr::testing::mixed_s3d(dir.path(), 4);
  machine::MachineModel model = model_of(trace, kTitan);
  model.node.cores = 2;
  model.runtime.processor_start_ns = 20000;
  const OneProcess one = one_process(trace, model, {});
  bool cores_bound = false;
  for (const RunBound& b : one.bounds)
    for (const std::string& o : b.overrides) cores_bound |= o.rfind("node.cores=", 0) == 0 || o.rfind("runtime.", 0) == 0;
  EXPECT_TRUE(cores_bound) << "no what-if on the cores or the start-ups";
  Ran ran;
  expect_one_process_estimates(trace, model, {}, "s3d mixed on Titan, 2 cores, start-ups of 20 us", ran);
  EXPECT_GT(ran.as_run, 0);
}

// Rank 1's network fails in the first what-if's first round (its seventh exchange, after the part build's six):
// that what-if fails on every rank, naming the failure, and the next ones give one process's estimates.
TEST(PartWhatIfs, ARankThatFailsInAWhatIfStopsItOnEveryRankAndTheNextStillRun) {
  const rr::testing::TestDir dir("rr_part_what_ifs_fail");
  const LoadedTrace trace = rr::testing::mixed_s3d(dir.path(), 4);
  const OneProcess one = one_process(trace, model_of(trace, kTitan), {});
  ASSERT_GE(one.bounds.size(), 2u);
  ASSERT_FALSE(one.bounds[0].overrides.empty());
  const auto by_rank = from_parts(trace, {}, one.bounds, 3, one.model_nodes, {1, 7});
  for (std::uint32_t r = 0; r < 3; ++r) {
    EXPECT_FALSE(by_rank[r][0].what_if_ns) << "rank " << r;
    EXPECT_NE(by_rank[r][0].what_if_error.find("the network went away"), std::string::npos)
        << "rank " << r << ": " << by_rank[r][0].what_if_error;
    for (std::size_t i = 1; i < one.bounds.size(); ++i) {
      EXPECT_EQ(by_rank[r][i].what_if_ns, one.bounds[i].what_if_ns) << "rank " << r << ": " << one.bounds[i].name;
      EXPECT_EQ(by_rank[r][i].what_if_error, "") << "rank " << r;
    }
  }
}

}  // namespace
}  // namespace rr::session
