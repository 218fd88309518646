// Packed traces: a trace packed and read back has every array of its graph byte for byte, the same findings,
// records and traced machine, and replays to the same result; damage is an error that names what is damaged,
// also when the checksums are made to match (the decoder and the graph's structure check catch it); and no
// random change to a packed file makes reading or replaying it crash.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "session/trace_packing.hpp"
#include "session/traced_fit.hpp"
#include "support/packed_trace_repair.hpp"

namespace rr::session {
namespace {

const std::string kSource = RR_SOURCE_DIR;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "/rr_packed_" + name + "_" + std::to_string(::getpid()) + ".rrg";
}

LoadedTrace load(const std::string& trace) {
  ReadingOptions options;
  options.summarise = true;
  auto t = load_trace({trace}, options);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().to_string());
  return std::move(*t);
}

std::string pack(const LoadedTrace& t, const std::string& name, bool fit = true) {
  const std::string path = temp_path(name);
  platform::OutputTarget out;
  EXPECT_EQ(out.open(path), "");
  auto info = write_packed_trace(t, out, fit);
  EXPECT_TRUE(info.ok());
  EXPECT_EQ(out.commit(), "");
  return path;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spill(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Every array of a graph as bytes, and its other parts, in visit order.
struct GraphBytes {
  std::vector<std::string> columns;
  std::int64_t origin = 0;
  std::vector<std::pair<std::uint32_t, std::string>> names;
  template <class T>
  void column(const graph::Column<T>& c) {
    columns.emplace_back(reinterpret_cast<const char*>(c.data()), c.size() * sizeof(T));
  }
  void value(const std::int64_t& x) { origin = x; }
  void value(const std::vector<std::pair<std::uint32_t, std::string>>& x) { names = x; }
};

GraphBytes bytes_of(const graph::EventGraph& g) {
  GraphBytes b;
  g.visit_parts(b);
  return b;
}

class PackedTraceRoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(PackedTraceRoundTrip, KeepsEveryArrayAndReplaysTheSame) {
  const LoadedTrace t = load(kSource + GetParam());
  const std::string path = pack(t, "round_trip");
  auto back = read_packed_trace(path);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back->inputs, std::vector<std::string>{path});
  EXPECT_EQ(back->label, t.label);
  EXPECT_EQ(back->nodes, t.nodes);
  EXPECT_EQ(back->family, t.family);
  const GraphBytes a = bytes_of(t.graph()), b = bytes_of(back->graph());
  ASSERT_EQ(a.columns.size(), b.columns.size());
  for (std::size_t i = 0; i < a.columns.size(); ++i) EXPECT_TRUE(a.columns[i] == b.columns[i]) << "column " << i;
  EXPECT_EQ(a.origin, b.origin);
  EXPECT_EQ(a.names, b.names);
  EXPECT_EQ(back->graph().structure_problem(), "");
  EXPECT_EQ(back->built.findings.counts, t.built.findings.counts);
  EXPECT_EQ(back->built.findings.cycle, t.built.findings.cycle);
  EXPECT_EQ(back->built.findings.examples.size(), t.built.findings.examples.size());
  EXPECT_EQ(back->records.record_count(), t.records.record_count());
  EXPECT_EQ(back->records.files.size(), t.records.files.size());
  EXPECT_EQ(back->malformed_lines(), t.malformed_lines());
  // Packed with the fit: the traced machine comes back fitted, with no replay to run.
  const TracedMachineFit packed_machine = fit_traced_machine(*back);
  EXPECT_EQ(packed_machine.replays, 0u);
  EXPECT_EQ(packed_machine.toml, fit_traced_machine(t).toml);
  EXPECT_EQ(back->summary.has_value(), t.summary.has_value());
  EXPECT_EQ(back->profile_summary.has_value(), t.profile_summary.has_value());
  // The machine records a mapping reads come back too.
  EXPECT_EQ(core::machine_records(back->records).processors.size(), core::machine_records(t.records).processors.size());
  auto r1 = replay_trace(t, {"traced", {}}, {});
  auto r2 = replay_trace(*back, {"traced", {}}, {});
  ASSERT_TRUE(r1.ok() && r2.ok());
  EXPECT_EQ(r1->result.makespan_ns, r2->result.makespan_ns);
  EXPECT_EQ(r1->result.ops, r2->result.ops);
  // Packing what was read back gives the same bytes.
  const std::string again = pack(*back, "again");
  EXPECT_TRUE(slurp(path) == slurp(again));
  std::remove(path.c_str());
  std::remove(again.c_str());
}

INSTANTIATE_TEST_SUITE_P(BundledTraces, PackedTraceRoundTrip,
                         ::testing::Values("/data/traces/real/full_circuit_2node_p4_cpu2",
                                           "/data/traces/real/full_ghost_b2_cpu2", "/data/traces/s3d/dme_all_2n",
                                           "/data/traces/legion-prof/circuit_small_cpu2_util1",
                                           "/data/traces/legion-prof/circuit_mpi2_medium_cpu2_util1"));

// One packed trace to damage, in memory.
// The replay counts a phase's inputs as its phase order alone (its arrivals count through their own events): an
// arrival turned into a precondition would leave the phase waiting for an input the replay never counted. Caught on
// the S3D sample, which has phase barriers (the fixture's trace has none).
TEST(PackedTraceStructure, AnEdgeIntoAPhaseOtherThanAnArrivalIsCaught) {
  const LoadedTrace t = load(kSource + "/data/traces/s3d/dme_mixed_2n");
  const graph::EventGraph& g = t.graph();
  std::uint64_t edge = g.edge_count();
  for (graph::VertexId v = 0; v < g.vertex_count() && edge == g.edge_count(); ++v) {
    auto kinds = g.successor_kinds(v);
    for (std::size_t i = 0; i < kinds.size(); ++i)
      if (kinds[i] == graph::EdgeKind::arrival) edge = g.first_edge(v) + i;
  }
  ASSERT_LT(edge, g.edge_count()) << "the trace has barrier arrivals";
  const std::string path = pack(t, "phase_edge");
  std::string f = slurp(path);
  std::remove(path.c_str());
  f[testing::packed_section(f, 1 + 18).offset + edge] = static_cast<char>(graph::EdgeKind::precondition);
  testing::repair_packed_checksums(f);
  const std::string damaged = temp_path("phase_edge_damaged");
  spill(damaged, f);
  auto back = read_packed_trace(damaged);
  std::remove(damaged.c_str());
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.error().to_string().find("an edge whose kind does not fit its operations"), std::string::npos)
      << back.error().to_string();
}

