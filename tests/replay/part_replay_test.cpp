// Each rank replaying from its own part of the graph (replay/part_replay.hpp), ranks as threads on an in-process
// network that shuffles messages from different ranks: every owned operation's record (ready, start, end, what
// released it and why, its processor) must be one engine's on the whole graph, and the makespan, the operations,
// the processors' and channel instances' sums, the paths and the intervals, added over the ranks, one engine's. At 1
// to 4 ranks, with noise, on every generator family, the bundled real traces and S3D samples, random DAGs of random
// seeds and a copy whose first hop runs on another rank's channel, under the traced, pool and eft placements; a
// function move is refused, and a rank that fails before the replay begins stops every rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "gen/generators.hpp"
#include "gen/s3d.hpp"
#include "graph/graph_part.hpp"
#include "replay/part_exchange.hpp"
#include "replay/part_replay.hpp"
#include "replay/src/partition.hpp"
#include "replay/src/shared_state.hpp"
#include "session/session.hpp"
#include "support/generated_trace.hpp"
#include "support/failing_exchange.hpp"
#include "support/graph_part_text.hpp"
#include "support/in_process_network.hpp"
#include "support/ranks_as_threads.hpp"
#include "support/test_dir.hpp"

namespace rr::replay {
namespace {

namespace fs = std::filesystem;
using rr::testing::FailingExchange;

const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";

// What one rank ends with: its part's ids and its result, or why it stopped.
struct RankRun {
  std::vector<graph::VertexId> ids;
  std::optional<ReplayResult> result;
  std::string error;
};

// Every rank reads its files, builds its part and replays from it. `failing` fails its exchange number `fail_at`:
// the part build's six exchanges come first, then the replay's own.
std::vector<RankRun> run_parts(const session::LoadedTrace& trace, const machine::MachineModel& model,
                               const session::ReplaySettings& settings, std::uint32_t count, std::uint64_t seed,
                               std::uint32_t model_nodes, std::uint32_t failing = ~0u, std::uint32_t fail_at = 0) {
  const graph::NodeRanks ranks{count, model_nodes};
  std::vector<rr::testing::RankFiles> by_rank = rr::testing::read_by_rank(trace.records, ranks);
  rr::testing::InProcessNetwork net(count, seed);
  return rr::testing::on_ranks(net, count, [&](std::uint32_t r, BlockNetwork& end) {
    RankRun out;
    auto map = MachineMap::build(*by_rank[r].records, model, settings.mapping);
    if (!map) {
      out.error = map.error().to_string();
      return out;
    }
    NetworkRankExchange network_exchange(end);
    FailingExchange failing_exchange(network_exchange, r == failing ? fail_at : 0);
    try {
      const graph::GraphPart part = graph::build_graph_part(by_rank[r].files, ranks, failing_exchange);
      out.ids = part.ids;
      ReplayOptions options = settings.engine;
      options.execution.network = &end;
      auto run = run_part_over_network(part, ranks, failing_exchange, *map, model, options);
      if (run) out.result = std::move(*run);
      else out.error = run.error().to_string();
    } catch (const std::exception& e) {
      out.error = e.what();
    }
    return out;
  });
}

std::string record_of(const ReplayResult& r, graph::VertexId v) {
  return "ready " + std::to_string(r.ready(v)) + " start " + std::to_string(r.start(v)) + " end " +
         std::to_string(r.end(v)) + " released by " + std::to_string(r.released_by(v)) + " (" +
         release_name(r.release(v)) + ") processor " + std::to_string(r.processor_of[v]);
}

// When two records of one operation part: the earliest of their times that differ.
TimeNs parting(const ReplayResult& one, const ReplayResult& mine, graph::VertexId v, std::size_t i) {
  const auto at = static_cast<graph::VertexId>(i);
  TimeNs t = std::numeric_limits<TimeNs>::max();
  const std::pair<TimeNs, TimeNs> times[] = {
      {one.ready(v), mine.ready(at)}, {one.start(v), mine.start(at)}, {one.end(v), mine.end(at)}};
  for (const auto& [a, b] : times)
    if (a != b) t = std::min({t, a < 0 ? b : a, b < 0 ? a : b});
  return t == std::numeric_limits<TimeNs>::max() ? one.ready(v) : t;
}

// The ranks' results against one engine's: every owned record, and the sums added over the ranks.
void expect_same(const ReplayResult& one, const std::vector<RankRun>& runs, const std::string& label) {
  std::uint64_t operations = 0, stuck = 0, owned = 0;
  TimeNs makespan = 0, last_end = 0;
  std::vector<ProcessorUsage> processors(one.processors.size());
  std::vector<ChannelUsage> channels;
  std::map<std::string, PathUsage> paths;
  for (std::uint32_t r = 0; r < runs.size(); ++r) {
    if (!runs[r].result) {
      ADD_FAILURE() << label << ", rank " << r << ": " << runs[r].error;
      return;
    }
    const ReplayResult& mine = *runs[r].result;
    ASSERT_EQ(mine.ops.size(), runs[r].ids.size()) << label;
    // The earliest operation (by one engine's ready time) that differs: where the two runs part.
    std::optional<std::size_t> first;
    for (std::size_t i = 0; i < runs[r].ids.size(); ++i) {
      const graph::VertexId v = runs[r].ids[i];
      if (record_of(one, v) != record_of(mine, static_cast<graph::VertexId>(i)) &&
          (!first || parting(one, mine, v, i) < parting(one, mine, runs[r].ids[*first], *first)))
        first = i;
      EXPECT_EQ(one.counts(v), mine.counts(static_cast<graph::VertexId>(i))) << label << ", operation " << v;
    }
    if (first) {
      const graph::VertexId v = runs[r].ids[*first];
      ADD_FAILURE() << label << ", rank " << r << ", operation " << v << "\n one engine: " << record_of(one, v)
                    << "\n from parts: " << record_of(mine, static_cast<graph::VertexId>(*first));
    }
    owned += runs[r].ids.size();
    operations += mine.operations;
    stuck += mine.stuck;
    makespan = std::max(makespan, mine.makespan_ns);
    last_end = std::max(last_end, mine.last_end_ns);
    for (std::size_t p = 0; p < processors.size(); ++p) {
      processors[p].busy_ns += mine.processors[p].busy_ns;
      processors[p].segments += mine.processors[p].segments;
    }
    channels.insert(channels.end(), mine.channels.begin(), mine.channels.end());
    for (const auto& [name, usage] : mine.paths) {
      paths[name].copies += usage.copies;
      paths[name].bytes += usage.bytes;
      paths[name].time_ns += usage.time_ns;
    }
    EXPECT_EQ(mine.blocks, runs.size());
  }
  EXPECT_EQ(owned, one.ops.size()) << label;
  EXPECT_EQ(operations, one.operations) << label;
  EXPECT_EQ(stuck, one.stuck) << label;
  EXPECT_EQ(makespan, one.makespan_ns) << label;
  EXPECT_EQ(last_end, one.last_end_ns) << label;
  for (std::size_t p = 0; p < processors.size(); ++p) {
    EXPECT_EQ(processors[p].busy_ns, one.processors[p].busy_ns) << label << ", processor " << p;
    EXPECT_EQ(processors[p].segments, one.processors[p].segments) << label << ", processor " << p;
  }
  const auto by_place = [](const ChannelUsage& a, const ChannelUsage& b) {
    return std::tie(a.channel, a.node) < std::tie(b.channel, b.node);
  };
  std::sort(channels.begin(), channels.end(), by_place);
  ASSERT_EQ(channels.size(), one.channels.size()) << label;
  for (std::size_t i = 0; i < channels.size(); ++i) {
    EXPECT_EQ(std::tie(channels[i].channel, channels[i].node, channels[i].busy_ns, channels[i].transfers,
                       channels[i].bytes),
              std::tie(one.channels[i].channel, one.channels[i].node, one.channels[i].busy_ns,
                       one.channels[i].transfers, one.channels[i].bytes))
        << label << ", channel instance " << i;
  }
  ASSERT_EQ(paths.size(), one.paths.size()) << label;
  for (const auto& [name, usage] : one.paths) {
    EXPECT_EQ(paths[name].copies, usage.copies) << label << ' ' << name;
    EXPECT_EQ(paths[name].bytes, usage.bytes) << label << ' ' << name;
    EXPECT_EQ(paths[name].time_ns, usage.time_ns) << label << ' ' << name;
  }
}

// One engine under `placement` (traced unless a test says), with the whole graph's split checked against the parts'
// owners.
std::optional<session::ReplayRun> one_engine(const session::LoadedTrace& trace, const std::string& machine,
                                             session::ReplaySettings& settings, double sigma,
                                             machine::Placement placement = machine::Placement::traced) {
  settings.critical_path = false;
  settings.mapping.placement = placement;
  settings.engine.rules.noise = {sigma, 11};
  auto one = session::replay_trace(trace, {machine, {}}, settings);
  if (!one.ok()) {
    ADD_FAILURE() << one.error().to_string();
    return std::nullopt;
  }
  return std::move(*one);
}

// The whole graph's split into blocks gives each operation the rank its part puts it on (graph::NodeRanks).
void expect_owners_agree(const session::LoadedTrace& trace, const session::ReplayRun& one, std::uint32_t count,
                         const std::string& label) {
  SharedState shared;
  ASSERT_FALSE(plan_copies(trace.graph(), one.map, one.model, shared));
  const Partition p = partition_by_node(trace.graph(), one.map, one.model, shared.copies, {}, count, {0, 0});
  if (p.count < 2) return;
  const graph::NodeRanks ranks{count, one.map.model_nodes()};
  for (graph::VertexId v = 0; v < trace.graph().vertex_count(); ++v)
    if (p.of_vertex[v] != ranks.rank_of(trace.graph().node(v))) {
      ADD_FAILURE() << label << ": operation " << v << " is block " << int{p.of_vertex[v]} << "'s, its part rank "
                    << ranks.rank_of(trace.graph().node(v)) << "'s";
      return;
    }
}

// At 1 to 4 ranks (those the model's nodes allow). How many of the runs were split.
int expect_parts_same(const session::LoadedTrace& trace, const std::string& machine, const std::string& label,
                      double sigma, std::uint64_t seed = 1, machine::Placement placement = machine::Placement::traced) {
  session::ReplaySettings settings;
  settings.engine.detail.record_intervals = true;
  const auto one = one_engine(trace, machine, settings, sigma, placement);
  if (!one) return 0;
  int split = 0;
  for (std::uint32_t count = 1; count <= std::min(4u, one->map.model_nodes()); ++count) {
    const std::string at = label + " on " + machine + " at " + std::to_string(count) + " ranks";
    expect_owners_agree(trace, *one, count, at);
    const auto runs = run_parts(trace, one->model, settings, count, seed + count, one->map.model_nodes());
    expect_same(one->result, runs, at);
    split += count > 1;
  }
  return split;
}

TEST(PartReplay, EveryGeneratorFamilyGivesTheOneEngineRecords) {
  for (const auto& [name, program] : rr::testing::part_test_families()) {
    const rr::testing::TestDir dir("rr_part_replay");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
    EXPECT_GT(expect_parts_same(trace, (dir.path() / "machine.toml").string(), name, 0), 0) << name;
    expect_parts_same(trace, kTitan, name, 0.3);
  }
}

// A remote copy's first hop on the far node's channel instance, held by another rank (a request without lookahead),
// its second hop back on its own: the copy's size and memories reach the far rank as a ghost, its start comes back.
TEST(PartReplay, ACopyWhoseHopRunsOnAnotherRanksChannel) {
  const rr::testing::TestDir dir("rr_part_replay_far_nic");
  const gen::Program program = gen::make_random_dag(6000, {8, 2, 7});
  const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
  const fs::path machine = dir.path() / "far_nic.toml";
  ASSERT_NO_FATAL_FAILURE(rr::testing::write_far_nic_machine(machine, program));
  EXPECT_GT(expect_parts_same(trace, machine.string(), "random-dag, NIC on the far side", 0.5), 0);
}

TEST(PartReplay, BundledRealTracesAndS3dSamples) {
  for (const char* name : {"real/full_circuit_2node_p4_cpu2", "real/full_ghost_b2_cpu2", "s3d/dme_mixed_4n",
                           "s3d/dme_all_2n"}) {
    auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + name}, {});
    ASSERT_TRUE(trace.ok()) << name;
    expect_parts_same(*trace, kTitan, name, 0);
    expect_parts_same(*trace, kTitan, name, 0.2);
  }
}

