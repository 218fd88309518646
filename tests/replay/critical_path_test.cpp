// Golden critical paths, one per class of DESIGN §3, and the invariant that the classes add up to the run time.
#include <gtest/gtest.h>

#include "replay/critical_path.hpp"
#include "support/replay_fixture.hpp"

namespace rr::replay {
namespace {

using testing::replay_lines;
using testing::task;

CriticalPath path_of(const testing::Replayed& r) { return critical_path(r.graph(), r.run.map, r.run.model, r.run.result); }

TimeNs cls(const CriticalPath& cp, PathClass c) { return cp.by_class[static_cast<std::size_t>(c)]; }

void expect_adds_up(const CriticalPath& cp, TimeNs makespan) {
  TimeNs sum = 0;
  for (auto t : cp.by_class) {
    EXPECT_GE(t, 0);
    sum += t;
  }
  EXPECT_EQ(sum, makespan);
  EXPECT_EQ(cp.length_ns, makespan);
  EXPECT_LE(cp.lower_bound_ns, makespan);
}

TEST(CriticalPath, ComputeBound) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000000", "(20000002,1)", "(20000001,1)"),
                         "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 20"});
  auto cp = path_of(r);
  expect_adds_up(cp, 30000);
  EXPECT_EQ(cls(cp, PathClass::compute), 30000);
  EXPECT_EQ(cp.by_label.at("compute CPU f1"), 10000);
  EXPECT_EQ(cp.by_label.at("compute CPU f2"), 20000);
  EXPECT_EQ(cp.lower_bound_ns, 30000);
}

TEST(CriticalPath, CopyBound) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), "Task Time: (20000001,1) 1",
                         "Copy Request: (20000002,1) (20000001,1) (0,0) 60000000 60000000", "Copy Size: (20000002,1) 50000",
                         task(2, "80000000", "(20000003,1)", "(20000002,1)"), "Task Time: (20000003,1) 1"});
  auto cp = path_of(r);
  expect_adds_up(cp, 52000);
  EXPECT_EQ(cls(cp, PathClass::copy), 50000);
  EXPECT_EQ(cp.by_label.at("copy system -> system (local)"), 50000);
}

TEST(CriticalPath, LatencyBound) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80800000", "(20000002,1)", "(20000001,1)"),
                         "Task Time: (20000001,1) 1"},
                        {"network.latency_ns=40000"}, {"Task Time: (20000002,1) 1"});
  auto cp = path_of(r);
  expect_adds_up(cp, 42000);
  EXPECT_EQ(cls(cp, PathClass::latency), 40000);
}

TEST(CriticalPath, QueueBound) {
  // Three 10 us tasks on one CPU, ready together: the last one queues 20 us behind the others.
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000000", "(20000002,1)"),
                         task(3, "80000000", "(20000003,1)"), "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 10",
                         "Task Time: (20000003,1) 10"});
  auto cp = path_of(r);
  expect_adds_up(cp, 30000);
  // The path runs back through the previous occupants: all compute, and the bound without queueing is 10 us.
  EXPECT_EQ(cls(cp, PathClass::compute), 30000);
  EXPECT_EQ(cp.lower_bound_ns, 10000);
  // A task ready later than the processor frees shows queueing only for the time it actually waited.
  auto late = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000001", "(20000002,1)"),
                            task(3, "80000000", "(20000003,1)", "(20000002,1)"), "Task Time: (20000001,1) 30",
                            "Task Time: (20000002,1) 10", "Task Time: (20000003,1) 10"});
  auto cp2 = path_of(late);
  expect_adds_up(cp2, 40000);
  EXPECT_EQ(cls(cp2, PathClass::compute), 40000);  // task 3 waited for task 1 (resource), then ran
}

TEST(CriticalPath, IssueBound) {
  // T (30 us) issues A at its end (issue point "end"); A (5 us) is released by the issue.
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000001", "(20000002,1)", "(0,0)", "(20000001,1)"),
                         "Task Time: (20000001,1) 30", "Task Time: (20000002,1) 5"},
                        {"runtime.issue_point=end"});
  auto cp = path_of(r);
  expect_adds_up(cp, 35000);
  EXPECT_EQ(cls(cp, PathClass::issue), 30000);
  EXPECT_EQ(cls(cp, PathClass::compute), 5000);
}

TEST(CriticalPath, RealTracesAddUp) {
  for (const char* name : {"full_ghost_b2_cpu2", "full_circuit_2node_p4_cpu2"}) {
    auto r = testing::replay_real(name);
    auto cp = critical_path(r.graph(), r.run.map, r.run.model, r.run.result);
    expect_adds_up(cp, r.run.result.makespan_ns);
    // Steps tile [0, makespan] without overlap.
    TimeNs at = 0;
    for (const auto& st : cp.steps) {
      EXPECT_GE(st.begin, at) << name;
      at = st.end;
    }
  }
}

}  // namespace
}  // namespace rr::replay