class DamagedPackedTrace : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    trace_ = new LoadedTrace(load(kSource + "/data/traces/real/full_circuit_2node_p4_cpu2"));
    const std::string path = pack(*trace_, "damage_source");
    good_ = new std::string(slurp(path));
    std::remove(path.c_str());
  }
  static void TearDownTestSuite() {
    delete trace_;
    delete good_;
  }
  // Reads `bytes` as a packed file; returns the error message, or "" when it was read.
  static std::string read_error(const std::string& bytes) {
    const std::string path = temp_path("damaged");
    spill(path, bytes);
    auto t = read_packed_trace(path);
    std::remove(path.c_str());
    if (t.ok()) return "";
    EXPECT_NE(t.error().to_string().find(path), std::string::npos) << "the message names the file";
    return t.error().to_string();
  }
  // The section of the graph's column `i` (visit order) in `file`.
  static testing::PackedSection column(const std::string& file, std::size_t i) { return testing::packed_section(file, 1 + i); }
  template <class T>
  static void put(std::string& file, std::uint64_t at, T value) {
    std::memcpy(file.data() + at, &value, sizeof value);
  }
  static LoadedTrace* trace_;
  static std::string* good_;
};
LoadedTrace* DamagedPackedTrace::trace_ = nullptr;
std::string* DamagedPackedTrace::good_ = nullptr;

TEST_F(DamagedPackedTrace, TheUndamagedFileIsRead) { EXPECT_EQ(read_error(*good_), ""); }

TEST_F(DamagedPackedTrace, ChecksumsNameTheDamagedPart) {
  std::string f = *good_;
  f[column(f, 17).offset + 4] ^= 1;  // a successor
  EXPECT_NE(read_error(f).find("the checksum of the graph's successors does not match"), std::string::npos);
  f = *good_;
  f[testing::packed_section(f, 0).offset + 3] ^= 1;
  EXPECT_NE(read_error(f).find("the checksum of the trace's records and findings"), std::string::npos);
}

TEST_F(DamagedPackedTrace, AnEdgeToNoVertexIsCaughtBehindGoodChecksums) {
  std::string f = *good_;
  put<std::uint32_t>(f, column(f, 17).offset, 0xfffffff0u);
  testing::repair_packed_checksums(f);
  EXPECT_NE(read_error(f).find("damaged: the graph has successor edge to no vertex at edge 0"), std::string::npos);
}

TEST_F(DamagedPackedTrace, DecreasingOffsetsAreCaught) {
  std::string f = *good_;
  put<graph::EdgeOffset>(f, column(f, 16).offset + sizeof(graph::EdgeOffset), 1u << 30);  // vertex 1's first edge
  testing::repair_packed_checksums(f);
  EXPECT_NE(read_error(f).find("successor offsets decrease at vertex 1"), std::string::npos) << read_error(f);
}

