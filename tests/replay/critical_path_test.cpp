// Golden critical paths, one per class, and the invariant that the classes add up to the run time.
#include <gtest/gtest.h>

#include "replay/critical_path.hpp"
#include "support/critical_path_checks.hpp"
#include "support/replay_fixture.hpp"

namespace rr::replay {
namespace {

using testing::replay_lines;
using testing::task;

CriticalPath path_of(const testing::Replayed& r) { return critical_path(r.graph(), r.run.map, r.run.model, r.run.result); }

TimeNs cls(const CriticalPath& cp, PathClass c) { return cp.by_class[static_cast<std::size_t>(c)]; }

void expect_adds_up(const CriticalPath& cp, TimeNs makespan, const std::string& what = "") {
  testing::expect_tiles(cp, makespan, what);
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
  // The path follows what made each task ready, not the processor's previous occupant: the last task ran 10 us
  // after 20 us of contention for the node's CPUs (by hand: ready at 0, started at 20 us). The bound is 10 us.
  EXPECT_EQ(cls(cp, PathClass::compute), 10000);
  EXPECT_EQ(cls(cp, PathClass::contention), 20000);
  PathResource cpus;
  cpus.type = PathResource::Type::processors;
  cpus.kind = core::ProcessorKind::cpu;
  cpus.node = 0;
  ASSERT_EQ(cp.contention.size(), 1u);
  EXPECT_EQ(cp.contention.at(cpus), 20000);
  EXPECT_EQ(resource_name(cpus), "CPU processors, node 0");
  EXPECT_EQ(cp.by_label.at("contention CPU processors, node 0"), 20000);
  EXPECT_EQ(cp.lower_bound_ns, 10000);
  // Task 3 waits for task 2 (10 us, on the other CPU) and then for task 1 (30 us) to free its CPU: the path is
  // task 2, the event's latency, contention until 30 us, task 3.
  auto late = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000001", "(20000002,1)"),
                            task(3, "80000000", "(20000003,1)", "(20000002,1)"), "Task Time: (20000001,1) 30",
                            "Task Time: (20000002,1) 10", "Task Time: (20000003,1) 10"});
  auto cp2 = path_of(late);
  expect_adds_up(cp2, 40000);
  EXPECT_EQ(cls(cp2, PathClass::compute), 20000);
  EXPECT_GT(cls(cp2, PathClass::contention), 0);
  EXPECT_EQ(cls(cp2, PathClass::contention) + cls(cp2, PathClass::latency), 20000);
  ASSERT_FALSE(cp2.steps.empty());
  EXPECT_EQ(cp2.steps.front().label.rfind("compute CPU", 0), 0u);  // task 2 begins the path
}

// Two 10 us tasks on node 0's two CPUs with one core: each runs at half speed and ends at 20 us (by hand). The
// path is the first task's own 10 us of work and 10 us of contention for the node's core.
TEST(CriticalPath, ASharedCoreIsContention) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000001", "(20000002,1)"),
                         "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 10"},
                        {"node.cores=1"});
  auto cp = path_of(r);
  expect_adds_up(cp, 20000);
  EXPECT_EQ(cls(cp, PathClass::compute), 10000);
  EXPECT_EQ(cls(cp, PathClass::contention), 10000);
  PathResource cores;
  cores.type = PathResource::Type::cores;
  cores.node = 0;
  EXPECT_EQ(cp.contention.at(cores), 10000);
  EXPECT_EQ(resource_name(cores), "cores, node 0");
}

// Without cores, a processor's start-up (5 us) before its first task (10 us) is contention for the node's
// start-ups: 15 us in all.
TEST(CriticalPath, AStartUpIsContention) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), "Task Time: (20000001,1) 10"},
                        {"runtime.processor_start_ns=5000"});
  auto cp = path_of(r);
  expect_adds_up(cp, 15000);
  EXPECT_EQ(cls(cp, PathClass::compute), 10000);
  PathResource start_ups;
  start_ups.type = PathResource::Type::start_ups;
  start_ups.node = 0;
  EXPECT_EQ(cp.contention.at(start_ups), 5000);
  EXPECT_EQ(resource_group_name(start_ups), "processor start-ups (all nodes)");
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

