// summarise(): Task Time joined to the Task Request of the same finish event, by the kind of the processor (or
// the group's first member) the first request named, per file; times with no request are "unattributed".
// Worked out by hand on two small node logs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "parser/trace_reader.hpp"
#include "parser/trace_summary.hpp"

namespace rr::parser {
namespace {

namespace fs = std::filesystem;

enum Slot : std::size_t { gpu = 0, cpu = 1, utility = 2, unknown_kind = 3, unattributed = 4 };

TEST(TraceSummary, TaskTimeGoesToTheKindTheFirstRequestNamed) {
  const fs::path dir = fs::temp_directory_path() / ("rr_summary_" + std::to_string(::getpid()));
  fs::create_directories(dir);
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
      << request(p0, "80000010", "(20000004,1)");  // a group: its first member's kind, utility
  std::ofstream(dir / "node_1.log")
      << p1 + "{2}{graph}: Processor: 80000000 0\n"
      << request(p1, "80000000", "(20000003,1)")   // a GPU
      << time(p1, "(20000003,1)", 4)               // node 1: GPU 4
      << time(p1, "(20000001,1)", 3)               // the node-0 request's event, timed here: node 1 CPU 3
      << time(p1, "(20000004,1)", 2)               // node 1: utility 2
      << request(p1, "80000099", "(20000005,1)")   // a processor no record describes
      << time(p1, "(20000005,1)", 1);              // node 1: unknown kind 1
  ReadOptions options;
  options.threads = 2;
  auto trace = read_trace({dir.string()}, options);
  fs::remove_all(dir);
  ASSERT_TRUE(trace) << trace.error().message;
  const TraceSummary s = summarise(*trace);
  ASSERT_EQ(s.nodes.size(), 2u);
  const auto& n0 = s.nodes[0].counts.task_time_us;
  const auto& n1 = s.nodes[1].counts.task_time_us;
  EXPECT_EQ(n0[cpu], 10u);
  EXPECT_EQ(n0[gpu], 0u);
  EXPECT_EQ(n0[unattributed], 7u);
  EXPECT_EQ(n1[gpu], 4u);
  EXPECT_EQ(n1[cpu], 3u);
  EXPECT_EQ(n1[utility], 2u);
  EXPECT_EQ(n1[unknown_kind], 1u);
  EXPECT_EQ(n1[unattributed], 0u);
  EXPECT_EQ(s.total.task_time_us[cpu], 13u);
}

}  // namespace
}  // namespace rr::parser
