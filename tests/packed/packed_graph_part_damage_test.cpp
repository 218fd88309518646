// A damaged or crafted packed trace read rank by rank (packed/packed_graph_part.hpp): an older version; a node index
// that is no partition of the vertex ids (a run outside the graph, runs that overlap or leave a gap, runs of one node
// out of order, nodes out of order); an index that disagrees with the node column; a payload out of range. Behind
// repaired checksums, each is an error naming the file and the section, from MappedPackedTrace::open or from the
// rank that reads the rows, and from the whole trace's reader too; a damaged block is found by the rank that reads it
// and by no other; random changes never crash.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "packed/packed_graph_part.hpp"
#include "session/trace_packing.hpp"
#include "support/packed_trace_repair.hpp"

namespace rr::packed {
namespace {

using graph::NodeRanks;

// The node index's records as the document gives them (docs/packed-trace.md, Layout).
struct NodeEntry {
  std::uint32_t node, first_run, runs, vertices;
};
struct VertexRun {
  std::uint32_t first, count;
};
constexpr std::size_t kEntriesSection = 20, kRunsSection = 21, kNodesSection = 1 + 1, kSuccessorsSection = 1 + 17;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "/rr_packed_part_damage_" + name + "_" + std::to_string(::getpid()) + ".rrg";
}

class DamagedPackedParts : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    session::ReadingOptions options;
    options.summarise = true;
    auto t = session::load_trace({std::string(RR_SOURCE_DIR) + "/data/traces/s3d/dme_mixed_4n"}, options);
    ASSERT_TRUE(t.ok());
    const std::string path = temp_path("source");
    platform::OutputTarget out;
    ASSERT_EQ(out.open(path), "");
    ASSERT_TRUE(session::write_packed_trace(*t, out, false).ok());
    ASSERT_EQ(out.commit(), "");
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    good_ = new std::string(s.str());
    std::remove(path.c_str());
  }
  static void TearDownTestSuite() { delete good_; }

  template <class T>
  static std::vector<T> records(const std::string& f, std::size_t section) {
    const testing::PackedSection s = testing::packed_section(f, section);
    std::vector<T> out(s.bytes / sizeof(T));
    std::memcpy(out.data(), f.data() + s.offset, s.bytes);
    return out;
  }
  template <class T>
  static void put(std::string& f, std::size_t section, std::size_t i, const T& value) {
    std::memcpy(f.data() + testing::packed_section(f, section).offset + i * sizeof(T), &value, sizeof(T));
  }
  // The errors of opening and of reading each rank's part at `ranks`, and of reading the whole trace; "" for none.
  struct Errors {
    std::string open;
    std::vector<std::string> parts;
    std::string whole;
  };
  static Errors read(const std::string& bytes, NodeRanks ranks = {4, 4}) {
    const std::string path = temp_path("damaged");
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    Errors e;
    auto mapped = MappedPackedTrace::open(path);
    if (!mapped) e.open = mapped.error().to_string();
    for (std::uint32_t r = 0; mapped && r < ranks.ranks; ++r) {
      auto part = read_graph_part(*mapped, ranks, r);
      e.parts.push_back(part ? "" : part.error().to_string());
    }
    auto whole = session::read_packed_trace(path);
    if (!whole) e.whole = whole.error().to_string();
    std::remove(path.c_str());
    for (const std::string* m : {&e.open, &e.whole})
      if (!m->empty()) {
        EXPECT_NE(m->find(path), std::string::npos) << "the message names the file: " << *m;
      }
    return e;
  }
  static void expect_open_refuses(std::string f, const std::string& message) {
    testing::repair_packed_checksums(f);
    const Errors e = read(f);
    EXPECT_NE(e.open.find(message), std::string::npos) << e.open;
    EXPECT_NE(e.whole.find(message), std::string::npos) << e.whole;
  }
  static std::string* good_;
};
std::string* DamagedPackedParts::good_ = nullptr;

TEST_F(DamagedPackedParts, TheUndamagedFileReadsAtEveryRank) {
  const Errors e = read(*good_);
  EXPECT_EQ(e.open, "");
  EXPECT_EQ(e.whole, "");
  for (const std::string& p : e.parts) EXPECT_EQ(p, "");
}

