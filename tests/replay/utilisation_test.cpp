// Utilisation per processor kind and node, over all model processors and over the ones the mapping uses,
// on a hand-computed replay; and the critical path's work steps listed once.
#include <gtest/gtest.h>

#include "replay/critical_operations.hpp"
#include "replay/utilisation.hpp"
#include "support/replay_fixture.hpp"

namespace rr::replay {
namespace {

using testing::replay_lines;
using testing::task;

constexpr std::size_t kGpu = 0, kCpu = 1, kUtility = 2;

// The fixture's machine: 1 GPU, 2 CPUs, 1 utility processor a node; the trace has node 0's two CPUs and its
// GPU, and one CPU on node 1. A 10 us task on node 0's first CPU, a 30 us one on node 1's CPU: 30 us in all.
TEST(Utilisation, OverTheModelProcessorsAndOverTheOnesTheMappingUses) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80800000", "(20000002,1)"),
                         "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 30"});
  ASSERT_EQ(r.run.result.makespan_ns, 30000);
  const Utilisation u = utilisation(r.run.map, r.run.result);
  const KindUse& cpu = u.total[kCpu];
  EXPECT_EQ(cpu.processors, 4u);
  EXPECT_EQ(cpu.used, 3u);
  EXPECT_EQ(cpu.busy_ns, 40000);
  EXPECT_EQ(cpu.segments, 2u);
  EXPECT_DOUBLE_EQ(cpu.utilisation_all(30000), 40.0 / (30 * 4));
  EXPECT_DOUBLE_EQ(cpu.utilisation_used(30000), 40.0 / (30 * 3));
  EXPECT_EQ(u.total[kGpu].processors, 2u);
  EXPECT_EQ(u.total[kGpu].used, 1u);
  EXPECT_DOUBLE_EQ(u.total[kGpu].utilisation_used(30000), 0.0);
  EXPECT_EQ(u.total[kUtility].used, 0u);
  EXPECT_DOUBLE_EQ(u.total[kUtility].utilisation_used(30000), 0.0);  // none used: 0, not a division by 0
  ASSERT_EQ(u.by_node.size(), 2u);
  EXPECT_EQ(u.by_node.at(1)[kCpu].used, 1u);
  EXPECT_DOUBLE_EQ(u.by_node.at(1)[kCpu].utilisation_used(30000), 1.0);
  EXPECT_DOUBLE_EQ(u.by_node.at(1)[kCpu].utilisation_all(30000), 0.5);
  EXPECT_DOUBLE_EQ(u.by_node.at(0)[kCpu].utilisation_used(30000), 10.0 / (30 * 2));
}

TEST(Utilisation, FoldedNodesShareTheirModelNodesProcessors) {
  // Folded onto one node, node 1's CPU takes the model node's next CPU after node 0's two: index 2 mod 2 = 0.
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80800000", "(20000002,1)"),
                         "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 30"},
                        {}, {}, 1);
  const Utilisation u = utilisation(r.run.map, r.run.result);
  EXPECT_EQ(u.total[kCpu].processors, 2u);
  EXPECT_EQ(u.total[kCpu].used, 2u);
  EXPECT_EQ(r.run.result.makespan_ns, 40000);  // both tasks on model CPU 0, one after the other
  EXPECT_DOUBLE_EQ(u.total[kCpu].utilisation_used(40000), 40.0 / (40 * 2));
}

TEST(CriticalOperations, ComputeAndCopyStepsInPathOrderEachOperationOnce) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000000", "(20000002,1)", "(20000001,1)"),
                         "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 20"});
  ASSERT_TRUE(r.run.critical);
  const auto steps = work_steps(*r.run.critical);
  ASSERT_FALSE(steps.empty());
  for (const auto* s : steps) EXPECT_TRUE(s->cls == PathClass::compute || s->cls == PathClass::copy);
  EXPECT_EQ(critical_operations(*r.run.critical),
            (std::vector<std::string>{"(20000001,1)", "(20000002,1)"}));
}

}  // namespace
}  // namespace rr::replay
