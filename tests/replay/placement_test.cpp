// Placement policies, function moves with the copies they imply, and node maps: hand-computed cases on the bare
// machine (no runtime costs; local channel 1 GB/s, no latency).
#include <gtest/gtest.h>

#include "support/critical_path_checks.hpp"
#include "support/replay_fixture.hpp"
#include "support/trace_builder.hpp"

namespace rr::replay {
namespace {

using testing::task;

// Replays lines of node 0 (after the bare processors) with a mapping.
testing::Replayed replay_mapped(std::vector<std::string> lines, machine::MappingSpec mapping,
                                std::vector<std::string> overrides = {}) {
  std::vector<std::string> node0 = testing::kProcs;
  node0.push_back("Memory: 60010000 5");  // node 0's GPU framebuffer
  node0.insert(node0.end(), lines.begin(), lines.end());
  auto model = machine::parse_machine(testing::kBareMachine, "bare.toml", overrides);
  EXPECT_TRUE(model.ok());
  auto trace = session::load_records(testing::make_trace({{0, node0}}), "t", {});
  EXPECT_TRUE(trace.ok());
  session::ReplaySettings settings;
  settings.mapping = std::move(mapping);
  auto run = session::replay_on(*trace, *model, settings);
  EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().to_string());
  return {std::move(*trace), std::move(*run)};
}

machine::MappingSpec placed(machine::Placement p, std::vector<std::string> moves = {}) {
  machine::MappingSpec m;
  m.placement = p;
  for (const auto& text : moves) m.moves.push_back(*machine::parse_move(text));
  return m;
}

std::vector<std::string> three_tasks_on_one_cpu() {
  return {task(5, "80000000", "(20000001,1)"), task(5, "80000000", "(20000002,1)"), task(5, "80000000", "(20000003,1)"),
          "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 10", "Task Time: (20000003,1) 10"};
}

// Three 10 us tasks traced on one CPU. traced: they queue on its model processor (30 us). pool: two CPUs serve
// them (20 us); three CPUs, 10 us.
TEST(Placement, PoolRunsATaskOnAnyFreeProcessorOfItsKind) {
  EXPECT_EQ(replay_mapped(three_tasks_on_one_cpu(), placed(machine::Placement::traced)).run.result.makespan_ns, 30000);
  EXPECT_EQ(replay_mapped(three_tasks_on_one_cpu(), placed(machine::Placement::pool)).run.result.makespan_ns, 20000);
  auto three = replay_mapped(three_tasks_on_one_cpu(), placed(machine::Placement::pool), {"processors.cpu.count=3"});
  EXPECT_EQ(three.run.result.makespan_ns, 10000);
  testing::expect_tiles(*three.run.critical, 10000);
}

// Four 10 us tasks of function 5 traced on a CPU; the model has one CPU and one GPU; function 5 may move to the
// GPU at 0.4 of its time (4 us). eft, in vertex order: t1 GPU (4), t2 GPU (8 < CPU 10), t3 CPU (10 < GPU 12),
// t4 GPU (12 < CPU 20): 12 us. pool with the move: all four on the GPU, 16 us. No move: all on the CPU, 40 us.
TEST(Placement, EarliestFinishTimeAcrossKinds) {
  std::vector<std::string> lines = three_tasks_on_one_cpu();
  lines.push_back(task(5, "80000000", "(20000004,1)"));
  lines.push_back("Task Time: (20000004,1) 10");
  const std::vector<std::string> one_cpu = {"processors.cpu.count=1"};
  auto eft = replay_mapped(lines, placed(machine::Placement::eft, {"5=gpu:0.4"}), one_cpu);
  EXPECT_EQ(eft.run.result.makespan_ns, 12000);
  EXPECT_EQ(eft.end_of(graph::OpKind::task, 0x20000003, 1), 10000);  // the one on the CPU
  testing::expect_tiles(*eft.run.critical, 12000);
  EXPECT_EQ(replay_mapped(lines, placed(machine::Placement::pool, {"5=gpu:0.4"}), one_cpu).run.result.makespan_ns, 16000);
  EXPECT_EQ(replay_mapped(lines, placed(machine::Placement::eft), one_cpu).run.result.makespan_ns, 40000);
  // Without a factor a moved task keeps its traced busy time, divided by the new kind's speed.
  EXPECT_EQ(replay_mapped(lines, placed(machine::Placement::pool, {"5=gpu"}), {"processors.gpu.speed=4"}).run.result.makespan_ns,
            10000);
}

// GPU task G (10 us) -> copy to host (1 MB: 1 ms) -> CPU task A (function 7, 20 us) -> copy back (1 ms) -> GPU
// task H (10 us): 2040 us as traced. Function 7 moved to the GPU at half its time: both copies now deliver from
// the framebuffer to the framebuffer, so they are removed, and the run is 10 + 10 + 10 = 30 us.
TEST(Placement, CopiesFollowAMovedFunction) {
  const std::vector<std::string> lines = {
      task(6, "80000002", "(20000001,1)"), "Task Time: (20000001,1) 10",
      "Copy Request: (20000002,1) (20000001,1) (0,0) 60010000 60000000", "Copy Size: (20000002,1) 1000000",
      task(7, "80000000", "(20000003,1)", "(20000002,1)"), "Task Time: (20000003,1) 20",
      "Copy Request: (20000004,1) (20000003,1) (0,0) 60000000 60010000", "Copy Size: (20000004,1) 1000000",
      task(8, "80000002", "(20000005,1)", "(20000004,1)"), "Task Time: (20000005,1) 10"};
  auto traced = replay_mapped(lines, placed(machine::Placement::traced));
  EXPECT_EQ(traced.run.result.makespan_ns, 2040000);
  auto moved = replay_mapped(lines, placed(machine::Placement::traced, {"7=gpu:0.5"}));
  EXPECT_EQ(moved.run.result.makespan_ns, 30000);
  EXPECT_EQ(moved.run.result.copies_retargeted, 2u);
  EXPECT_EQ(moved.run.result.copies_removed, 2u);
  testing::expect_tiles(*moved.run.critical, 30000);
}

// CPU task A (function 7, 20 us) -> CPU task B (function 9, 5 us), a dependency with no copy: both in host memory.
// A moved to the GPU at half its time: B now needs A's data from the framebuffer, an implied copy of
// default_copy_bytes (65536 B at 1 GB/s: 65.536 us). 10 + 65.536 + 5 us.
TEST(Placement, AMovedTaskImpliesACopyOfItsDataToADependentInAnotherMemory) {
  const std::vector<std::string> lines = {task(7, "80000000", "(20000001,1)"), "Task Time: (20000001,1) 20",
                                          task(9, "80000001", "(20000002,1)", "(20000001,1)"), "Task Time: (20000002,1) 5"};
  EXPECT_EQ(replay_mapped(lines, placed(machine::Placement::traced)).run.result.makespan_ns, 25000);
  auto moved = replay_mapped(lines, placed(machine::Placement::traced, {"7=gpu:0.5"}));
  EXPECT_EQ(moved.run.result.makespan_ns, 10000 + 65536 + 5000);
  EXPECT_EQ(moved.run.result.implied_copies, 1u);
  EXPECT_EQ(moved.run.result.implied_copy_ns, 65536);
  auto cp = *moved.run.critical;
  testing::expect_tiles(cp, 80536);
  EXPECT_EQ(cp.by_label.at("copy implied by a moved function"), 65536);
}

// Four traced nodes on two model nodes: cyclic pairs 0,2 and 1,3; block 0,1 and 2,3; a list says it all.
TEST(Placement, NodeMaps) {
  auto trace = testing::make_trace({{0, {"Processor: 80000000 1", "Processor: 80800000 1", "Processor: 81000000 1",
                                         "Processor: 81800000 1"}}});
  auto model = machine::parse_machine(testing::kBareMachine, "bare.toml");
  ASSERT_TRUE(model.ok());
  auto folded = [&](machine::NodeMapRule rule, std::vector<std::uint32_t> list = {}) {
    machine::MappingSpec m;
    m.fold = list.empty() ? 2 : 0;
    m.nodes.rule = rule;
    m.nodes.list = std::move(list);
    auto map = MachineMap::build(trace, *model, m);
    EXPECT_TRUE(map.ok());
    std::vector<std::uint32_t> out;
    for (std::uint32_t n = 0; n < 4; ++n) out.push_back(map->fold(n));
    return out;
  };
  EXPECT_EQ(folded(machine::NodeMapRule::cyclic), (std::vector<std::uint32_t>{0, 1, 0, 1}));
  EXPECT_EQ(folded(machine::NodeMapRule::block), (std::vector<std::uint32_t>{0, 0, 1, 1}));
  EXPECT_EQ(folded(machine::NodeMapRule::list, {1, 0, 0, 2}), (std::vector<std::uint32_t>{1, 0, 0, 2}));
  machine::MappingSpec short_list;
  short_list.nodes = {machine::NodeMapRule::list, {0, 1}, "nodes.toml"};
  auto bad = MachineMap::build(trace, *model, short_list);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("lists 2 traced node(s); the trace has 4"), std::string::npos);
}

}  // namespace
}  // namespace rr::replay