TEST(PartReplay, RandomDagsOfRandomSeeds) {
  for (std::uint64_t seed = 21; seed < 26; ++seed) {
    const gen::SmallOptions options{static_cast<std::uint32_t>(2 + seed % 5), 1 + static_cast<std::uint32_t>(seed % 3),
                                    seed};
    const rr::testing::TestDir dir("rr_part_replay_seed");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), gen::make_random_dag(1500, options));
    expect_parts_same(trace, (dir.path() / "machine.toml").string(), "random-dag seed " + std::to_string(seed),
                      0.1 * static_cast<double>(seed % 4), seed);
  }
}

// Under pool placement a task may run on any processor of its kind on its model node, under eft on the one it would
// finish first on (without a function move, of its own kind): the node, and with it the rank, is the traced
// placement's, and every processor a rank's tasks may take is its own.
TEST(PartReplay, PoolAndEftPlacementsGiveTheOneEngineRecords) {
  for (const machine::Placement placement : {machine::Placement::pool, machine::Placement::eft}) {
    const std::string under = std::string(", ") + machine::placement_name(placement) + " placement";
    for (const auto& [name, program] : rr::testing::part_test_families()) {
      const rr::testing::TestDir dir("rr_part_replay_pool");
      const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
      EXPECT_GT(expect_parts_same(trace, (dir.path() / "machine.toml").string(), name + under, 0, 1, placement), 0)
          << name;
      expect_parts_same(trace, kTitan, name + under, 0.3, 1, placement);
    }
    for (const char* name : {"real/full_circuit_2node_p4_cpu2", "real/full_ghost_b2_cpu2", "s3d/dme_mixed_4n",
                             "s3d/dme_all_2n"}) {
      auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + name}, {});
      ASSERT_TRUE(trace.ok()) << name;
      expect_parts_same(*trace, kTitan, name + under, 0.2, 1, placement);
    }
    const rr::testing::TestDir dir("rr_part_replay_pool_dag");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), gen::make_random_dag(1500, {5, 3, 24}));
    expect_parts_same(trace, (dir.path() / "machine.toml").string(), "random-dag" + under, 0.2, 24, placement);
  }
}

