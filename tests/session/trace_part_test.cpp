// A rank's part read from its own nodes' files (session/trace_part.hpp), replayed from parts, with the sums gathered
// on rank 0 (replay/part_sums.hpp): at 1 to 4 ranks as threads, rank 0's sums are one engine's on the whole trace,
// stuck operations and their descriptions included. Inputs that cannot be read rank by rank are named, and a file
// holding another node's lines stops every rank, naming the rank and the file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "gen/generators.hpp"
#include "machine_models/machine_loader.hpp"
#include "replay/part_exchange.hpp"
#include "replay/part_replay.hpp"
#include "replay/part_sums.hpp"
#include "session/session.hpp"
#include "session/trace_packing.hpp"
#include "session/trace_part.hpp"
#include "platform/output_target.hpp"
#include "support/generated_trace.hpp"
#include "support/in_process_network.hpp"
#include "support/ranks_as_threads.hpp"
#include "support/test_dir.hpp"

namespace rr::session {
namespace {

namespace fs = std::filesystem;

const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";

// Every sum a replay report reads, as text: one engine's and rank 0's compare line by line.
std::string sums_of(const replay::ReplayResult& r) {
  std::ostringstream out;
  out << "makespan " << r.makespan_ns << " last end " << r.last_end_ns << " operations " << r.operations << " stuck "
      << r.stuck << " untimed " << r.tasks_without_time << " outside " << r.outside_work << " after untimed "
      << r.after_untimed << " measured waits " << r.measured_waits << ' ' << r.measured_wait_ns << " default size "
      << r.copies_default_size << " clamped " << r.clamped_waits << "\n";
  for (std::size_t p = 0; p < r.processors.size(); ++p)
    out << "processor " << p << ' ' << r.processors[p].busy_ns << ' ' << r.processors[p].segments << "\n";
  for (const replay::ChannelUsage& c : r.channels)
    out << "channel " << c.channel << " node " << c.node << ' ' << c.busy_ns << ' ' << c.transfers << ' ' << c.bytes
        << "\n";
  for (const auto& [name, p] : r.paths) out << "path " << name << ' ' << p.copies << ' ' << p.bytes << ' ' << p.time_ns << "\n";
  for (const replay::StuckExample& s : r.stuck_examples) out << "stuck " << s.vertex << ' ' << s.reason << "\n";
  return out.str();
}

// What each rank ends with: rank 0's sums, or why the rank stopped.
struct RankEnd {
  std::string sums;
  std::string error;
};

// `trace` is a folder of logs, or with `packed` a packed trace, which each rank reads its part of.
std::vector<RankEnd> replay_by_rank(const std::string& trace, const std::string& machine, std::uint32_t count,
                                    const ReplaySettings& settings, bool packed = false) {
  const auto files = packed ? core::Expected<TraceFilesByNode>(TraceFilesByNode{}) : files_by_node({trace});
  if (!files) {
    ADD_FAILURE() << files.error().to_string();
    return {};
  }
  const auto model = machine::load_machine(machine, {});
  if (!model) {
    ADD_FAILURE() << model.error().to_string();
    return {};
  }
  rr::testing::InProcessNetwork net(count, 7 + count);
  return rr::testing::on_ranks(net, count, [&](std::uint32_t r, replay::BlockNetwork& end) {
    RankEnd out;
    replay::NetworkRankExchange exchange(end);
    try {
      auto part = packed ? load_packed_part(trace, {}, count, r) : load_trace_part({trace}, *files, {}, count, exchange);
      if (!part) {
        out.error = part.error().to_string();
        return out;
      }
      auto map = replay::MachineMap::build(part->records, *model, settings.mapping);
      if (!map) {
        out.error = map.error().to_string();
        return out;
      }
      replay::ReplayOptions options = settings.engine;
      options.execution.network = &end;
      auto run = replay::run_part_over_network(part->part, part->ranks, exchange, *map, *model, options);
      if (!run) {
        out.error = run.error().to_string();
        return out;
      }
      replay::gather_part_sums(*run, end, options.detail.stuck_examples);
      if (r == 0) out.sums = sums_of(*run);
    } catch (const std::exception& e) {
      out.error = e.what();
    }
    return out;
  });
}

void expect_sums_same(const std::string& trace, const std::string& machine, const std::string& label,
                      bool packed = false) {
  ReplaySettings settings;
  settings.critical_path = false;
  settings.mapping.placement = machine::Placement::traced;
  auto loaded = load_trace({trace}, {});
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  auto one = replay_trace(*loaded, {machine, {}}, settings);
  ASSERT_TRUE(one.ok()) << one.error().to_string();
  const std::string want = sums_of(one->result);
  for (std::uint32_t count = 1; count <= std::min(4u, one->map.model_nodes()); ++count) {
    const auto ends = replay_by_rank(trace, machine, count, settings, packed);
    ASSERT_EQ(ends.size(), count);
    for (std::uint32_t r = 0; r < count; ++r) EXPECT_EQ(ends[r].error, "") << label << ", rank " << r << " of " << count;
    EXPECT_EQ(ends[0].sums, want) << label << " at " << count << " ranks";
  }
}

TEST(TracePart, RankZeroGetsTheOneEngineSums) {
  for (const auto& [name, program] : rr::testing::part_test_families()) {
    const rr::testing::TestDir dir("rr_trace_part");
    rr::testing::write_program(dir.path(), program);
    expect_sums_same(dir.path().string(), (dir.path() / "machine.toml").string(), name);
  }
  expect_sums_same(RR_SOURCE_DIR "/data/traces/real/full_circuit_2node_p4_cpu2", kTitan, "real circuit");
  expect_sums_same(RR_SOURCE_DIR "/data/traces/s3d/dme_mixed_4n", kTitan, "S3D, 4 nodes");
}

// A packed trace's part, read rank by rank from the file without an exchange (session::load_packed_part).
TEST(TracePart, APackedTracesPartGivesTheOneEngineSums) {
  const rr::testing::TestDir dir("rr_trace_part_packed");
  for (const auto& [name, source] : {std::pair<const char*, std::string>{"real circuit", RR_SOURCE_DIR "/data/traces/real/full_circuit_2node_p4_cpu2"},
                                     {"S3D, 4 nodes", RR_SOURCE_DIR "/data/traces/s3d/dme_mixed_4n"}}) {
    ReadingOptions summarised;
    summarised.summarise = true;
    auto loaded = load_trace({source}, summarised);
    ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
    const std::string path = (dir.path() / (std::string(name) + ".rrg")).string();
    platform::OutputTarget out;
    ASSERT_EQ(out.open(path), "");
    ASSERT_TRUE(write_packed_trace(*loaded, out, false).ok());
    ASSERT_EQ(out.commit(), "");
    expect_sums_same(path, kTitan, std::string(name) + ", packed", true);
  }
}

// A barrier's arrival taken out of node 1's log: the phase, and what waits on it on every node, never complete.
TEST(TracePart, StuckOperationsAndTheirFirstDescriptionsAreTheWholeRuns) {
  const rr::testing::TestDir dir("rr_trace_part_stuck");
  rr::testing::write_program(dir.path(), gen::make_stencil(1, 3, {4, 2, 1}));
  const fs::path log = dir.path() / "node_1.log";
  std::ifstream in(log);
  std::string text, line;
  bool dropped = false;
  while (std::getline(in, line)) {
    if (!dropped && line.find("Barrier Arrive:") != std::string::npos) {
      dropped = true;
      continue;
    }
    text += line + "\n";
  }
  in.close();
  ASSERT_TRUE(dropped);
  std::ofstream(log) << text;
  auto loaded = load_trace({dir.path().string()}, {});
  ASSERT_TRUE(loaded.ok());
  ReplaySettings settings;
  settings.critical_path = false;
  settings.mapping.placement = machine::Placement::traced;
  auto one = replay_trace(*loaded, {(dir.path() / "machine.toml").string(), {}}, settings);
  ASSERT_TRUE(one.ok());
  ASSERT_GT(one->result.stuck, one->result.stuck_examples.size());  // more than the examples: the first ones matter
  expect_sums_same(dir.path().string(), (dir.path() / "machine.toml").string(), "stencil without an arrival");
}

TEST(TracePart, InputsThatCannotBeReadRankByRankAreNamed) {
  const rr::testing::TestDir dir("rr_trace_part_inputs");
  rr::testing::write_program(dir.path(), gen::make_chain(40, {2, 1, 1}));
  const fs::path renamed = dir.path() / "other" / "log_a.txt";
  fs::create_directories(renamed.parent_path());
  fs::copy_file(dir.path() / "node_1.log", renamed);
  const auto no_node = files_by_node({(dir.path() / "node_0.log").string(), renamed.string()});
  ASSERT_FALSE(no_node.ok());
  EXPECT_NE(no_node.error().to_string().find("log_a.txt"), std::string::npos) << no_node.error().to_string();
  EXPECT_NE(no_node.error().to_string().find("its name gives no node"), std::string::npos);

  const fs::path twice = dir.path() / "other" / "node_1.log";
  fs::copy_file(dir.path() / "node_1.log", twice);
  const auto second = files_by_node({dir.path().string(), twice.string()});
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().to_string().find("a second file of node 1"), std::string::npos) << second.error().to_string();

