// One rank's part of a packed trace's graph (packed/packed_graph_part.hpp), at 1 to 4 ranks: each part is the whole
// graph restricted to the rank's vertices (every column, every payload entry byte for byte, out-edges in order), the
// parts' ids are every vertex once, rank 0 holds the whole findings and the others none; on 2015 and generated traces
// each part is also the one graph::build_graph_part builds from the logs. A damaged or crafted index or rows, behind
// repaired checksums, is an error naming the file and the section, never a crash; a damaged block of another rank's
// rows is never read.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <thread>

#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "gen/s3d.hpp"
#include "machine_models/mapping.hpp"
#include "packed/packed_graph_part.hpp"
#include "replay/machine_map.hpp"
#include "replay/part_exchange.hpp"
#include "session/trace_packing.hpp"
#include "support/generated_trace.hpp"
#include "support/graph_part_text.hpp"
#include "support/in_process_network.hpp"
#include "support/packed_trace_repair.hpp"
#include "support/test_dir.hpp"

namespace rr::packed {
namespace {

namespace fs = std::filesystem;
using graph::GraphPart;
using graph::NodeRanks;
using graph::VertexId;
using rr::testing::describe;
using rr::testing::write_program;

const std::string kSource = RR_SOURCE_DIR;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "/rr_packed_part_" + name + "_" + std::to_string(::getpid()) + ".rrg";
}

session::LoadedTrace load(const std::string& trace) {
  session::ReadingOptions options;
  options.summarise = true;
  auto t = session::load_trace({trace}, options);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().to_string());
  return std::move(*t);
}

std::string pack(const session::LoadedTrace& t, const std::string& name) {
  const std::string path = temp_path(name);
  platform::OutputTarget out;
  EXPECT_EQ(out.open(path), "");
  EXPECT_TRUE(session::write_packed_trace(t, out, false).ok());
  EXPECT_EQ(out.commit(), "");
  return path;
}

// Every rank's part of the packed file at `path`; an error's text in place of a part that could not be read.
std::vector<core::Expected<GraphPart>> read_parts(const std::string& path, const NodeRanks& ranks) {
  std::vector<core::Expected<GraphPart>> parts;
  auto mapped = MappedPackedTrace::open(path);
  for (std::uint32_t r = 0; r < ranks.ranks; ++r) {
    if (!mapped) {
      parts.emplace_back(mapped.error());
      continue;
    }
    parts.push_back(read_graph_part(*mapped, ranks, r));
  }
  return parts;
}