// A version 5 file has no node index: opening it for parts says to pack it again, as reading it whole does.
TEST_F(DamagedPackedParts, AnOlderVersionIsPackedAgain) {
  std::string f = *good_;
  const std::uint32_t five = 5;
  std::memcpy(f.data() + 8, &five, sizeof five);
  const Errors e = read(f);
  EXPECT_NE(e.open.find("a packed trace of format version 5; this realm-replay reads version " +
                        std::to_string(kPackedTraceVersion) + ": pack the trace again"),
            std::string::npos) << e.open;
  EXPECT_NE(e.whole.find("pack the trace again"), std::string::npos) << e.whole;
}

TEST_F(DamagedPackedParts, ARunOutsideTheGraph) {
  std::string f = *good_;
  put(f, kRunsSection, 0, VertexRun{0xfffffff0u, 100});
  expect_open_refuses(f, "damaged: the graph's node index: a run outside the graph at run 0");
}

TEST_F(DamagedPackedParts, RunsThatOverlap) {
  // The last entry's first run moved onto vertex 0, its count kept: inside the graph, overlapping entry 0's.
  std::string f = *good_;
  const auto entries = records<NodeEntry>(f, kEntriesSection);
  auto runs = records<VertexRun>(f, kRunsSection);
  const std::uint32_t r = entries.back().first_run;
  put(f, kRunsSection, r, VertexRun{0, runs[r].count});
  testing::repair_packed_checksums(f);
  const Errors e = read(f);
  EXPECT_TRUE(e.open.find("runs that overlap at vertex 0") != std::string::npos ||
              e.open.find("runs of one node not in ascending order") != std::string::npos) << e.open;
  EXPECT_NE(e.open.find("the graph's node index"), std::string::npos) << e.open;
}

TEST_F(DamagedPackedParts, RunsOfOneNodeOutOfOrder) {
  std::string f = *good_;
  const auto entries = records<NodeEntry>(f, kEntriesSection);
  const auto runs = records<VertexRun>(f, kRunsSection);
  std::size_t e = 0;
  while (e < entries.size() && entries[e].runs < 2) ++e;
  ASSERT_LT(e, entries.size()) << "a node with two runs (its phases or resumes apart from its records)";
  const std::uint32_t r = entries[e].first_run;
  put(f, kRunsSection, r, runs[r + 1]);
  put(f, kRunsSection, r + 1, runs[r]);
  expect_open_refuses(f, "damaged: the graph's node index: runs of one node not in ascending order at run " +
                             std::to_string(r + 1));
}

TEST_F(DamagedPackedParts, AVertexInNoRun) {
  // One vertex taken from the end of a run and its entry's count: the total no longer covers the graph.
  std::string f = *good_;
  auto entries = records<NodeEntry>(f, kEntriesSection);
  auto runs = records<VertexRun>(f, kRunsSection);
  runs[0].count -= 1;
  entries[0].vertices -= 1;
  put(f, kRunsSection, 0, runs[0]);
  put(f, kEntriesSection, 0, entries[0]);
  expect_open_refuses(f, "damaged: the graph's node index: runs of ");
}

TEST_F(DamagedPackedParts, NodesOutOfOrder) {
  std::string f = *good_;
  auto entries = records<NodeEntry>(f, kEntriesSection);
  ASSERT_GE(entries.size(), 2u);
  entries[1].node = entries[0].node;
  put(f, kEntriesSection, 1, entries[1]);
  expect_open_refuses(f, "damaged: the graph's node index: nodes not in ascending order at entry 1");
}

TEST_F(DamagedPackedParts, AnEntryWhoseCountIsNotItsRuns) {
  std::string f = *good_;
  auto entries = records<NodeEntry>(f, kEntriesSection);
  entries[0].vertices += 1;
  put(f, kEntriesSection, 0, entries[0]);
  expect_open_refuses(f, "damaged: the graph's node index: a vertex count that is not its runs' at entry 0");
}

TEST_F(DamagedPackedParts, AnIndexThatDisagreesWithTheNodeColumn) {
  // Vertex 0's node changed to the next entry's: the index lists it under its old node. The rank that owns the old
  // node reads the row and refuses it; the whole reader too; the other ranks read their parts.
  std::string f = *good_;
  const auto entries = records<NodeEntry>(f, kEntriesSection);
  const auto runs = records<VertexRun>(f, kRunsSection);
  ASSERT_EQ(runs[entries[0].first_run].first, 0u);
  put<std::uint32_t>(f, kNodesSection, 0, entries[1].node);
  testing::repair_packed_checksums(f);
  const NodeRanks ranks{4, 4};
  const Errors e = read(f, ranks);
  EXPECT_EQ(e.open, "");
  const std::string message = "damaged: the graph's vertex runs by node: vertex 0 listed under node " +
                              std::to_string(entries[0].node) + " has node " + std::to_string(entries[1].node);
  for (std::uint32_t r = 0; r < ranks.ranks; ++r) {
    if (r == ranks.rank_of(entries[0].node)) {
      EXPECT_NE(e.parts[r].find(message), std::string::npos) << e.parts[r];
    } else {
      EXPECT_EQ(e.parts[r], "");
    }
  }
  EXPECT_NE(e.whole.find(message), std::string::npos) << e.whole;
}