TEST_F(DamagedPackedTrace, OffsetsThatDoNotEndAtTheEdgeCountAreCaught) {
  std::string f = *good_;
  const std::uint32_t n = trace_->graph().vertex_count();
  put<graph::EdgeOffset>(f, column(f, 16).offset + sizeof(graph::EdgeOffset) * std::uint64_t{n}, 0xffffffffu);  // the successors' end
  testing::repair_packed_checksums(f);
  EXPECT_NE(read_error(f).find("successor offsets that do not add up to the edge count"), std::string::npos)
      << read_error(f);
}

TEST_F(DamagedPackedTrace, AnAttributeIndexOutOfRangeIsCaught) {
  const graph::EventGraph& g = trace_->graph();
  graph::VertexId task = 0;
  while (g.kind(task) != graph::OpKind::task) ++task;
  std::string f = *good_;
  put<std::uint32_t>(f, column(f, 5).offset + 4 * task, 0x7ffffff0u);
  testing::repair_packed_checksums(f);
  EXPECT_NE(read_error(f).find("an attribute index out of range at vertex " + std::to_string(task)), std::string::npos);
}

TEST_F(DamagedPackedTrace, AnOperationOfNoKindIsCaught) {
  std::string f = *good_;
  f[column(f, 0).offset + 2] = 99;
  testing::repair_packed_checksums(f);
  EXPECT_NE(read_error(f).find("an operation of no kind at vertex 2"), std::string::npos);
}

TEST_F(DamagedPackedTrace, AResumeWithoutTheContinuationFromItsPreviousSegmentIsCaught) {
  const graph::EventGraph& g = trace_->graph();
  ASSERT_FALSE(g.waits().empty());
  const graph::WaitInfo& w = g.waits()[0];
  auto succ = g.successors(w.task);
  auto kinds = g.successor_kinds(w.task);
  std::uint64_t edge = g.edge_count();
  for (std::size_t i = 0; i < succ.size(); ++i)
    if (succ[i] == w.resume && kinds[i] == graph::EdgeKind::continuation) edge = g.first_edge(w.task) + i;
  ASSERT_LT(edge, g.edge_count());
  std::string f = *good_;
  f[column(f, 18).offset + edge] = static_cast<char>(graph::EdgeKind::precondition);  // still fits its operations
  testing::repair_packed_checksums(f);
  EXPECT_NE(read_error(f).find("a resume that does not follow its task's previous segment at wait 0"), std::string::npos)
      << read_error(f);
}

TEST_F(DamagedPackedTrace, AnOperationThatNoLongerFitsItsEdgesIsCaught) {
  // A task segment that issues work turned into a merge: both CSRs still agree, the kinds do not.
  const graph::EventGraph& g = trace_->graph();
  graph::VertexId issuer = 0;
  auto issues = [&](graph::VertexId v) {
    for (auto k : g.successor_kinds(v))
      if (k == graph::EdgeKind::issue) return true;
    return false;
  };
  while (!issues(issuer)) ++issuer;
  std::string f = *good_;
  f[column(f, 0).offset + issuer] = static_cast<char>(graph::OpKind::merge);
  testing::repair_packed_checksums(f);
  EXPECT_NE(read_error(f).find("an edge whose kind does not fit its operations"), std::string::npos) << read_error(f);
}

TEST_F(DamagedPackedTrace, AWaitOutsideItsTasksRunIsCaught) {
  const graph::EventGraph& g = trace_->graph();
  ASSERT_FALSE(g.waits().empty());
  const graph::VertexId task = g.waits()[0].task;
  std::string f = *good_;
  // The task's first_wait (TaskInfo's last field) set to none: its waits belong to no run.
  put<std::uint32_t>(f, column(f, 6).offset + sizeof(graph::TaskInfo) * g.payload(task) + 28, graph::kNoWait);
  testing::repair_packed_checksums(f);
  EXPECT_NE(read_error(f).find("a wait outside its task's run of waits at wait 0"), std::string::npos) << read_error(f);
}

TEST_F(DamagedPackedTrace, AWaitFractionThatIsNoFractionIsCaught) {
  std::string f = *good_;
  ASSERT_FALSE(trace_->graph().waits().empty());
  // WaitInfo's last field, the fraction (a float), of wait 0: infinity.
  put<float>(f, column(f, 10).offset + 36, std::numeric_limits<float>::infinity());
  testing::repair_packed_checksums(f);
  EXPECT_NE(read_error(f).find("a wait's fraction of its task out of range at wait 0"), std::string::npos) << read_error(f);
}