template <class T>
bool same_bytes(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// A part's payload entry of local vertex i is the whole graph's, byte for byte (padding fields included).
bool same_payload(const graph::EventGraph& g, const GraphPart& p, std::size_t i) {
  const VertexId v = p.ids[i];
  const std::uint32_t at = p.local_payload[i];
  switch (p.kind[i]) {
    case graph::OpKind::task:
    case graph::OpKind::background: return same_bytes(p.tasks[at], g.task(v));
    case graph::OpKind::copy: return same_bytes(p.copies[at], g.copy(v));
    case graph::OpKind::barrier_phase: return same_bytes(p.phases[at], g.phase(v));
    case graph::OpKind::barrier_alter:
    case graph::OpKind::barrier_arrive: return p.barrier_values[at] == g.barrier_value(v);
    case graph::OpKind::task_resume: return same_bytes(p.waits[at], g.resume_wait(v));
    default: return true;
  }
}

// The parts read from the packed trace of `t` at `ranks` against its whole graph; returns them.
std::vector<GraphPart> expect_restrictions(const session::LoadedTrace& t, const std::string& path, const NodeRanks& ranks) {
  SCOPED_TRACE(std::to_string(ranks.ranks) + " ranks of " + std::to_string(ranks.nodes) + " nodes");
  const graph::EventGraph& g = t.graph();
  std::vector<GraphPart> parts;
  std::uint64_t vertices = 0;
  for (auto& read : read_parts(path, ranks)) {
    if (!read) {
      ADD_FAILURE() << read.error().to_string();
      return {};
    }
    parts.push_back(std::move(*read));
  }
  for (std::uint32_t r = 0; r < ranks.ranks; ++r) {
    const GraphPart& part = parts[r];
    EXPECT_EQ(part.rank, r);
    EXPECT_EQ(part.whole_vertices, g.vertex_count());
    std::vector<VertexId> expected;
    for (VertexId v = 0; v < g.vertex_count(); ++v)
      if (ranks.rank_of(g.node(v)) == r) expected.push_back(v);
    EXPECT_EQ(part.ids, expected) << "rank " << r;
    if (part.ids != expected) continue;
    for (std::size_t i = 0; i < part.size(); ++i) {
      const std::string want = describe(g, part.ids[i]), got = describe(part, i);
      if (want != got || !same_payload(g, part, i)) {
        ADD_FAILURE() << "rank " << r << "\n whole: " << want << "\n part:  " << got;
        break;
      }
    }
    EXPECT_EQ(part.structure_problem(), "");
    vertices += part.size();
    // Rank 0 holds the whole findings, the others none: summed over ranks, the whole's.
    if (r == 0) {
      EXPECT_EQ(part.findings.counts, t.built.findings.counts);
      EXPECT_EQ(part.findings.cycle, t.built.findings.cycle);
      EXPECT_EQ(part.findings.examples.size(), t.built.findings.examples.size());
    } else {
      EXPECT_EQ(part.findings.counts, core::StatCounts{});
      EXPECT_TRUE(part.findings.examples.empty());
    }
  }
  EXPECT_EQ(vertices, g.vertex_count()) << "the parts' ids are every vertex once";
  return parts;
}

// Each rank's part built from its own files over an in-process network, ranks as threads (tests/graph).
std::vector<GraphPart> build_parts(const core::TraceRecords& whole, const NodeRanks& ranks) {
  std::vector<rr::testing::RankFiles> files = rr::testing::read_by_rank(whole, ranks);
  rr::testing::InProcessNetwork network(ranks.ranks, 5);
  std::vector<GraphPart> parts(ranks.ranks);
  std::vector<std::string> errors(ranks.ranks);
  std::vector<std::thread> threads;
  for (std::uint32_t r = 0; r < ranks.ranks; ++r)
    threads.emplace_back([&, r] {
      replay::NetworkRankExchange exchange(network.rank(r));
      try {
        parts[r] = graph::build_graph_part(files[r].files, ranks, exchange);
      } catch (const std::exception& e) {
        errors[r] = e.what();
      }
    });
  for (std::thread& t : threads) t.join();
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  return parts;
}

std::uint32_t traced_nodes(const core::TraceRecords& trace) {
  std::int32_t last = 0;
  for (const core::FileRecords& f : trace.files) last = std::max(last, f.node);
  return static_cast<std::uint32_t>(last) + 1;
}

// The packed parts of the trace at `dir` at 1 to 4 ranks, against its whole graph and, for a 2015 or generated
// trace, against the parts built from its logs.
void expect_parts_of(const fs::path& dir, const std::string& what, bool built_in_parts) {
  SCOPED_TRACE(what);
  const session::LoadedTrace t = load(dir.string());
  const std::string path = pack(t, "parts");
  std::optional<core::TraceRecords> records;
  if (built_in_parts) {
    auto read = parser::read_trace({dir.string()}, {});
    ASSERT_TRUE(read.ok()) << read.error().to_string();
    records = std::move(*read);
  }
  const std::uint32_t nodes = records ? traced_nodes(*records) : std::max<std::uint32_t>(1, t.nodes);
  for (std::uint32_t count = 1; count <= 4; ++count) {
    const NodeRanks ranks{count, nodes};
    const std::vector<GraphPart> packed = expect_restrictions(t, path, ranks);
    if (!records || packed.size() != count) continue;
    const std::vector<GraphPart> built = build_parts(*records, ranks);
    for (std::uint32_t r = 0; r < count; ++r) {
      ASSERT_EQ(packed[r].ids, built[r].ids) << "rank " << r;
      EXPECT_EQ(packed[r].edge_offset, built[r].edge_offset) << "rank " << r;
      for (std::size_t i = 0; i < packed[r].size(); ++i)
        if (describe(packed[r], i) != describe(built[r], i)) {
          ADD_FAILURE() << "rank " << r << "\n built:  " << describe(built[r], i) << "\n packed: " << describe(packed[r], i);
          break;
        }
    }
  }
  // Fewer model nodes than the graph's: the nodes past the last go with the last rank.
  if (nodes > 1) expect_restrictions(t, path, NodeRanks{2, nodes - 1});
  std::remove(path.c_str());
}

TEST(PackedGraphPart, EveryGeneratorFamily) {
  for (const auto& [name, program] : rr::testing::part_test_families()) {
    const rr::testing::TestDir dir("rr_packed_part");
    write_program(dir.path(), program);
    expect_parts_of(dir.path(), name, true);
  }
}

TEST(PackedGraphPart, BundledRealTraces) {
  for (const char* name : {"full_circuit_2node_p4_cpu2", "full_ghost_b2_cpu2"})
    expect_parts_of(fs::path(kSource) / "data/traces/real" / name, name, true);
}

TEST(PackedGraphPart, BundledS3dSamples) {
  for (const char* name : {"dme_mixed_4n", "dme_all_2n"})
    expect_parts_of(fs::path(kSource) / "data/traces/s3d" / name, name, true);
}

// Legion Prof logs: no part build from the logs (docs/scale.md), but their packed graph reads in parts all the same.
TEST(PackedGraphPart, LegionProfLog) {
  for (const char* name : {"circuit_small_cpu2_util1", "circuit_mpi2_medium_cpu2_util1"})
    expect_parts_of(fs::path(kSource) / "data/traces/legion-prof" / name, name, false);
}

// A fold or node map: a rank's vertices are those of the traced nodes folded onto its model nodes, runs of the node
// index that need not be consecutive (cyclic, a list); the same parts as graph::build_graph_part builds from the logs
// split alike.
TEST(PackedGraphPart, FoldsAndNodeMaps) {
  machine::MappingSpec cyclic, block, list;
  cyclic.fold = 2;
  block.fold = 3;
  block.nodes.rule = machine::NodeMapRule::block;
  list.nodes = {machine::NodeMapRule::list, {2, 0, 1, 2, 1, 0, 0, 2}, "list"};
  for (const auto& [name, program] : rr::testing::part_test_families()) {
    const rr::testing::TestDir dir("rr_packed_part_fold");
    write_program(dir.path(), program);
    const session::LoadedTrace t = load(dir.path().string());
    const std::string path = pack(t, "fold");
    auto read = parser::read_trace({dir.path().string()}, {});
    ASSERT_TRUE(read.ok()) << read.error().to_string();
    for (const machine::MappingSpec* mapping : {&cyclic, &block, &list}) {
      auto fold = machine::fold_nodes(*mapping, replay::MachineMap::traced_node_count(t.records));
      ASSERT_TRUE(fold.ok()) << fold.error().to_string();
      SCOPED_TRACE(std::string(name) + ", " + machine::node_map_rule_name(mapping->nodes.rule));
      for (std::uint32_t count = 1; count <= std::min(4u, fold->model_nodes); ++count) {
        const NodeRanks ranks{count, fold->model_nodes, *fold};
        const std::vector<GraphPart> packed = expect_restrictions(t, path, ranks);
        if (packed.size() != count) continue;
        const std::vector<GraphPart> built = build_parts(*read, ranks);
        for (std::uint32_t r = 0; r < count; ++r) {
          ASSERT_EQ(packed[r].ids, built[r].ids) << "rank " << r;
          EXPECT_EQ(packed[r].edge_offset, built[r].edge_offset) << "rank " << r;
        }
      }
    }
    std::remove(path.c_str());
  }
}

TEST(PackedGraphPart, RandomDagsOfRandomSeedsAndNodeCounts) {
  for (std::uint64_t seed = 11; seed < 15; ++seed) {
    const gen::SmallOptions options{static_cast<std::uint32_t>(2 + seed % 5), 1 + static_cast<std::uint32_t>(seed % 3),
                                    seed};
    const rr::testing::TestDir dir("rr_packed_part_seed");
    write_program(dir.path(), gen::make_random_dag(1500, options));
    expect_parts_of(dir.path(), "random-dag seed " + std::to_string(seed), true);
  }
}

}  // namespace
}  // namespace rr::packed