TEST_F(DamagedPackedParts, APayloadOutOfRangeIsRefusedByItsRank) {
  std::string f = *good_;
  put<std::uint32_t>(f, 1 + 5, 0, 0x7ffffff0u);  // vertex 0's payload: a task's, in the graph's first file
  testing::repair_packed_checksums(f);
  const Errors e = read(f);
  EXPECT_NE(e.parts[0].find("damaged: the graph has an attribute index out of range at vertex 0"), std::string::npos)
      << e.parts[0];
  for (std::size_t r = 1; r < e.parts.size(); ++r) EXPECT_EQ(e.parts[r], "");
}

// Without the checksums repaired: a damaged block of the edges leaving node 3's records, in the middle of the last
// rank's rows. That rank finds it; rank 0, whose rows lie in other blocks, reads its part: it never read that block.
TEST_F(DamagedPackedParts, ADamagedBlockIsFoundByTheRankThatReadsIt) {
  std::string f = *good_;
  const auto entries = records<NodeEntry>(f, kEntriesSection);
  const auto runs = records<VertexRun>(f, kRunsSection);
  const auto offsets = records<std::uint32_t>(f, 1 + 16);
  ASSERT_GE(entries.size(), 4u);
  ASSERT_EQ(entries[3].node, 3u);
  const VertexRun records_of_node_3 = runs[entries[3].first_run];
  const std::uint64_t middle = (std::uint64_t{offsets[records_of_node_3.first]} +
                                offsets[records_of_node_3.first + records_of_node_3.count]) / 2;
  const testing::PackedSection successors = testing::packed_section(f, kSuccessorsSection);
  ASSERT_GT(successors.bytes, 2 * testing::kChecksumBlockBytes) << "edges over more than two blocks";
  f[successors.offset + middle * 4] ^= 1;
  const Errors e = read(f);
  EXPECT_EQ(e.open, "");
  EXPECT_EQ(e.parts[0], "");
  EXPECT_NE(e.parts[3].find("damaged: the checksum of the graph's successors does not match"), std::string::npos)
      << e.parts[3];
  EXPECT_NE(e.whole.find("damaged: the checksum of the graph's successors does not match"), std::string::npos) << e.whole;
}

// Property: whatever bytes change (checksums repaired half of the time), opening and reading every rank's part at
// 1 to 3 ranks gives parts or errors, never a crash; a part that is read passes its structure check.
TEST_F(DamagedPackedParts, RandomChangesNeverCrash) {
  std::mt19937_64 rng(20261127);
  int read_all = 0, refused = 0;
  const std::string path = temp_path("random");
  for (int round = 0; round < 200; ++round) {
    std::string f = *good_;
    // Half of the rounds change the index or the nodes, where a part reader looks first.
    const std::size_t section = rng() % 2 ? (rng() % 2 ? kEntriesSection : kRunsSection) : rng() % 23;
    const testing::PackedSection s = testing::packed_section(f, section);
    for (int c = 0, changes = 1 + static_cast<int>(rng() % 3); c < changes && s.bytes > 0; ++c)
      f[s.offset + rng() % s.bytes] = static_cast<char>(rng());
    if (rng() % 2) testing::repair_packed_checksums(f);
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(f.data(), static_cast<std::streamsize>(f.size()));
    auto mapped = MappedPackedTrace::open(path);
    if (!mapped) {
      ++refused;
      continue;
    }
    bool all = true;
    for (std::uint32_t ranks = 1; ranks <= 3; ++ranks)
      for (std::uint32_t r = 0; r < ranks; ++r) {
        auto part = read_graph_part(*mapped, NodeRanks{ranks, 4}, r);
        if (part) {
          EXPECT_EQ(part->structure_problem(), "");
        }
        all = all && part.ok();
      }
    all ? ++read_all : ++refused;
  }
  std::remove(path.c_str());
  EXPECT_GT(refused, 0);
  EXPECT_GT(read_all, 0);
}

}  // namespace
}  // namespace rr::packed
