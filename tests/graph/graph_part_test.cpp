// The graph built in parts over ranks (graph/graph_part.hpp), ranks as threads: each rank's part must be the whole
// build's graph restricted to the vertices of its nodes (ids, kinds, nodes, events, issuers, positions, payloads and
// what they name, the edges leaving them in order), and the findings summed over ranks the whole build's. On every
// generator family, a damaged trace, the bundled real traces and random seeds, at 1 to 4 ranks, split by node or, under
// a fold or node map, by model node; and a rank that cannot read its file stops every rank with an error naming it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/trace_stats.hpp"
#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "gen/s3d.hpp"
#include "graph/graph_builder.hpp"
#include "graph/graph_part.hpp"
#include "machine_models/mapping.hpp"
#include "parser/trace_reader.hpp"
#include "replay/machine_map.hpp"
#include "replay/part_exchange.hpp"
#include "support/generated_trace.hpp"
#include "support/failing_exchange.hpp"
#include "support/fold_mapping.hpp"
#include "support/graph_part_text.hpp"
#include "support/in_process_network.hpp"
#include "support/test_dir.hpp"

namespace rr::graph {
namespace {

namespace fs = std::filesystem;
using rr::testing::FailingExchange;
using rr::testing::describe;
using rr::testing::write_program;
using rr::testing::RankFiles;
using rr::testing::read_by_rank;

// Every rank's part, built on threads over an in-process network; an error's text in place of a part that failed.
struct Built {
  std::vector<std::optional<GraphPart>> parts;
  std::vector<std::string> errors;
};

// `failing` (with `fail_at`): the rank whose exchange fails, and at which exchange; ranks() for none.
Built build_parts(const std::vector<PartFiles>& files, const NodeRanks& ranks, std::uint64_t seed,
                  std::uint32_t failing = ~0u, std::uint32_t fail_at = 0) {
  rr::testing::InProcessNetwork network(ranks.ranks, seed);
  Built built;
  built.parts.resize(ranks.ranks);
  built.errors.resize(ranks.ranks);
  std::vector<std::thread> threads;
  for (std::uint32_t r = 0; r < ranks.ranks; ++r)
    threads.emplace_back([&, r] {
      replay::NetworkRankExchange network_exchange(network.rank(r));
      FailingExchange exchange(network_exchange, r == failing ? fail_at : 0);
      try {
        built.parts[r] = build_graph_part(files[r], ranks, exchange);
      } catch (const std::exception& e) {
        built.errors[r] = e.what();
      }
    });
  for (std::thread& t : threads) t.join();
  return built;
}

std::uint32_t traced_nodes(const core::TraceRecords& trace) {
  std::int32_t last = 0;
  for (const core::FileRecords& f : trace.files) last = std::max(last, f.node);
  return static_cast<std::uint32_t>(last) + 1;
}

// The parts at 1 to 4 ranks (no more than the model nodes) against the whole build of the trace in `dir`, split by
// node, or by the model node `mapping`'s fold or node map gives each traced node (machine::fold_nodes, the replay's
// MachineMap's rule); returns how many edges leave one rank's part for another's at two ranks.
std::uint64_t expect_parts_are_the_whole(const fs::path& dir, const std::string& what, std::uint64_t seed = 1,
                                         const std::optional<machine::MappingSpec>& mapping = std::nullopt) {
  SCOPED_TRACE(what);
  auto read = parser::read_trace({dir.string()}, {});
  if (!read.ok()) {
    ADD_FAILURE() << read.error().to_string();
    return 0;
  }
  const core::TraceRecords& trace = *read;
  core::NodeFold fold;
  if (mapping) {
    auto folded = machine::fold_nodes(*mapping, replay::MachineMap::traced_node_count(trace));
    if (!folded) {
      ADD_FAILURE() << folded.error().to_string();
      return 0;
    }
    fold = std::move(*folded);
  }
  const std::uint32_t model_nodes = mapping ? fold.model_nodes : traced_nodes(trace);
  std::uint64_t crossing_at_two = 0;
  const BuildResult whole = build_event_graph(trace);
  const EventGraph& g = whole.graph;
  for (std::uint32_t count = 1; count <= std::min(4u, model_nodes); ++count) {
    SCOPED_TRACE(std::to_string(count) + " ranks");
    const NodeRanks ranks{count, model_nodes, fold};
    std::vector<RankFiles> by_rank = read_by_rank(trace, ranks);
    std::vector<PartFiles> files;
    std::vector<std::uint64_t> records_read;
    // At an even count the ranks free their records as they go: the same parts, and their counts stay.
    const bool releasing = count % 2 == 0;
    for (RankFiles& r : by_rank) {
      if (releasing && r.records) r.files.releasable = &*r.records;
      files.push_back(r.files);
      records_read.push_back(r.records ? r.records->record_count() : 0);
    }
    const Built built = build_parts(files, ranks, seed + count);
    for (std::uint32_t r = 0; r < count && releasing; ++r) {
      if (!by_rank[r].records) continue;
      EXPECT_EQ(by_rank[r].records->record_count(), records_read[r]);
      for (const core::FileRecords& f : by_rank[r].records->files)
        for (const core::RecordBatch& b : f.batches)
          EXPECT_TRUE(b.task_requests.empty() && b.task_times.empty() && b.event_preconditions.empty() &&
                      b.copy_requests.empty() && b.barrier_arrives.empty() && b.task_waits.empty());
    }
    core::StatCounts summed;
    std::uint64_t external_references = 0, pre_first_phase = 0, vertices = 0, crossing = 0;
    for (std::uint32_t r = 0; r < count; ++r) {
      if (!built.parts[r]) {
        ADD_FAILURE() << "rank " << r << ": " << built.errors[r];
        return 0;
      }
      const GraphPart& part = *built.parts[r];
      EXPECT_EQ(part.whole_vertices, g.vertex_count());
      std::vector<VertexId> expected;
      for (VertexId v = 0; v < g.vertex_count(); ++v)
        if (ranks.rank_of(g.node(v)) == r) expected.push_back(v);
      if (part.ids != expected) {
        ADD_FAILURE() << "rank " << r << " owns other vertices";
        return 0;
      }
      for (std::size_t i = 0; i < part.size(); ++i) {
        const std::string want = describe(g, part.ids[i]), got = describe(part, i);
        if (want != got) {
          ADD_FAILURE() << "rank " << r << "\n whole: " << want << "\n part:  " << got;
          break;
        }
      }
      for (VertexId to : part.successors) crossing += ranks.rank_of(g.node(to)) != r;
      // Every rank lists the phases and the waiting tasks; alone, it sends and receives nothing.
      EXPECT_EQ(part.traffic.phases, g.phase_count());
      std::vector<VertexId> waiting;
      for (const WaitInfo& w : g.waits()) waiting.push_back(w.task);
      waiting.erase(std::unique(waiting.begin(), waiting.end()), waiting.end());
      EXPECT_EQ(part.traffic.waiting_tasks, waiting.size());
      if (count == 1) {
        EXPECT_EQ(part.traffic.bytes_sent + part.traffic.vertices_from_others + part.traffic.edges_from_others, 0u);
      } else {
        EXPECT_GT(part.traffic.bytes_sent, 0u);
      }
      summed += part.findings.counts;
      external_references += part.findings.external_references;
      pre_first_phase += part.findings.pre_first_phase_references;
      vertices += part.size();
    }
    EXPECT_EQ(vertices, g.vertex_count());
    std::uint64_t whole_crossing = 0;
    for (VertexId v = 0; v < g.vertex_count(); ++v)
      for (VertexId to : g.successors(v)) whole_crossing += ranks.rank_of(g.node(to)) != ranks.rank_of(g.node(v));
    EXPECT_EQ(crossing, whole_crossing);
    if (count == 2) crossing_at_two = crossing;
    for (core::Stat kind : core::finding_stats())
      if (kind != core::Stat::cycle) {
        EXPECT_EQ(summed[kind], whole.findings.count(kind)) << core::stat_key(kind);
      }
    EXPECT_EQ(external_references, whole.findings.external_references);
    EXPECT_EQ(pre_first_phase, whole.findings.pre_first_phase_references);
  }
  return crossing_at_two;
}

TEST(GraphPart, EveryGeneratorFamilyAtOneToFourRanks) {
  for (const auto& [name, program] : rr::testing::part_test_families()) {
    const rr::testing::TestDir dir("rr_graph_part");
    write_program(dir.path(), program);
    // Every family has edges between nodes: at two ranks, some leave one rank's part for another's.
    EXPECT_GT(expect_parts_are_the_whole(dir.path(), name), 0u) << name;
  }
}

// Duplicate producers, repeated Task Times across files, external preconditions, orphan Copy Sizes: every finding a
// rank decides, and the first Task Time in input order wherever it was logged.
TEST(GraphPart, DamagedTraceGivesTheWholeFindings) {
  const rr::testing::TestDir dir("rr_graph_part_damaged");
  gen::Quirks quirks;
  quirks.orphan_copy_sizes = 0.1;
  quirks.external_preconditions = 0.1;
  write_program(dir.path(), gen::make_random_dag(6000, {3, 2, 5}), {}, quirks);
  std::ifstream in(dir.path() / "node_0.log");
  std::ofstream out(dir.path() / "node_2.log", std::ios::app);
  std::string line;
  int requests = 0, times = 0;
  std::vector<std::string> finish_events;
  while (std::getline(in, line) && (requests < 30 || times < 30)) {
    if (line.find("Task Request:") != std::string::npos && requests++ < 30) {
      out << line << '\n';
      std::istringstream fields(line.substr(line.find("Task Request:") + 13));
      std::string func, processor, finish;
      fields >> func >> processor >> finish;
      finish_events.push_back(finish);
    }
    if (line.find("Task Time:") != std::string::npos && times++ < 30) out << line << '7' << '\n';
  }
  // Task Waits of node 0's tasks logged in the files of nodes 1 and 2: waits that reach their task's owner from two
  // other ranks.
  ASSERT_GE(finish_events.size(), 4u);
  std::ofstream node1(dir.path() / "node_1.log", std::ios::app);
  for (std::size_t i = 0; i + 1 < 4; ++i)
    (i % 2 == 0 ? out : node1) << "[" << (i % 2 == 0 ? 2 : 1) << " - 7f0000000001] {1}{graph}: Task Wait: "
                               << finish_events[i] << ' ' << finish_events[i + 1] << ' ' << 10 + i << '\n';
  out.close();
  node1.close();
  auto read = parser::read_trace({dir.path().string()}, {});
  ASSERT_TRUE(read.ok());
  const BuildResult whole = build_event_graph(*read);
  EXPECT_EQ(whole.findings.count(core::Stat::duplicate_producer), 30u);
  EXPECT_EQ(whole.findings.count(core::Stat::duplicate_task_time), 30u);
  EXPECT_GT(whole.findings.count(core::Stat::external_event), 0u);
  EXPECT_GT(whole.findings.count(core::Stat::zero_byte_copy_orphan), 0u);
  EXPECT_EQ(whole.graph.waits().size(), 3u);
  expect_parts_are_the_whole(dir.path(), "damaged random-dag");
}

TEST(GraphPart, BundledRealTraces) {
  for (const char* name : {"full_circuit_2node_p4_cpu2", "full_ghost_b2_cpu2"})
    expect_parts_are_the_whole(fs::path(RR_SOURCE_DIR) / "data/traces/real" / name, name);
  // full_circuit's two nodes depend on each other (full_ghost is one node).
  EXPECT_GT(expect_parts_are_the_whole(fs::path(RR_SOURCE_DIR) / "data/traces/real/full_circuit_2node_p4_cpu2", "circuit"),
            0u);
}

TEST(GraphPart, BundledS3dSamples) {
  for (const char* name : {"dme_mixed_4n", "dme_all_2n"}) {
    EXPECT_GT(expect_parts_are_the_whole(fs::path(RR_SOURCE_DIR) / "data/traces/s3d" / name, name), 0u) << name;
  }
}

TEST(GraphPart, RandomSeedsAndNodeCounts) {
  for (std::uint64_t seed = 11; seed < 17; ++seed) {
    const gen::SmallOptions options{static_cast<std::uint32_t>(2 + seed % 5), 1 + static_cast<std::uint32_t>(seed % 3),
                                    seed};
    const rr::testing::TestDir dir("rr_graph_part_seed");
    write_program(dir.path(), gen::make_random_dag(1500, options));
    expect_parts_are_the_whole(dir.path(), "random-dag seed " + std::to_string(seed), seed);
  }
}

using rr::testing::fold_of;

// A fold or node map: a vertex's rank is its model node's, so that a rank reads the files of the traced nodes folded
// onto its model nodes (several, not consecutive under the cyclic rule or a list) and owns their vertices.
TEST(GraphPart, FoldsAndNodeMapsSplitByModelNode) {
  using machine::NodeMapRule;
  // The families of four nodes (and S3D's eight) folded onto fewer model nodes, and mapped by a list.
  const std::vector<std::pair<std::string, machine::MappingSpec>> maps{
      {"cyclic fold 2", fold_of(2)},
      {"cyclic fold 3", fold_of(3)},
      {"block fold 2", fold_of(2, NodeMapRule::block)},
      {"block fold 3", fold_of(3, NodeMapRule::block)},
      {"list 2,0,1,2,1,0,0,2", fold_of(0, NodeMapRule::list, {2, 0, 1, 2, 1, 0, 0, 2})},
      {"list 3,0,3,0,... with model nodes 1 and 2 empty", fold_of(4, NodeMapRule::list, {3, 0, 3, 0, 0, 3, 0, 3})}};
  for (const auto& [name, program] : rr::testing::part_test_families()) {
    const rr::testing::TestDir dir("rr_graph_part_fold");
    write_program(dir.path(), program);
    for (const auto& [rule, mapping] : maps) expect_parts_are_the_whole(dir.path(), std::string(name) + ", " + rule, 3, mapping);
  }
  // The real two-node trace folded onto one node: one rank reads both files.
  const fs::path circuit = fs::path(RR_SOURCE_DIR) / "data/traces/real/full_circuit_2node_p4_cpu2";
  expect_parts_are_the_whole(circuit, "circuit folded to 1", 1, fold_of(1));
  expect_parts_are_the_whole(circuit, "circuit, list 1,0", 1, fold_of(0, NodeMapRule::list, {1, 0}));
  expect_parts_are_the_whole(fs::path(RR_SOURCE_DIR) / "data/traces/s3d/dme_mixed_4n", "dme_mixed_4n block fold 2", 5,
                             fold_of(2, NodeMapRule::block));
}

// A rank whose file cannot be read stops with its reading error; every other rank stops too, naming that rank and
// its error, instead of waiting for it. Two errors: binary data (the reader's own error, with the file and offset),
// and a malformed line read strictly (core::strict_problem, as --strict reads: the file and line).
void expect_bad_file_stops_every_rank(bool binary) {
  SCOPED_TRACE(binary ? "binary data" : "malformed line, read strictly");
  const rr::testing::TestDir dir("rr_graph_part_bad");
  write_program(dir.path(), gen::make_chain(40, {3, 2, 1}));
  auto whole = parser::read_trace({dir.path().string()}, {});
  ASSERT_TRUE(whole.ok());
  std::uint64_t lines = 0;
  {
    std::ifstream in(dir.path() / "node_1.log");
    for (std::string line; std::getline(in, line);) ++lines;
    std::ofstream bad(dir.path() / "node_1.log", std::ios::app);
    if (binary) {
      bad << std::string("binary\0data", 11) << '\n';
    } else {
      bad << "[1 - 7f] {2}{graph}: Task Request: 5 80800000 (20800005,1) (0,0)\n";  // fields missing
      ++lines;
    }
  }
  const NodeRanks ranks{3, 3};
  std::vector<PartFiles> files(3);
  std::vector<core::TraceRecords> records(3);
  for (std::uint32_t r = 0; r < 3; ++r) {
    const std::string path = whole->files[r].path;
    files[r].file_index = {r};
    files[r].total_files = 3;
    auto read = parser::read_trace({path}, {});
    if (!read) {
      files[r].read_error = read.error().to_string();
    } else if (const auto problem = core::strict_problem(*read)) {
      files[r].read_error = problem->to_string();
    } else {
      records[r] = std::move(*read);
      files[r].records = &records[r];
    }
  }
  ASSERT_EQ(files[1].records, nullptr) << "node_1.log was read although it is damaged";
  const std::string where = binary ? "node_1.log" : "node_1.log:" + std::to_string(lines);
  ASSERT_NE(files[1].read_error.find(where), std::string::npos) << files[1].read_error;
  const Built built = build_parts(files, ranks, 7);
  for (std::uint32_t r = 0; r < 3; ++r) {
    EXPECT_FALSE(built.parts[r]) << "rank " << r << " built a part";
    EXPECT_NE(built.errors[r].find(where), std::string::npos) << built.errors[r];
    if (r != 1) {
      EXPECT_NE(built.errors[r].find("rank 1 of 3 stopped building its part of the graph"), std::string::npos)
          << built.errors[r];
    }
  }
}

TEST(GraphPart, ARankThatCannotReadItsFileStopsEveryRank) {
  expect_bad_file_stops_every_rank(true);
  expect_bad_file_stops_every_rank(false);
}

}  // namespace
}  // namespace rr::graph