// Found by fuzz_packed_trace: two copies sharing one attribute shared one copy plan, and the second read a hop
// past the end of its path.
TEST_F(DamagedPackedTrace, TwoCopiesSharingOneAttributeAreCaught) {
  const graph::EventGraph& g = trace_->graph();
  std::vector<graph::VertexId> copies;
  for (graph::VertexId v = 0; v < g.vertex_count() && copies.size() < 2; ++v)
    if (g.kind(v) == graph::OpKind::copy) copies.push_back(v);
  ASSERT_EQ(copies.size(), 2u);
  std::string f = *good_;
  put<std::uint32_t>(f, column(f, 5).offset + 4 * copies[1], g.payload(copies[0]));
  testing::repair_packed_checksums(f);
  EXPECT_NE(read_error(f).find("an attribute shared with an earlier copy or phase at vertex " + std::to_string(copies[1])),
            std::string::npos) << read_error(f);
}

TEST_F(DamagedPackedTrace, ALengthPastTheEndOfThePartsIsCaught) {
  std::string f = *good_;
  put<std::uint64_t>(f, testing::packed_section(f, 0).offset, ~std::uint64_t{0});  // the label's length
  testing::repair_packed_checksums(f);
  EXPECT_NE(read_error(f).find("cannot be decoded: a length of"), std::string::npos);
}

TEST_F(DamagedPackedTrace, AColumnOfAnotherElementSizeIsCaught) {
  std::string f = *good_;
  const std::uint64_t entry = testing::kPackedHeaderBytes + (1 + 6) * sizeof(testing::PackedSection);
  put<std::uint32_t>(f, entry + 4, 8);  // the tasks' element size
  testing::repair_packed_checksums(f);
  EXPECT_NE(read_error(f).find("tasks is not where this version has it"), std::string::npos) << read_error(f);
}

// Records a writer would never hold, written anyway: the reader refuses them by name (what the graph's
// structure check does not cover, but the machine map and the reports index with).
class ImpossiblePackedRecords : public ::testing::Test {
 protected:
  static std::string error_of(const LoadedTrace& t) {
    const std::string path = pack(t, "impossible", false);  // the fit would read the impossible records
    auto back = read_packed_trace(path);
    std::remove(path.c_str());
    return back.ok() ? "" : back.error().to_string();
  }
  LoadedTrace trace_ = load(kSource + "/data/traces/real/full_circuit_2node_p4_cpu2");
};

TEST_F(ImpossiblePackedRecords, AGroupWhoseMembersAreMissing) {
  core::RecordBatch& b = trace_.records.files[0].batches[0];
  b.groups.push_back({1, core::Handle::make(0x80000099), 0x40000000u, 4});
  EXPECT_NE(error_of(trace_).find("a group whose members are missing"), std::string::npos);
}

TEST_F(ImpossiblePackedRecords, AFileOfANodeNoIdNames) {
  trace_.records.files[1].node = 0x7ffffffe;
  EXPECT_NE(error_of(trace_).find("a file of a node out of range"), std::string::npos);
}

TEST_F(ImpossiblePackedRecords, ASummaryOfTheOtherFormat) {
  trace_.summary.reset();
  trace_.profile_summary.emplace();
  EXPECT_NE(error_of(trace_).find("no summary of the trace's format"), std::string::npos);
}

// Property: whatever bytes change (checksums repaired half of the time), reading gives a trace or an error,
// and a trace that is read replays and finds its critical path without a crash.
TEST_F(DamagedPackedTrace, RandomChangesNeverCrash) {
  std::mt19937_64 rng(20261124);
  int read = 0, refused = 0;
  for (int round = 0; round < 300; ++round) {
    std::string f = *good_;
    const int changes = 1 + static_cast<int>(rng() % 4);
    for (int c = 0; c < changes; ++c) {
      const std::size_t at = rng() % f.size();
      switch (rng() % 3) {
        case 0: f[at] = static_cast<char>(rng()); break;
        case 1: f[at] = static_cast<char>(0xff); break;
        default: f[at] = 0; break;
      }
    }
    if (rng() % 2) testing::repair_packed_checksums(f);
    const std::string path = temp_path("random");
    spill(path, f);
    auto t = read_packed_trace(path);
    if (t.ok()) {
      ++read;
      auto run = replay_trace(*t, {"traced", {}}, {});
      (void)run;
    } else {
      ++refused;
    }
    std::remove(path.c_str());
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(read, 0);  // changes to values, not structure, are read (e.g. a task's time)
}

}  // namespace
}  // namespace rr::session
