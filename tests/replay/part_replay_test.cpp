// Each rank replaying from its own part of the graph (replay/part_replay.hpp), ranks as threads on an in-process
// network that shuffles messages from different ranks: every owned operation's record (ready, start, end, what
// released it and why, its processor) must be one engine's on the whole graph; every rank's makespan, latest end and
// channel instances (listed for the timeline's tracks) one engine's; and the operations, the counts of what each rank
// owns (tasks without time and what depends on them, copies, waits), the processors' sums and the paths, added over
// the ranks, one engine's. At 1 to 4 ranks, with noise, on every generator family, the bundled real traces and S3D
// samples, random DAGs of random seeds and a copy whose first hop runs on another rank's channel, under the traced,
// pool and eft placements, with and without a fold or node map (the parts split by model node), on nodes that share
// cores and processors that start up (every rank then lists the run's start-ups, and each holds the issue times of its
// own work, which together are one engine's); a function move is refused, and a rank that fails before the replay
// begins stops every rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "gen/generators.hpp"
#include "gen/s3d.hpp"
#include "replay/part_replay.hpp"
#include "replay/src/local_graph.hpp"
#include "replay/src/partition.hpp"
#include "replay/src/rank_part.hpp"
#include "replay/src/shared_state.hpp"
#include "session/session.hpp"
#include "support/generated_trace.hpp"
#include "support/part_replay_run.hpp"
#include "support/test_dir.hpp"
#include "support/cores_and_start_ups.hpp"
#include "support/fold_mapping.hpp"

