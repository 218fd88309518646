// The timeline of a replay over ranks (apps/timeline_report.hpp, replay/timeline_stream.hpp): each rank renders the
// events of its own operations and streams them to rank 0, which merges them. With the ranks as threads on an
// in-process network that shuffles messages from different ranks, rank 0's timeline equals one process's byte for
// byte at 1 to 4 ranks: generator families, noise, copies whose first hop runs on another rank's channel, a Legion
// Prof log (its observed run), and the --window and --nodes filters. After a replay from parts (each rank holding
// only its part of the graph: replay/part_replay.hpp) too, each rank rendering its intervals from its own view of the
// graph and its critical path walked over the parts, and of Legion Prof logs (the two-process runs with their
// completion queues read as mergers, which a split serves) each sending rank 0 the observed run of its operations.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gen/generators.hpp"
#include "gen/s3d.hpp"
#include "replay/critical_path.hpp"
#include "replay/part_replay.hpp"
#include "replay/replay_engine.hpp"
#include "session/session.hpp"
#include "support/generated_trace.hpp"
#include "support/in_process_network.hpp"
#include "support/part_replay_run.hpp"
#include "support/prof_part_run.hpp"
#include "support/ranks_as_threads.hpp"
#include "support/test_dir.hpp"
#include "timeline_report.hpp"