  // Legion Prof logs are read rank by rank, by the number in their names; a log named without one is not.
  const auto prof = files_by_node({RR_SOURCE_DIR "/data/traces/legion-prof/circuit_mpi2_medium_cpu2_util1"});
  ASSERT_TRUE(prof.ok()) << prof.error().to_string();
  EXPECT_EQ(prof->format, core::TraceFormat::legion_prof);
  EXPECT_EQ(prof->nodes, 2u);
  EXPECT_EQ(prof->node, (std::vector<std::uint32_t>{0, 1}));
  const fs::path unnumbered = dir.path() / "prof" / "profile.gz";
  fs::create_directories(unnumbered.parent_path());
  fs::copy_file(RR_SOURCE_DIR "/data/traces/legion-prof/circuit_small_cpu2_util1/prof_0.gz", unnumbered);
  const auto no_number = files_by_node({unnumbered.string()});
  ASSERT_FALSE(no_number.ok());
  EXPECT_NE(no_number.error().to_string().find("profile.gz"), std::string::npos) << no_number.error().to_string();
  EXPECT_NE(no_number.error().to_string().find("its name gives no node"), std::string::npos);

  const auto whole = files_by_node({dir.path().string()});
  ASSERT_TRUE(whole.ok()) << whole.error().to_string();
  EXPECT_EQ(whole->nodes, 2u);
  EXPECT_EQ(whole->node, (std::vector<std::uint32_t>{0, 1}));
}

// Two Legion Prof logs under each other's names: each rank finds its log's MachineDesc another process's, and every
// rank stops, naming the file.
TEST(TracePart, ALegionProfLogOfAnotherProcessStopsEveryRank) {
  const rr::testing::TestDir dir("rr_trace_part_prof_swapped");
  const fs::path logs = RR_SOURCE_DIR "/data/traces/legion-prof/circuit_mpi2_medium_cpu2_util1";
  fs::copy_file(logs / "prof_0.gz", dir.path() / "prof_1.gz");
  fs::copy_file(logs / "prof_1.gz", dir.path() / "prof_0.gz");
  const auto files = files_by_node({dir.path().string()});
  ASSERT_TRUE(files.ok()) << files.error().to_string();
  rr::testing::InProcessNetwork net(2, 5);
  const auto errors = rr::testing::on_ranks(net, 2, [&](std::uint32_t, replay::BlockNetwork& end) {
    replay::NetworkRankExchange exchange(end);
    try {
      auto part = load_trace_part({dir.path().string()}, *files, {}, 2, exchange);
      return part ? std::string() : part.error().to_string();
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  });
  for (std::uint32_t r = 0; r < 2; ++r) {
    EXPECT_NE(errors[r].find("prof_"), std::string::npos) << errors[r];
    EXPECT_NE(errors[r].find("its MachineDesc is node "), std::string::npos) << errors[r];
    EXPECT_NE(errors[r].find("and its name says node "), std::string::npos) << errors[r];
  }
}

// node_1.log holding node 0's lines: the rank that reads it stops every rank, naming itself and the file.
TEST(TracePart, AFileOfAnotherNodesLinesStopsEveryRank) {
  const rr::testing::TestDir dir("rr_trace_part_swapped");
  rr::testing::write_program(dir.path(), gen::make_chain(40, {2, 1, 1}));
  fs::copy_file(dir.path() / "node_0.log", dir.path() / "node_1.log", fs::copy_options::overwrite_existing);
  const auto ends = replay_by_rank(dir.path().string(), (dir.path() / "machine.toml").string(), 2, {});
  ASSERT_EQ(ends.size(), 2u);
  EXPECT_NE(ends[0].error.find("rank 1"), std::string::npos) << ends[0].error;  // what rank 0 prints
  for (std::uint32_t r = 0; r < 2; ++r) {
    EXPECT_NE(ends[r].error.find("node_1.log: its lines are node 0's, and its name says node 1"), std::string::npos)
        << ends[r].error;
  }
}

}  // namespace
}  // namespace rr::session
