// What bounds a replay (session/bounds.hpp), on graphs small enough to replay by hand.
#include <gtest/gtest.h>

#include "session/bounds.hpp"
#include "support/replay_fixture.hpp"

namespace rr::session {
namespace {

using testing::replay_lines;
using testing::task;

// Three 10 us tasks (functions 1, 2, 3) on CPU 0 of the bare machine (2 CPUs, traced placement), ready together:
// they end at 10, 20 and 30 us. The path is the last task's 10 us and 20 us of contention for node 0's CPUs.
testing::Replayed three_on_one_cpu() {
  return replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000000", "(20000002,1)"),
                       task(3, "80000000", "(20000003,1)"), "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 10",
                       "Task Time: (20000003,1) 10"});
}

TEST(Bounds, NameTheContendedResourceFirstThenTheFunction) {
  auto r = three_on_one_cpu();
  ASSERT_EQ(r.run.result.makespan_ns, 30000);
  std::vector<RunBound> bounds = find_bounds(r.trace, r.run);
  ASSERT_EQ(bounds.size(), 2u);
  EXPECT_EQ(bounds[0].kind, RunBound::Kind::resource);
  EXPECT_EQ(bounds[0].name, "CPU processors (all nodes)");
  EXPECT_EQ(bounds[0].path_ns, 20000);
  EXPECT_EQ(bounds[0].change, "4 instead of 2 per node");
  EXPECT_EQ(bounds[0].overrides, std::vector<std::string>{"processors.cpu.count=4"});
  EXPECT_TRUE(bounds[0].pool);
  EXPECT_EQ(bounds[1].kind, RunBound::Kind::function);
  EXPECT_EQ(bounds[1].path_ns, 10000);
  EXPECT_EQ(bounds[1].change, "twice as fast");
  EXPECT_FALSE(bounds[1].pool);
}

TEST(Bounds, WhatIfsReplayTheChangeByHand) {
  auto r = three_on_one_cpu();
  std::vector<RunBound> bounds = find_bounds(r.trace, r.run);
  ASSERT_EQ(bounds.size(), 2u);
  ReplaySettings settings;
  run_what_ifs(r.trace, settings, bounds, 2);
  // Four CPUs under pool placement: the three tasks run side by side and end at 10 us.
  ASSERT_TRUE(bounds[0].what_if_ns);
  EXPECT_EQ(*bounds[0].what_if_ns, 10000);
  // The last task's function twice as fast, still on CPU 0: 10 + 10 + 5 us.
  ASSERT_TRUE(bounds[1].what_if_ns);
  EXPECT_EQ(*bounds[1].what_if_ns, 25000);
  EXPECT_TRUE(bounds[1].what_if_error.empty());
}

TEST(Bounds, AtMostThreeAndNoneWithoutContentionOrWork) {
  // One 10 us task alone: its function is the only bound.
  auto one = replay_lines({task(7, "80000000", "(20000001,1)"), "Task Time: (20000001,1) 10"});
  std::vector<RunBound> bounds = find_bounds(one.trace, one.run);
  ASSERT_EQ(bounds.size(), 1u);
  EXPECT_EQ(bounds[0].name, "f7 on CPU");
  EXPECT_EQ(bounds[0].overrides, std::vector<std::string>{"processors.cpu.function_speed.7=2"});
  // Five tasks queued on one CPU: contention and at most two functions.
  std::vector<std::string> lines;
  for (int i = 1; i <= 5; ++i) {
    const std::string finish = "(2000000" + std::to_string(i) + ",1)";
    lines.push_back(task(i, "80000000", finish.c_str()));
    lines.push_back("Task Time: " + finish + " 10");
  }
  auto five = replay_lines(lines);
  EXPECT_LE(find_bounds(five.trace, five.run).size(), kMaxBounds);
}

}  // namespace
}  // namespace rr::session
