// The graph builder splits its work by record batch: the graph and the findings must not depend on the
// thread count or on how the files were cut into batches, damaged input included.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "graph/graph_builder.hpp"
#include "parser/line_parser.hpp"
#include "parser/trace_reader.hpp"

namespace rr::gen {
namespace {

namespace fs = std::filesystem;

// Everything the graph, the findings and the timing tally hold, as text, so that a difference shows where it is.
std::string describe(const graph::BuildResult& r) {
  const graph::EventGraph& g = r.graph;
  std::ostringstream out;
  for (graph::VertexId v = 0; v < g.vertex_count(); ++v) {
    out << v << ' ' << graph::op_kind_name(g.kind(v)) << ' ' << g.node(v) << ' ' << core::to_string(g.event(v)) << ' '
        << g.issuer(v) << ' ' << g.position(v) << ' ' << g.payload(v);
    if (g.kind(v) == graph::OpKind::task) {
      const auto& t = g.task(v);
      out << " t" << t.func_id << ',' << t.priority << ',' << t.time_ns << ',' << g.waits_of(v).size() << ',' << t.action_count;
    }
    if (g.kind(v) == graph::OpKind::copy) out << " c" << g.copy(v).bytes;
    out << " ->";
    auto succ = g.successors(v);
    auto kinds = g.successor_kinds(v);
    for (std::size_t i = 0; i < succ.size(); ++i) out << ' ' << succ[i] << graph::edge_kind_name(kinds[i]);
    out << " <-";
    for (graph::VertexId p : g.predecessors(v)) out << ' ' << p;
    out << '\n';
  }
  for (core::Stat kind : core::finding_stats())
    out << "count " << core::stat_key(kind) << ' ' << r.findings.count(kind) << '\n';
  for (const auto& f : r.findings.examples)
    out << "example " << core::stat_key(f.kind) << ' ' << core::to_string(f.event) << ' ' << f.detail << '\n';
  out << "external references " << r.findings.external_references << '\n';
  for (std::size_t f = 0; f < r.timing_by_file.size(); ++f) {
    const core::FileTimingTally& t = r.timing_by_file[f];
    out << "timing " << f << ' ' << t.task_time_us_without_task << ' ' << t.copy_bytes << ' ' << t.zero_byte_copy_sizes;
    for (const auto& [target, micros] : t.task_time_us_by_target) out << ' ' << target << ':' << micros;
    out << '\n';
  }
  return out.str();
}

// The first line where two descriptions differ (gtest's own diff of megabytes of text takes minutes).
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream x(a), y(b);
  std::string l, r;
  while (true) {
    const bool more_l = static_cast<bool>(std::getline(x, l)), more_r = static_cast<bool>(std::getline(y, r));
    if (!more_l && !more_r) return "";
    if (l != r || more_l != more_r) return "'" + l + "' vs '" + r + "'";
  }
}

// A random DAG's trace with quirks, damaged across files: node 2 repeats node 0's first task request lines
// (duplicate producers) and Task Times with other values (repeated Task Times: the first in input order must
// count).
fs::path write_damaged_trace(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  Program p = make_random_dag(40000, {3, 2, 5});
  TruthMachine m;
  Truth truth = schedule(p, m);
  Quirks q;
  q.orphan_copy_sizes = 0.1;
  q.external_preconditions = 0.1;
  write_trace(p, truth, m, dir.string(), Compression::none, q);
  std::ifstream in(dir / "node_0.log");
  std::ofstream out(dir / "node_2.log", std::ios::app);
  std::string line;
  int requests = 0, times = 0;
  while (std::getline(in, line) && (requests < 30 || times < 30)) {
    if (line.find("Task Request:") != std::string::npos && requests++ < 30) out << line << '\n';
    if (line.find("Task Time:") != std::string::npos && times++ < 30) out << line << '7' << '\n';
  }
  return dir;
}

TEST(GraphBuilderThreads, SameGraphAndFindingsWhateverTheThreadsAndChunks) {
  const fs::path dir = write_damaged_trace("rr_graph_threads");
  // Vertex ids follow the batches, so each cut of the files has its own reference.
  for (std::size_t chunk : {std::size_t{4} << 20, parser::kMaxLineBytes}) {
    parser::ReadOptions read;
    read.chunk_bytes = chunk;
    auto trace = parser::read_trace({dir.string()}, read);
    ASSERT_TRUE(trace.ok());
    std::string reference;
    for (unsigned threads : {1u, 2u, 4u}) {
      std::string got = describe(graph::build_event_graph(*trace, {}, threads));
      if (reference.empty()) {
        reference = got;
        auto r = graph::build_event_graph(*trace, {}, threads);
        EXPECT_EQ(r.findings.count(core::Stat::duplicate_producer), 30u);
        EXPECT_EQ(r.findings.count(core::Stat::duplicate_task_time), 30u);
        EXPECT_GT(r.findings.count(core::Stat::external_event), 0u);
        EXPECT_GT(r.findings.count(core::Stat::zero_byte_copy_orphan), 0u);
        // The first Task Time in input order counts (random-dag tasks take at most 500 us), not node 2's
        // repeat, which is ten times longer.
        for (graph::VertexId v = 0; v < r.graph.vertex_count(); ++v)
          if (r.graph.kind(v) == graph::OpKind::task && r.graph.task(v).time_ns != graph::kNoTime) {
            EXPECT_LE(r.graph.task(v).time_ns, 500000);
          }
      } else {
        EXPECT_EQ(first_difference(got, reference), "") << "chunk " << chunk << ", threads " << threads;
      }
    }
  }
  fs::remove_all(dir);
}

// The CLI's build frees the records as it goes: the same graph and findings, the record counts and the
// machine records kept, the graph records gone.
TEST(GraphBuilderThreads, ReleasingBuildGivesTheSameGraphAndKeepsCountsAndMachineRecords) {
  const fs::path dir = write_damaged_trace("rr_graph_release");
  parser::ReadOptions read;
  read.chunk_bytes = parser::kMaxLineBytes;  // many batches, each released on its own
  auto trace = parser::read_trace({dir.string()}, read);
  ASSERT_TRUE(trace.ok());
  ASSERT_GT(trace->files.front().batches.size(), 1u);
  for (unsigned threads : {1u, 2u}) {
    const std::string reference = describe(graph::build_event_graph(*trace, {}, threads));
    core::TraceRecords consumed = *trace;
    const std::string got = describe(graph::build_event_graph_releasing(consumed, {}, threads));
    EXPECT_EQ(first_difference(got, reference), "") << "threads " << threads;
    EXPECT_EQ(consumed.record_count(), trace->record_count());
    for (std::size_t f = 0; f < trace->files.size(); ++f) {
      ASSERT_EQ(consumed.files[f].batches.size(), trace->files[f].batches.size());
      for (std::size_t b = 0; b < trace->files[f].batches.size(); ++b) {
        const core::RecordBatch& kept = consumed.files[f].batches[b];
        const core::RecordBatch& original = trace->files[f].batches[b];
        EXPECT_EQ(kept.processors.size(), original.processors.size());
        EXPECT_EQ(kept.memories.size(), original.memories.size());
        EXPECT_EQ(kept.groups.size(), original.groups.size());
        EXPECT_EQ(kept.record_count(), original.record_count());
        EXPECT_TRUE(kept.task_requests.empty() && kept.task_times.empty() && kept.event_preconditions.empty() &&
                    kept.copy_requests.empty() && kept.copy_sizes.empty() && kept.event_merges.empty());
      }
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace rr::gen