namespace rr::replay {
namespace {

namespace fs = std::filesystem;

const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";

using rr::testing::PartRun;
using rr::testing::run_parts;

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

// The counts of a result that each rank makes of its own operations, in one order.
std::vector<std::uint64_t> own_counts(const ReplayResult& r) {
  return {r.operations,     r.stuck,           r.tasks_without_time,  r.outside_work,   r.after_untimed,
          r.measured_waits, static_cast<std::uint64_t>(r.measured_wait_ns), r.copies_default_size,
          r.copies_retargeted, r.copies_removed, r.implied_copies, r.clamped_waits};
}

// A rank's channel instances, which it lists as one engine does when it records intervals (the timeline's tracks).
void expect_same_channels(const ReplayResult& one, const ReplayResult& mine, const std::string& label) {
  ASSERT_EQ(mine.channels.size(), one.channels.size()) << label;
  for (std::size_t i = 0; i < mine.channels.size(); ++i) {
    const ChannelUsage &a = mine.channels[i], &b = one.channels[i];
    EXPECT_EQ(std::tie(a.channel, a.node, a.busy_ns, a.transfers, a.bytes),
              std::tie(b.channel, b.node, b.busy_ns, b.transfers, b.bytes))
        << label << ", channel instance " << i;
  }
}

// On shared cores or with start-ups: every rank lists the run's start-ups, and each holds, by vertex of its view, the
// issue times of the actions its own work issued, which together are one engine's, no two ranks the same.
void expect_same_issues_and_start_ups(const ReplayResult& one, const std::vector<PartRun>& runs,
                                      const std::string& label) {
  std::vector<char> issued(one.issued_at.size(), 0);
  for (std::uint32_t r = 0; r < runs.size(); ++r) {
    const ReplayResult& mine = *runs[r].result;
    const std::string at = label + ", rank " + std::to_string(r);
    ASSERT_EQ(mine.start_ups.size(), one.start_ups.size()) << at;
    for (std::size_t i = 0; i < one.start_ups.size(); ++i) {
      const StartUp &a = mine.start_ups[i], &b = one.start_ups[i];
      EXPECT_EQ(std::tie(a.node, a.processor, a.from, a.to), std::tie(b.node, b.processor, b.from, b.to))
          << at << ", start-up " << i;
    }
    ASSERT_EQ(mine.issued_at.empty(), one.issued_at.empty()) << at;
    if (mine.issued_at.empty()) continue;
    const LocalGraph& local = *mine.over_ranks->local;
    ASSERT_EQ(mine.issued_at.size(), local.g.vertex_count()) << at;
    for (graph::VertexId v = 0; v < local.g.vertex_count(); ++v) {
      if (mine.issued_at[v] == kNever) continue;
      const graph::VertexId w = local.whole(v);
      EXPECT_EQ(mine.issued_at[v], one.issued_at[w]) << at << ", the issue of operation " << w;
      EXPECT_FALSE(issued[w]) << at << ": two ranks issued operation " << w;
      issued[w] = 1;
    }
  }
  for (graph::VertexId w = 0; w < one.issued_at.size(); ++w)
    EXPECT_EQ(issued[w] != 0, one.issued_at[w] != kNever) << label << ": the issue of operation " << w;
}

// The ranks' results against one engine's: every owned record, every rank's ends and channel instances, and the
// sums added over the ranks.
void expect_same(const ReplayResult& one, const std::vector<PartRun>& runs, const std::string& label) {
  std::uint64_t owned = 0;
  std::vector<std::uint64_t> counts(own_counts(one).size());
  std::vector<ProcessorUsage> processors(one.processors.size());
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
    const std::vector<std::uint64_t> its = own_counts(mine);
    for (std::size_t i = 0; i < counts.size(); ++i) counts[i] += its[i];
    EXPECT_EQ(mine.makespan_ns, one.makespan_ns) << label << ", rank " << r;
    EXPECT_EQ(mine.last_end_ns, one.last_end_ns) << label << ", rank " << r;
    expect_same_channels(one, mine, label + ", rank " + std::to_string(r));
    for (std::size_t p = 0; p < processors.size(); ++p) {
      processors[p].busy_ns += mine.processors[p].busy_ns;
      processors[p].segments += mine.processors[p].segments;
    }
    for (const auto& [name, usage] : mine.paths) {
      paths[name].copies += usage.copies;
      paths[name].bytes += usage.bytes;
      paths[name].time_ns += usage.time_ns;
    }
    EXPECT_EQ(mine.blocks, runs.size());
  }
  EXPECT_EQ(owned, one.ops.size()) << label;
  EXPECT_EQ(counts, own_counts(one)) << label
      << " (operations, stuck, tasks without time, outside work, after them, measured waits and their time, copies"
         " of the default size, retargeted, removed, implied, clamped waits)";
  for (std::size_t p = 0; p < processors.size(); ++p) {
    EXPECT_EQ(processors[p].busy_ns, one.processors[p].busy_ns) << label << ", processor " << p;
    EXPECT_EQ(processors[p].segments, one.processors[p].segments) << label << ", processor " << p;
  }
  ASSERT_EQ(paths.size(), one.paths.size()) << label;
  for (const auto& [name, usage] : one.paths) {
    EXPECT_EQ(paths[name].copies, usage.copies) << label << ' ' << name;
    EXPECT_EQ(paths[name].bytes, usage.bytes) << label << ' ' << name;
    EXPECT_EQ(paths[name].time_ns, usage.time_ns) << label << ' ' << name;
  }
  expect_same_issues_and_start_ups(one, runs, label);
}

// One engine under `placement` (traced unless a test says), with the whole graph's split checked against the parts'
// owners.
std::optional<session::ReplayRun> one_engine(const session::LoadedTrace& trace, const std::string& machine,
                                             session::ReplaySettings& settings, double sigma,
                                             machine::Placement placement = machine::Placement::traced,
                                             const std::vector<std::string>& overrides = {}) {
  settings.critical_path = false;
  settings.mapping.placement = placement;
  settings.engine.rules.noise = {sigma, 11};
  auto one = session::replay_trace(trace, {machine, overrides}, settings);
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
  const graph::NodeRanks ranks{count, one.map.model_nodes(), one.map.node_fold()};
  for (graph::VertexId v = 0; v < trace.graph().vertex_count(); ++v)
    if (p.of_vertex[v] != ranks.rank_of(trace.graph().node(v))) {
      ADD_FAILURE() << label << ": operation " << v << " is block " << int{p.of_vertex[v]} << "'s, its part rank "
                    << ranks.rank_of(trace.graph().node(v)) << "'s";
      return;
    }
}

bool every_rank_reads_a_file(const session::LoadedTrace& trace, const graph::NodeRanks& ranks) {
  std::vector<bool> reads(ranks.ranks, false);
  for (const core::FileRecords& f : trace.records.files)
    if (f.node >= 0) reads[ranks.rank_of(static_cast<std::uint32_t>(f.node))] = true;
  return std::find(reads.begin(), reads.end(), false) == reads.end();
}

// At 1 to 4 ranks (those the model's nodes allow), the nodes folded or mapped as `nodes` asks. How many of the runs
// were split.
int expect_parts_same(const session::LoadedTrace& trace, const std::string& machine, const std::string& label,
                      double sigma, std::uint64_t seed = 1, machine::Placement placement = machine::Placement::traced,
                      const machine::MappingSpec& nodes = {}, const std::vector<std::string>& overrides = {}) {
  session::ReplaySettings settings;
  settings.mapping = nodes;
  settings.engine.detail.record_intervals = true;
  const auto one = one_engine(trace, machine, settings, sigma, placement, overrides);
  if (!one) return 0;
  int split = 0;
  for (std::uint32_t count = 1; count <= std::min(4u, one->map.model_nodes()); ++count) {
    const std::string at = label + " on " + machine + " at " + std::to_string(count) + " ranks";
    expect_owners_agree(trace, *one, count, at);
    // A rank maps the model from its own files' records: one that would read none (a node map that leaves its model
    // nodes empty) does not replay from parts, and realm-replay-mpi reads the whole trace instead.
    if (!every_rank_reads_a_file(trace, rr::testing::split_for(trace, settings, count, one->map.model_nodes())))
      continue;
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
  rr::testing::FarNicTrace far;
  ASSERT_NO_FATAL_FAILURE(rr::testing::write_far_nic_trace(dir.path(), far));
  EXPECT_GT(expect_parts_same(far.trace, far.machine, rr::testing::kFarNicLabel, 0.5), 0);
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

// Tasks without Task Time on every node: they and what waits on them (across ranks too) are left out of the
// estimate, and each rank counts those of its own operations (tasks_without_time, after_untimed).
TEST(PartReplay, TasksWithoutTaskTimeAndWhatWaitsOnThem) {
  const rr::testing::TestDir dir("rr_part_replay_untimed");
  const session::LoadedTrace trace =
      rr::testing::write_without_some_task_times(dir.path(), gen::make_random_dag(2500, {4, 2, 9}), 150);
  session::ReplaySettings settings;
  const auto one = one_engine(trace, (dir.path() / "machine.toml").string(), settings, 0);
  ASSERT_TRUE(one);
  EXPECT_GT(one->result.tasks_without_time, 1u);
  EXPECT_GT(one->result.after_untimed, one->result.tasks_without_time);
  EXPECT_GT(expect_parts_same(trace, (dir.path() / "machine.toml").string(), "random-dag without some task times", 0),
            0);
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

// Nodes that share their cores (1 and 2 per node) and processors that start up (a typical length; measured lengths
// in order, one of no length, then the typical one), alone and together: a node's clock and start-ups are its rank's
// alone, so each rank replays them from its part as its block of the split on threads does. Every generator family
// on its own machine and on Titan with noise, the real traces and an S3D sample, under the traced and eft placements.
TEST(PartReplay, SharedCoresAndStartUpsGiveTheOneEngineRecords) {
  const auto& models = rr::testing::cores_and_start_up_models();
  using machine::Placement;
  for (const auto& [name, program] : rr::testing::part_test_families()) {
    const rr::testing::TestDir dir("rr_part_replay_cores");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
    for (std::size_t m = 0; m < models.size(); ++m) {
      const std::string label = std::string(name) + ", " + models[m].first;
      EXPECT_GT(expect_parts_same(trace, (dir.path() / "machine.toml").string(), label, 0, 1, Placement::traced, {},
                                  models[m].second),
                0)
          << label;
      if (m == 0 || m == 4) expect_parts_same(trace, kTitan, label, 0.3, 2, Placement::traced, {}, models[m].second);
    }
    expect_parts_same(trace, kTitan, std::string(name) + ", 2 cores, start-ups, eft", 0.2, 3, Placement::eft, {},
                      models[3].second);
  }
  for (const char* name : {"real/full_circuit_2node_p4_cpu2", "real/full_ghost_b2_cpu2", "s3d/dme_mixed_4n"}) {
    auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + name}, {});
    ASSERT_TRUE(trace.ok()) << name;
    for (const auto& [what, overrides] : models)
      expect_parts_same(*trace, kTitan, std::string(name) + ", " + what, 0, 1, Placement::traced, {}, overrides);
  }
}

using rr::testing::fold_of;

// Under a fold or node map each rank's part holds the traced nodes folded onto its model nodes (several, not
// consecutive under the cyclic rule or a list): every placement gives one engine's records, the folded nodes sharing
// their model node's processors as one process shares them.
TEST(PartReplay, FoldsAndNodeMapsGiveTheOneEngineRecords) {
  using machine::NodeMapRule;
  using machine::Placement;
  const std::vector<std::pair<std::string, machine::MappingSpec>> maps{
      {"cyclic fold 2", fold_of(2)},
      {"block fold 3", fold_of(3, NodeMapRule::block)},
      {"list 2,0,1,2,1,0,0,2", fold_of(0, NodeMapRule::list, {2, 0, 1, 2, 1, 0, 0, 2})},
      {"list 3,0,3,0,... with model nodes 1 and 2 empty (at 2 ranks)",
       fold_of(4, NodeMapRule::list, {3, 0, 3, 0, 0, 3, 0, 3})}};
  for (const auto& [name, program] : rr::testing::part_test_families()) {
    const rr::testing::TestDir dir("rr_part_replay_fold");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
    const std::string own = (dir.path() / "machine.toml").string();
    for (const auto& [rule, nodes] : maps) {
      const std::string label = std::string(name) + ", " + rule;
      EXPECT_GT(expect_parts_same(trace, own, label, 0, 1, Placement::traced, nodes), 0) << label;
      expect_parts_same(trace, kTitan, label + ", pool", 0.3, 2, Placement::pool, nodes);
    }
    expect_parts_same(trace, kTitan, std::string(name) + ", cyclic fold 3, eft", 0.2, 3, Placement::eft, fold_of(3));
  }
  for (const char* name : {"real/full_circuit_2node_p4_cpu2", "s3d/dme_mixed_4n"}) {
    auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + name}, {});
    ASSERT_TRUE(trace.ok()) << name;
    expect_parts_same(*trace, kTitan, std::string(name) + ", fold 1", 0.2, 1, Placement::traced, fold_of(1));
    expect_parts_same(*trace, kTitan, std::string(name) + ", list 1,0,1,0", 0.2, 1, Placement::pool,
                      fold_of(0, NodeMapRule::list, {1, 0, 1, 0}));
  }
  const rr::testing::TestDir dir("rr_part_replay_fold_dag");
  const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), gen::make_random_dag(1500, {5, 3, 24}));
  expect_parts_same(trace, (dir.path() / "machine.toml").string(), "random-dag, block fold 3", 0.2, 24, Placement::eft,
                    fold_of(3, NodeMapRule::block));
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
    const auto runs = run_parts(trace, one->model, settings, 3, fail_at, one->map.model_nodes(), {}, 1, fail_at);
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
