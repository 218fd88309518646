// summarise() over the graph builder's timing tally: Task Time by the kind of the processor (or the group's first
// member) the first Task Request of the same finish event named, per file; times with no request are
// "unattributed"; Copy Size bytes per file. Worked out by hand on two small node logs, and checked against a
// plain join of the records (an oracle written from the rule, not from either implementation) on the bundled
// traces.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <unordered_map>

#include "graph/graph_builder.hpp"
#include "parser/line_parser.hpp"
#include "parser/trace_reader.hpp"
#include "parser/trace_summary.hpp"
#include "support/test_dir.hpp"

namespace rr::parser {
namespace {

namespace fs = std::filesystem;

TraceSummary summary_of(const core::TraceRecords& trace) {
  return summarise(trace, graph::build_event_graph(trace).timing_by_file);
}

enum Slot : std::size_t { gpu = 0, cpu = 1, utility = 2, unknown_kind = 3, unattributed = 4 };

TEST(TraceSummary, TaskTimeGoesToTheKindTheFirstRequestNamed) {
  const rr::testing::TestDir scratch("rr_summary");
  const fs::path& dir = scratch.path();
  const std::string p0 = "[0 - 7f000] ", p1 = "[1 - 7f001] ";
  auto request = [](const std::string& prefix, const char* target, const char* event) {
    return prefix + "{2}{graph}: Task Request: 5 " + target + " " + event + " (0,0) (0,0) 0 (nil) 8\n";
  };
  auto time = [](const std::string& prefix, const char* event, int micros) {
    return prefix + "{1}{graph}: Task Time: " + event + " " + std::to_string(micros) + "\n";
  };
  // Processors: 80000000 GPU, 80000001 CPU, 80000002 utility; group 80000010 = {80000002}.
  std::ofstream(dir / "node_0.log")
      << p0 + "{2}{graph}: Processor: 80000000 0\n" << p0 + "{2}{graph}: Processor: 80000001 1\n"
      << p0 + "{2}{graph}: Processor: 80000002 2\n" << p0 + "{2}{graph}: Group: 80000010 1 80000002\n"
      << request(p0, "80000001", "(20000001,1)")   // first request of (20000001,1): a CPU
      << request(p0, "80000000", "(20000001,1)")   // a second one, on the GPU: ignored
      << time(p0, "(20000001,1)", 10)              // node 0: CPU 10
      << time(p0, "(20000002,1)", 7)               // no request: unattributed 7
      << request(p0, "80000010", "(20000004,1)")   // a group: its first member's kind, utility
      << p0 + "{2}{graph}: Event Merge: (20000008,1) 1\n";  // a merge produces (20000008,1) first...
  std::ofstream(dir / "node_1.log")
      << p1 + "{2}{graph}: Processor: 80000000 0\n"
      << request(p1, "80000000", "(20000003,1)")   // a GPU
      << time(p1, "(20000003,1)", 4)               // node 1: GPU 4
      << time(p1, "(20000001,1)", 3)               // the node-0 request's event, timed here: node 1 CPU 3
      << time(p1, "(20000004,1)", 2)               // node 1: utility 2
      << request(p1, "80000099", "(20000005,1)")   // a processor no record describes
      << time(p1, "(20000005,1)", 1)               // node 1: unknown kind 1
      << time(p1, "(20000003,1)", 5)               // a second Task Time of one task: counted too, GPU 4 + 5
      << request(p1, "80000001", "(20000008,1)")   // ...then a Task Request, on a CPU: its first request
      << time(p1, "(20000008,1)", 6)               // node 1: CPU 3 + 6
      << time(p1, "(0,0)", 2)                      // NO_EVENT names no task: unattributed 2
      << p1 + "{1}{graph}: Copy Size: (20000006,1) 4096\n"  // sizes count whether or not a copy is known
      << p1 + "{1}{graph}: Copy Size: (20000007,1) 0\n";
  auto trace = read_trace({dir.string()}, {}, 2);
  ASSERT_TRUE(trace) << trace.error().message;
  // Two events have two producers, as meant: the two requests of (20000001,1), the merge and the request of
  // (20000008,1).
  EXPECT_EQ(graph::build_event_graph(*trace).findings.count(core::Stat::duplicate_producer), 2u);
  const TraceSummary s = summary_of(*trace);
  ASSERT_EQ(s.nodes.size(), 2u);
  const auto& n0 = s.nodes[0].counts.task_time_us;
  const auto& n1 = s.nodes[1].counts.task_time_us;
  EXPECT_EQ(n0[cpu], 10u);
  EXPECT_EQ(n0[gpu], 0u);
  EXPECT_EQ(n0[unattributed], 7u);
  EXPECT_EQ(n1[gpu], 9u);
  EXPECT_EQ(n1[cpu], 9u);
  EXPECT_EQ(n1[utility], 2u);
  EXPECT_EQ(n1[unknown_kind], 1u);
  EXPECT_EQ(n1[unattributed], 2u);
  EXPECT_EQ(s.total.task_time_us[cpu], 19u);
  EXPECT_EQ(s.nodes[0].counts.copy_bytes, 0u);
  EXPECT_EQ(s.nodes[1].counts.copy_bytes, 4096u);
  EXPECT_EQ(s.nodes[1].counts.zero_byte_copy_sizes, 1u);
}

// A file of several MiB is read in 1 MiB chunks, one batch each: the build adds the batches' tallies up per file.
TEST(TraceSummary, TheBatchesOfOneFileAddUp) {
  const rr::testing::TestDir scratch("rr_summary");
  const std::string p0 = "[0 - 7f000] ";
  std::ofstream log(scratch.path() / "node_0.log");
  log << p0 + "{2}{graph}: Processor: 80000000 0\n" << p0 + "{2}{graph}: Processor: 80000001 1\n";
  std::uint64_t gpu_us = 0, cpu_us = 0;
  constexpr int kTasks = 40000;  // about 100 bytes a line, two lines a task: 8 MB
  for (int i = 0; i < kTasks; ++i) {
    char event[32];
    std::snprintf(event, sizeof event, "(%x,1)", 0x20000001 + i);
    const bool gpu = i % 3 == 0;
    const int micros = i % 7 + 1;
    (gpu ? gpu_us : cpu_us) += micros;
    log << p0 << "{2}{graph}: Task Request: 5 " << (gpu ? "80000000 " : "80000001 ") << event
        << " (0,0) (0,0) 0 (nil) 8\n"
        << p0 << "{1}{graph}: Task Time: " << event << " " << micros << "\n";
  }
  log.close();
  ReadOptions options;
  options.chunk_bytes = kMaxLineBytes;
  auto trace = read_trace({scratch.path().string()}, options, 2);
  ASSERT_TRUE(trace) << trace.error().message;
  ASSERT_EQ(trace->files.size(), 1u);
  ASSERT_GE(trace->files[0].batches.size(), 4u);
  const TraceSummary s = summary_of(*trace);
  EXPECT_EQ(s.total.task_time_us[gpu], gpu_us);
  EXPECT_EQ(s.total.task_time_us[cpu], cpu_us);
  EXPECT_EQ(s.total.task_time_us[unattributed], 0u);
}

TEST(TraceSummary, NeedsATallyPerFile) {
  core::TraceRecords trace;
  trace.files.resize(2);
  EXPECT_THROW(summarise(trace, {}), std::invalid_argument);
}

// The rule joined the plain way, over the records as read: per file, each Task Time by the kind of the first
// request of its event in input order (files in order, each file's batches in order), whatever else produced
// the event; a Task Time of NO_EVENT, or of an event no request produced, is unattributed.
struct Expected {
  std::vector<std::array<std::uint64_t, kTimeKindCount>> time;
  std::vector<std::uint64_t> copy_bytes;
};
Expected join_by_hand(const core::TraceRecords& trace) {
  std::map<std::uint64_t, core::ProcessorKind> kind;
  std::map<std::uint64_t, std::uint64_t> group_first;
  for (const auto& f : trace.files)
    for (const auto& b : f.batches) {
      for (const auto& p : b.processors) kind.emplace(p.id.value(), p.kind);
      for (const auto& g : b.groups) group_first.emplace(g.id.value(), g.member_count ? b.group_members[g.first_member] : 0);
    }
  auto slot = [&](std::uint64_t target) -> std::size_t {
    if (auto g = group_first.find(target); g != group_first.end()) target = g->second;
    auto k = kind.find(target);
    if (k == kind.end()) return 3;
    return k->second == core::ProcessorKind::gpu ? 0 : k->second == core::ProcessorKind::cpu ? 1
           : k->second == core::ProcessorKind::utility ? 2 : 3;
  };
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint64_t> first_request;
  for (const auto& f : trace.files)
    for (const auto& b : f.batches)
      for (const auto& q : b.task_requests) first_request.emplace(std::pair{q.finish.id(), q.finish.gen}, q.target.value());
  Expected e;
  for (const auto& f : trace.files) {
    auto& time = e.time.emplace_back();
    auto& bytes = e.copy_bytes.emplace_back();
    for (const auto& b : f.batches) {
      for (const auto& t : b.task_times) {
        auto q = first_request.find({t.finish.id(), t.finish.gen});
        time[q == first_request.end() || t.finish.is_none() ? 4 : slot(q->second)] += t.micros;
      }
      for (const auto& c : b.copy_sizes) bytes += c.bytes;
    }
  }
  return e;
}

class TraceSummaryOracle : public ::testing::TestWithParam<const char*> {};

TEST_P(TraceSummaryOracle, TallyEqualsThePlainJoin) {
  auto trace = read_trace({std::string(RR_SOURCE_DIR) + GetParam()}, {}, 2);
  ASSERT_TRUE(trace) << trace.error().message;
  const Expected expected = join_by_hand(*trace);
  const TraceSummary s = summary_of(*trace);
  std::array<std::uint64_t, kTimeKindCount> total_time{};
  std::uint64_t total_bytes = 0, any_time = 0;
  for (std::size_t fi = 0; fi < trace->files.size(); ++fi) {
    for (std::size_t k = 0; k < kTimeKindCount; ++k) total_time[k] += expected.time[fi][k];
    total_bytes += expected.copy_bytes[fi];
  }
  for (std::size_t k = 0; k < kTimeKindCount; ++k) {
    EXPECT_EQ(s.total.task_time_us[k], total_time[k]) << time_kind_key(k);
    any_time += total_time[k];
  }
  EXPECT_GT(any_time, 0u);  // the traces do time their tasks: the comparison is not of two zeros
  EXPECT_EQ(s.total.copy_bytes, total_bytes);
  // Per node too: the files of one node add up.
  for (const NodeSummary& node : s.nodes) {
    std::array<std::uint64_t, kTimeKindCount> node_time{};
    for (std::size_t fi = 0; fi < trace->files.size(); ++fi)
      if (trace->files[fi].node == node.node)
        for (std::size_t k = 0; k < kTimeKindCount; ++k) node_time[k] += expected.time[fi][k];
    EXPECT_EQ(node.counts.task_time_us, node_time) << "node " << node.node;
  }
}

INSTANTIATE_TEST_SUITE_P(Bundled, TraceSummaryOracle,
                         ::testing::Values("/data/traces/real/full_circuit_2node_p4_cpu2",
                                           "/data/traces/real/full_ghost_b2_cpu2", "/data/traces/s3d/dme_all_2n",
                                           "/data/traces/s3d/dme_mixed_4n"));

}  // namespace
}  // namespace rr::parser