namespace rr::graph {
namespace {

// A rank that fails between exchanges (here its network, at each of the build's six exchanges in turn) stops every
// other rank at its next exchange, naming it, instead of leaving them waiting.
TEST(GraphPart, ARankThatFailsLaterStopsEveryRank) {
  const rr::testing::TestDir dir("rr_graph_part_later");
  write_program(dir.path(), gen::make_chain(40, {3, 2, 1}));
  auto whole = parser::read_trace({dir.path().string()}, {});
  ASSERT_TRUE(whole.ok());
  const NodeRanks ranks{3, 3};
  std::vector<RankFiles> by_rank = read_by_rank(*whole, ranks);
  std::vector<PartFiles> files;
  for (const RankFiles& r : by_rank) files.push_back(r.files);
  for (std::uint32_t fail_at = 1; fail_at <= 6; ++fail_at) {
    const Built built = build_parts(files, ranks, fail_at, 2, fail_at);
    for (std::uint32_t r = 0; r < 3; ++r) {
      EXPECT_FALSE(built.parts[r]) << "rank " << r << " built a part; exchange " << fail_at;
      EXPECT_NE(built.errors[r].find("the network went away"), std::string::npos) << built.errors[r];
      if (r != 2) {
        EXPECT_NE(built.errors[r].find("rank 2 of 3"), std::string::npos) << built.errors[r];
      }
    }
  }
  // One more than the build makes: nothing fails.
  const Built built = build_parts(files, ranks, 9, 2, 7);
  for (std::uint32_t r = 0; r < 3; ++r) EXPECT_TRUE(built.parts[r]) << built.errors[r];
}

}  // namespace
}  // namespace rr::graph