// Hand-computed: with every runtime cost 0, a 100 us task on node 0, a 1 MB copy to node 1 at 1 GB/s (1 ms)
// that an arrival waits on, a barrier phase completed by that arrival, and a 50 us task on node 1 waiting on the
// phase. The path is the two tasks and the copy; the phase and the arrival take no time of their own.
TEST(CriticalPath, BarrierPhaseIsChargedToWhatFedItsLastArrival) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), "Task Time: (20000001,1) 100",
                         "Copy Request: (20000002,1) (20000001,1) (0,0) 60000000 60800000", "Copy Size: (20000002,1) 1000000",
                         "Barrier Creation: 20000009 1", "Barrier Arrive: (20000009,1) (20000002,1) (0,0) 1"},
                        {}, {task(2, "80800000", "(20800001,1)", "(20000009,1)"), "Task Time: (20800001,1) 50"});
  auto cp = path_of(r);
  expect_adds_up(cp, 1150000);
  EXPECT_EQ(cls(cp, PathClass::compute), 150000);
  EXPECT_EQ(cls(cp, PathClass::copy), 1000000);
  EXPECT_EQ(cls(cp, PathClass::runtime), 0);
  EXPECT_EQ(cp.by_label.at("copy system -> system (remote)"), 1000000);
}

// Hand-computed: a 30 us task that issues a 5 us task and then waits 10 us on an event no record produces.
// Busy 30 − 10 = 20 us; its two actions sit at 1/3 and 2/3 of it (6.667 and 13.333 us). Measured: the wait
// lasts 10 us, so the task ends at 13.333 + 10 + 6.667 = 30 us, as traced. Instant: it ends at 20 us.
TEST(CriticalPath, AWaitOnAnUnloggedEventKeepsItsMeasuredTime) {
  const std::vector<std::string> lines = {task(1, "80000000", "(20000001,1)"), task(2, "80000001", "(20000002,1)", "(0,0)", "(20000001,1)"),
                                          "Task Wait: (20000001,1) (20000077,1) 10", "Task Time: (20000001,1) 30",
                                          "Task Time: (20000002,1) 5"};
  auto measured = replay_lines(lines);
  EXPECT_EQ(measured.run.result.makespan_ns, 30000);
  EXPECT_EQ(measured.run.result.measured_waits, 1u);
  EXPECT_EQ(measured.run.result.measured_wait_ns, 10000);
  auto cp = path_of(measured);
  expect_adds_up(cp, 30000);
  EXPECT_EQ(cls(cp, PathClass::wait), 10000);
  EXPECT_EQ(cls(cp, PathClass::compute), 20000);
  auto instant = replay_lines(lines, {"runtime.wait_frees_processor=true"});
  session::ReplaySettings settings;
  settings.engine.rules.unlogged = UnloggedTime::instant;
  auto again = session::replay_on(instant.trace, instant.run.model, settings);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->result.makespan_ns, 20000);
  EXPECT_EQ(again->result.measured_waits, 0u);
  expect_adds_up(*again->critical, 20000);
}

// Tasks without Task Time did not finish in the traced run: replayed, but outside the estimate and its path.
TEST(CriticalPath, TasksWithoutTaskTimeAreLeftOutOfTheEstimate) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), "Task Time: (20000001,1) 10",
                         task(4, "80000001", "(20000002,1)", "(20000001,1)"),  // no Task Time: still pending at exit
                         task(5, "80000001", "(20000003,1)", "(20000002,1)"), "Task Time: (20000003,1) 7"},
                        {"runtime.task_launch_ns=1000"});
  EXPECT_EQ(r.run.result.tasks_without_time, 1u);
  EXPECT_EQ(r.run.result.after_untimed, 1u);
  EXPECT_EQ(r.run.result.makespan_ns, 11000);   // the first task only (launch 1 us + 10 us)
  EXPECT_EQ(r.run.result.last_end_ns, 20000);   // with the others: 11 + 1 + 0, then + 1 + 7
  expect_adds_up(path_of(r), 11000);
}

TEST(CriticalPath, BundledTracesAddUp) {
  for (const char* name : {"real/full_ghost_b2_cpu2", "real/full_circuit_2node_p4_cpu2", "s3d/dme_all_2n",
                           "s3d/dme_all_4n", "s3d/dme_mixed_2n", "s3d/dme_mixed_4n"}) {
    auto r = testing::replay_path(std::string(RR_SOURCE_DIR "/data/traces/") + name,
                                  RR_SOURCE_DIR "/data/machines/titan.toml");
    expect_adds_up(*r.run.critical, r.run.result.makespan_ns, name);
  }
}

}  // namespace
}  // namespace rr::replay
