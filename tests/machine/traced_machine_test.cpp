// The traced machine: counts per kind per node as logged (per_node where nodes differ), a file the loader reads,
// and a replay that maps every traced processor to a processor of its own.
#include <gtest/gtest.h>

#include <string>

#include "machine_models/machine_loader.hpp"
#include "machine_models/traced_machine.hpp"
#include "session/session.hpp"
#include "session/traced_fit.hpp"
#include "support/replay_fixture.hpp"
#include "support/trace_builder.hpp"

namespace rr::machine {
namespace {

TEST(TracedMachine, CountsPerKindPerNodeAsLogged) {
  // Node 0: 2 CPUs and a utility processor; node 1: 3 CPUs and a GPU.
  auto trace = testing::make_trace({{0,
                                     {"Processor: 80000000 1", "Processor: 80000001 1", "Processor: 80000002 2",
                                      "Processor: 80800000 1", "Processor: 80800001 1", "Processor: 80800002 1",
                                      "Processor: 80800003 0", "Memory: 60000000 1", "Memory: 60800000 1",
                                      "Memory: 60810000 5", "Copy Request: (20000001,1) (0,0) (0,0) 60000000 60800000",
                                      "Copy Size: (20000001,1) 4096"}},
                                    {1, {"Processor: 80000000 1"}}});
  auto loaded = session::load_records(trace, "hand-made", {});
  ASSERT_TRUE(loaded.ok());
  const std::string text = session::fit_traced_machine(*loaded).toml;
  auto m = parse_machine(text, "traced");
  ASSERT_TRUE(m.ok()) << m.error().to_string() << "\n" << text;
  const auto& cpu = m->processor(core::ProcessorKind::cpu);
  EXPECT_EQ(cpu.count_on(0), 2u);
  EXPECT_EQ(cpu.count_on(1), 3u);
  EXPECT_EQ(m->processor(core::ProcessorKind::gpu).count_on(0), 0u);
  EXPECT_EQ(m->processor(core::ProcessorKind::gpu).count_on(1), 1u);
  EXPECT_EQ(m->processor(core::ProcessorKind::utility).count_on(0), 1u);
  EXPECT_EQ(m->processor(core::ProcessorKind::utility).count_on(1), 0u);
  EXPECT_EQ(m->default_copy_bytes, 4096u);  // the median Copy Size (of the graph's copies)
  EXPECT_NE(text.find("default_copy_bytes = 4096   # [T]"), std::string::npos);
  EXPECT_NE(text.find("framebuffer 60810000"), std::string::npos) << "memories seen are listed";
  // Every value the trace does not give is marked as an assumption.
  for (const char* key : {"network]\nlatency_ns", "task_launch_ns", "bandwidth_gbs"})
    EXPECT_NE(text.find(key), std::string::npos) << key;
  std::size_t assumptions = 0;
  for (std::size_t at = text.find("[A]"); at != std::string::npos; at = text.find("[A]", at + 1)) ++assumptions;
  EXPECT_GE(assumptions, 15u);
}

TEST(TracedMachine, ReplayOnTheTracedMachineUsesEveryTracedProcessorOnce) {
  auto r = testing::replay_path(RR_SOURCE_DIR "/data/traces/real/full_circuit_2node_p4_cpu2", kTracedMachine);
  const auto& procs = r.run.map.processors();
  EXPECT_EQ(procs.size(), 8u);  // 2 CPUs and 2 utility processors on each of 2 nodes, no more
  EXPECT_EQ(r.run.model.name, "traced");
  EXPECT_EQ(r.run.result.stuck, 0u);
}

TEST(TracedMachine, PerNodeCountsAreCheckedLikeEveryKey) {
  auto bad = parse_machine(traced_machine_toml(testing::make_trace({{0, {"Processor: 80000000 1"}}}), "x"), "t",
                           {"processors.cpu.per_node=[1, -2]"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("per_node"), std::string::npos) << bad.error().message;
  auto wrong_type = parse_machine(traced_machine_toml(testing::make_trace({{0, {"Processor: 80000000 1"}}}), "x"), "t",
                                  {"processors.cpu.per_node=3"});
  ASSERT_FALSE(wrong_type.ok());
}

}  // namespace
}  // namespace rr::machine