// A moved function's copies follow their data through merges to the tasks they reach, which a rank's view need not
// hold: every rank refuses, with the reason.
TEST(PartReplay, AFunctionMoveIsRefusedByEveryRank) {
  const rr::testing::TestDir dir("rr_part_replay_move");
  const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), gen::make_random_dag(1500, {3, 2, 5}));
  session::ReplaySettings settings;
  const auto one = one_engine(trace, kTitan, settings, 0);
  ASSERT_TRUE(one);
  const graph::TaskInfo* first = nullptr;
  for (graph::VertexId v = 0; v < trace.graph().vertex_count() && !first; ++v)
    if (trace.graph().kind(v) == graph::OpKind::task) first = &trace.graph().task(v);
  ASSERT_TRUE(first);
  settings.mapping.moves.push_back({first->func_id, core::ProcessorKind::cpu, std::nullopt, "--map"});
  const auto runs = run_parts(trace, one->model, settings, 3, 5, one->map.model_nodes());
  for (std::uint32_t r = 0; r < 3; ++r) {
    EXPECT_FALSE(runs[r].result) << "rank " << r;
    EXPECT_NE(runs[r].error.find("function moves do not run from parts"), std::string::npos) << runs[r].error;
  }
}

// A rank whose network fails at the first of the replay's own exchanges (the ghosts'), after the part build's six:
// every rank stops with an error that names it, and none waits for it.
TEST(PartReplay, ARankThatFailsDuringTheGhostExchangeStopsEveryRank) {
  const rr::testing::TestDir dir("rr_part_replay_fail");
  const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), gen::make_random_dag(1500, {3, 2, 5}));
  session::ReplaySettings settings;
  const auto one = one_engine(trace, (dir.path() / "machine.toml").string(), settings, 0);
  ASSERT_TRUE(one);
  for (std::uint32_t fail_at = 7; fail_at <= 9; ++fail_at) {
    const auto runs = run_parts(trace, one->model, settings, 3, fail_at, one->map.model_nodes(), 1, fail_at);
    for (std::uint32_t r = 0; r < 3; ++r) {
      EXPECT_FALSE(runs[r].result) << "rank " << r << " replayed; exchange " << fail_at;
      EXPECT_NE(runs[r].error.find("the network went away"), std::string::npos) << runs[r].error;
      if (r != 1) {
        EXPECT_NE(runs[r].error.find("rank 1 of 3 stopped before the replay from parts began"), std::string::npos)
            << runs[r].error;
      }
    }
  }
}

}  // namespace
}  // namespace rr::replay