namespace rr::app {
namespace {

namespace fs = std::filesystem;

const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";

std::string timeline_of(const ReplayView& view, const TimelineFilter& filter) {
  std::string text;
  write_timeline(view, filter, [&](std::string_view piece) { text += piece; });
  return text;
}

std::string timeline_of(const session::ReplayRun& run, const session::LoadedTrace& trace, const TimelineFilter& filter) {
  return timeline_of({trace.graph(), run.model, run.map, run.result, run.critical ? &*run.critical : nullptr, {}, {}},
                     filter);
}

// The filters the test tries: none, a window in the middle of the run, two nodes, both.
std::vector<std::pair<std::string, TimelineFilter>> filters(replay::TimeNs makespan) {
  TimelineFilter window;
  window.from_ns = makespan / 3;
  window.to_ns = makespan / 2;
  TimelineFilter nodes;
  nodes.nodes = {1, 3};
  TimelineFilter both = window;
  both.nodes = {0, 2};
  return {{"whole", {}}, {"--window", window}, {"--nodes 1,3", nodes}, {"--window --nodes 0,2", both}};
}

// Rank 0's timeline at 1 to 4 ranks against one process's, under every filter. How many runs were split.
int expect_same_timelines(const session::LoadedTrace& trace, const std::string& machine, const std::string& label,
                          double sigma = 0, const std::vector<std::string>& overrides = {}) {
  session::ReplaySettings settings;
  settings.engine.detail.record_intervals = true;
  settings.engine.rules.noise = {sigma, 7};
  auto one = session::replay_trace(trace, {machine, overrides}, settings);
  if (!one.ok()) {
    ADD_FAILURE() << label << ": " << one.error().to_string();
    return 0;
  }
  int split = 0;
  for (std::uint32_t ranks = 1; ranks <= std::min(4u, one->map.model_nodes()); ++ranks) {
    rr::testing::InProcessNetwork net(ranks, 20 + ranks);
    const auto timelines = rr::testing::on_ranks(net, ranks, [&](std::uint32_t, replay::BlockNetwork& end) {
      session::ReplaySettings mine = settings;
      mine.engine.execution.network = &end;
      std::vector<std::string> out;
      auto run = session::replay_on(trace, one->model, mine);
      if (!run.ok()) {
        ADD_FAILURE() << label << " at " << ranks << " ranks: " << run.error().to_string();
        return out;
      }
      const bool over_ranks = replay::split_over_ranks(run->result);
      if (!over_ranks && end.rank() != 0) return out;  // replayed on rank 0 alone
      for (const auto& [name, filter] : filters(one->result.makespan_ns)) out.push_back(timeline_of(*run, trace, filter));
      out.push_back(over_ranks ? "split" : "alone");
      return out;
    });
    if (timelines[0].empty()) {
      ADD_FAILURE() << label << " at " << ranks << " ranks: rank 0 wrote no timeline";
      continue;
    }
    split += timelines[0].back() == "split";
    std::size_t i = 0;
    for (const auto& [name, filter] : filters(one->result.makespan_ns)) {
      const std::string expected = timeline_of(*one, trace, filter);
      EXPECT_TRUE(timelines[0][i] == expected)
          << label << " on " << machine << " at " << ranks << " ranks, " << name << ": " << timelines[0][i].size()
          << " bytes, one process " << expected.size();
      for (std::uint32_t r = 1; r < ranks && timelines[r].size() > i; ++r)
        EXPECT_TRUE(timelines[r][i].empty()) << label << ": rank " << r << " wrote";
      ++i;
    }
  }
  return split;
}

TEST(TimelineOverRanks, EveryGeneratorFamilyGivesOneProcesssTimeline) {
  const gen::SmallOptions four{4, 2, 3};
  const std::vector<std::pair<const char*, gen::Program>> families = {
      {"chain", gen::make_chain(80, four)},
      {"random-dag", gen::make_random_dag(2500, four)},
      {"stencil 3-D", gen::make_stencil(3, 3, {8, 2, 5})},
      {"s3d mixed", gen::make_s3d(rr::testing::mixed_s3d_options(4))}};
  for (const auto& [name, program] : families) {
    const rr::testing::TestDir dir("rr_timeline_ranks");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
    int split = expect_same_timelines(trace, (dir.path() / "machine.toml").string(), name);
    split += expect_same_timelines(trace, kTitan, name, 0.3);
    EXPECT_GT(split, 0) << name << " was never split over ranks";
  }
}

// A remote copy's first hop runs on the far node's channel instance, that is on another rank's: its owner renders
// it, with the copy's ready time and release.
TEST(TimelineOverRanks, HopsOnAnotherRanksChannel) {
  const rr::testing::TestDir dir("rr_timeline_far_nic");
  rr::testing::FarNicTrace far;
  ASSERT_NO_FATAL_FAILURE(rr::testing::write_far_nic_trace(dir.path(), far));
  EXPECT_GT(expect_same_timelines(far.trace, far.machine, rr::testing::kFarNicLabel, 0.5), 0);
}

// A Legion Prof log: rank 0 draws the observed run from its graph, after the merged replayed events.
TEST(TimelineOverRanks, LegionProfLogWithItsObservedRun) {
  auto trace = session::load_trace({RR_SOURCE_DIR "/data/traces/legion-prof/circuit_mpi2_medium_cpu2_util1"}, {});
  ASSERT_TRUE(trace.ok());
  expect_same_timelines(*trace, kTitan, "circuit Legion Prof log");
}

// After a replay from parts, rank 0's timeline at 1 to 4 ranks against one process's, under every filter: each rank
// renders its own operations' intervals from its view of the graph (graph_of_part), with the critical path each walks
// from it. How many runs were split.
int expect_same_timelines_from_parts(const session::LoadedTrace& trace, const std::string& machine,
                                     const std::string& label, double sigma = 0,
                                     const std::vector<std::string>& overrides = {}) {
  session::ReplaySettings settings;
  settings.engine.detail.record_intervals = true;
  settings.engine.rules.noise = {sigma, 7};
  settings.mapping.placement = machine::Placement::traced;  // (what a replay from parts serves)
  auto one = session::replay_trace(trace, {machine, overrides}, settings);
  if (!one.ok()) {
    ADD_FAILURE() << label << ": " << one.error().to_string();
    return 0;
  }
  const auto chosen = filters(one->result.makespan_ns);
  int split = 0;
  const std::uint32_t nodes = one->map.model_nodes();
  for (std::uint32_t ranks = 1; ranks <= std::min(4u, nodes); ++ranks) {
    std::vector<std::vector<std::string>> timelines(ranks);
    const auto runs = rr::testing::run_parts(
        trace, one->model, settings, ranks, 30 + ranks, nodes,
        [&](std::uint32_t r, const replay::MachineMap& map, const replay::ReplayResult& result) {
          const graph::EventGraph& g = replay::graph_of_part(result);
          const replay::CriticalPath cp = replay::critical_path(g, map, one->model, result);
          for (const auto& [name, filter] : chosen)
            timelines[r].push_back(timeline_of({g, one->model, map, result, &cp, {}, {}}, filter));
        });
    const std::string at = label + " on " + machine + " at " + std::to_string(ranks) + " ranks from parts";
    if (!runs[0].result || timelines[0].size() != chosen.size()) {
      ADD_FAILURE() << at << ": rank 0 wrote no timeline: " << runs[0].error;
      continue;
    }
    split += ranks > 1;
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      const std::string expected = timeline_of(*one, trace, chosen[i].second);
      EXPECT_TRUE(timelines[0][i] == expected) << at << ", " << chosen[i].first << ": " << timelines[0][i].size()
                                               << " bytes, one process " << expected.size();
      for (std::uint32_t r = 1; r < ranks; ++r) {
        if (timelines[r].size() != chosen.size()) ADD_FAILURE() << at << ", rank " << r << ": " << runs[r].error;
        else EXPECT_TRUE(timelines[r][i].empty()) << at << ": rank " << r << " wrote";
      }
    }
  }
  return split;
}

// The observed run from parts: each rank's own operations' observed times, laid into lanes and tracks on rank 0.
TEST(TimelineOverRanks, FromPartsLegionProfRunsWithTheirObservedRun) {
  for (const char* name : {"circuit_mpi2_medium_cpu2_util1", "ghost_mpi2_n4096_b4_s20_cpu2_util1"}) {
    const core::TraceRecords records = rr::testing::prof_records_without_completion_queues(
        std::string(RR_SOURCE_DIR "/data/traces/legion-prof/") + name);
    auto trace = session::load_records(records, name, {});
    ASSERT_TRUE(trace.ok()) << trace.error().to_string();
    session::ReplaySettings settings;
    settings.engine.detail.record_intervals = true;
    settings.engine.rules.noise = {0.1, 7};
    auto one = session::replay_trace(*trace, {kTitan, {}}, settings);
    ASSERT_TRUE(one.ok()) << one.error().to_string();
    const auto chosen = filters(one->result.makespan_ns);
    for (std::uint32_t ranks = 1; ranks <= 2; ++ranks) {
      std::vector<std::vector<std::string>> timelines(ranks);
      const auto runs = rr::testing::run_prof_parts_of_records(
          records, one->model, settings, ranks, 40 + ranks,
          [&](std::uint32_t r, const replay::MachineMap& map, const replay::ReplayResult& result) {
            const graph::EventGraph& g = replay::graph_of_part(result);
            const replay::CriticalPath cp = replay::critical_path(g, map, one->model, result);
            for (const auto& [label, filter] : chosen)
              timelines[r].push_back(timeline_of({g, one->model, map, result, &cp, {}, {}}, filter));
          });
      const std::string at = std::string(name) + " at " + std::to_string(ranks) + " ranks from parts";
      ASSERT_TRUE(runs[0].result && timelines[0].size() == chosen.size()) << at << ": " << runs[0].error;
      for (std::size_t i = 0; i < chosen.size(); ++i) {
        const std::string expected = timeline_of(*one, *trace, chosen[i].second);
        EXPECT_NE(expected.find("observed node"), std::string::npos) << at << ", " << chosen[i].first;
        EXPECT_TRUE(timelines[0][i] == expected) << at << ", " << chosen[i].first << ": " << timelines[0][i].size()
                                                 << " bytes, one process " << expected.size();
        for (std::uint32_t r = 1; r < ranks; ++r)
          if (timelines[r].size() == chosen.size()) {
            EXPECT_TRUE(timelines[r][i].empty()) << at << ": rank " << r;
          }
      }
    }
  }
}

TEST(TimelineOverRanks, FromPartsEveryGeneratorFamilyGivesOneProcesssTimeline) {
  for (const auto& [name, program] : rr::testing::part_test_families()) {
    const rr::testing::TestDir dir("rr_timeline_parts");
    const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), program);
    int split = expect_same_timelines_from_parts(trace, (dir.path() / "machine.toml").string(), name);
    split += expect_same_timelines_from_parts(trace, kTitan, name, 0.3);
    EXPECT_GT(split, 0) << name << " was never split over ranks";
  }
}

// A copy's first hop on another rank's channel instance: that rank ran it, the copy's owner renders it.
TEST(TimelineOverRanks, FromPartsHopsOnAnotherRanksChannel) {
  const rr::testing::TestDir dir("rr_timeline_parts_far_nic");
  rr::testing::FarNicTrace far;
  ASSERT_NO_FATAL_FAILURE(rr::testing::write_far_nic_trace(dir.path(), far));
  EXPECT_GT(expect_same_timelines_from_parts(far.trace, far.machine, rr::testing::kFarNicLabel, 0.5), 0);
}

TEST(TimelineOverRanks, FromPartsBundledRealTracesAndS3dSamples) {
  for (const char* name : {"real/full_circuit_2node_p4_cpu2", "s3d/dme_mixed_4n"}) {
    auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + name}, {});
    ASSERT_TRUE(trace.ok()) << name;
    expect_same_timelines_from_parts(*trace, kTitan, name, 0.2);
  }
}

// Nodes that share cores and processors that start up, over ranks of the whole trace and from parts: a segment's
// interval holds its time on the shared cores and the start-ups that froze its node, and the critical path's arrows
// join the steps the walk classed from every rank's start-ups.
TEST(TimelineOverRanks, SharedCoresAndStartUps) {
  const std::vector<std::vector<std::string>> models = {
      {"node.cores=1"}, {"node.cores=2", "runtime.processor_start_ns=20000"},
      {"runtime.processor_starts_ns=[30000, 0, 10000]", "runtime.processor_start_ns=5000"}};
  const rr::testing::TestDir dir("rr_timeline_cores");
  const session::LoadedTrace trace = rr::testing::write_and_load(dir.path(), gen::make_stencil(3, 3, {8, 2, 5}));
  const std::string own = (dir.path() / "machine.toml").string();
  for (const auto& overrides : models) {
    const std::string label = "stencil 3-D, " + overrides[0];
    EXPECT_GT(expect_same_timelines(trace, own, label, 0, overrides), 0) << label;
    EXPECT_GT(expect_same_timelines_from_parts(trace, kTitan, label, 0.3, overrides), 0) << label;
  }
}

}  // namespace
}  // namespace rr::app
