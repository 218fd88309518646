// Golden replays of tiny hand-computed DAGs (one per replay rule, docs/replay.md) and properties on larger graphs.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "graph/graph_algorithms.hpp"
#include "graph/graph_builder.hpp"
#include "machine_models/machine_loader.hpp"
#include "replay/replay_engine.hpp"
#include "replay/task_timing.hpp"
#include "support/replay_fixture.hpp"

namespace rr::replay {
namespace {

using graph::OpKind;
using graph::VertexId;
using testing::kBareMachine;
using testing::kProcs;
using testing::replay_lines;
using testing::task;

TEST(Replay, ChainAddsBusyTimesAndTriggerCosts) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000000", "(20000002,1)", "(20000001,1)"),
                         task(3, "80000000", "(20000003,1)", "(20000002,1)"), "Task Time: (20000001,1) 10",
                         "Task Time: (20000002,1) 20", "Task Time: (20000003,1) 30"},
                        {"runtime.trigger_local_ns=1000"});
  EXPECT_EQ(r.run.result.makespan_ns, 60000 + 2000);
  EXPECT_EQ(r.end_of(OpKind::task, 0x20000002, 1), 10000 + 1000 + 20000);
  EXPECT_EQ(r.run.result.operations, 3u);
  EXPECT_EQ(r.run.result.stuck, 0u);
}

TEST(Replay, ForkJoinWaitsForTheSlowerBranchAndTheMergeCost) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000001", "(20000002,1)"),
                         "Event Merge: (20000003,1) 2", "Event Precondition: (20000003,1) (20000001,1)",
                         "Event Precondition: (20000003,1) (20000002,1)",
                         task(3, "80000000", "(20000004,1)", "(20000003,1)"), "Task Time: (20000001,1) 10",
                         "Task Time: (20000002,1) 20", "Task Time: (20000004,1) 5"},
                        {"runtime.merge_ns=300"});
  EXPECT_EQ(r.end_of(OpKind::merge, 0x20000003, 1), 20000 + 300);
  EXPECT_EQ(r.run.result.makespan_ns, 20000 + 300 + 5000);
}

TEST(Replay, ContentionRunsHighestPriorityThenEarliestThenLowestId) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)", "(0,0)", "(0,0)", 0),
                         task(2, "80000000", "(20000002,1)", "(0,0)", "(0,0)", 5),
                         task(3, "80000000", "(20000003,1)", "(0,0)", "(0,0)", 5), "Task Time: (20000001,1) 10",
                         "Task Time: (20000002,1) 10", "Task Time: (20000003,1) 10"});
  EXPECT_EQ(r.end_of(OpKind::task, 0x20000002, 1), 10000);
  EXPECT_EQ(r.end_of(OpKind::task, 0x20000003, 1), 20000);
  EXPECT_EQ(r.end_of(OpKind::task, 0x20000001, 1), 30000);
  EXPECT_EQ(r.run.result.processors[1].busy_ns, 30000);  // model processors: node 0's GPU, then its CPUs
}

// T (CPU 0, priority 1): 100 us with a 60 us wait, so 40 us busy; it issues A (CPU 1, 50 us) as
// action 0 of 2, then waits for A as action 1. B (CPU 0, priority 0, 30 us) is ready at t=0.
std::vector<std::string> wait_scenario() {
  return {task(1, "80000000", "(20000001,1)", "(0,0)", "(0,0)", 1),
          task(2, "80000000", "(20000003,1)", "(0,0)", "(0,0)", 0),
          task(3, "80000001", "(20000002,1)", "(0,0)", "(20000001,1)", 0),
          "Task Wait: (20000001,1) (20000002,1) 60",
          "Task Time: (20000001,1) 100",
          "Task Time: (20000002,1) 50",
          "Task Time: (20000003,1) 30"};
}

TEST(Replay, TaskWaitThatFreesTheProcessorLetsOtherWorkRun) {
  auto r = replay_lines(wait_scenario(), {"runtime.wait_frees_processor=true"});
  // Busy offsets: A issued at 40000/3 = 13333 ns, the wait at 2*40000/3 = 26666 ns.
  EXPECT_EQ(r.ready_of(OpKind::task, 0x20000002, 1), 13333);
  EXPECT_EQ(r.end_of(OpKind::task, 0x20000002, 1), 63333);
  EXPECT_EQ(r.end_of(OpKind::task, 0x20000003, 1), 26666 + 30000);  // B ran during the wait
  EXPECT_EQ(r.end_of(OpKind::task, 0x20000001, 1), 26666);  // T's first segment ends at its wait
  EXPECT_EQ(r.end_of(OpKind::task_resume, 0x20000001, 1), 63333 + (40000 - 26666));
  EXPECT_EQ(r.run.result.makespan_ns, 76667);
}

TEST(Replay, TaskWaitThatHoldsTheProcessorDelaysOtherWork) {
  auto r = replay_lines(wait_scenario(), {"runtime.wait_frees_processor=false"});
  EXPECT_EQ(r.end_of(OpKind::task_resume, 0x20000001, 1), 76667);
  EXPECT_EQ(r.end_of(OpKind::task, 0x20000003, 1), 76667 + 30000);  // B waited for T to finish
  EXPECT_EQ(r.run.result.makespan_ns, 106667);
}

TEST(Replay, CopiesShareChannelLanes) {
  std::vector<std::string> copies = {"Copy Request: (20000001,1) (0,0) (0,0) 60000000 60000000",
                                     "Copy Request: (20000002,1) (0,0) (0,0) 60000000 60000000",
                                     "Copy Size: (20000001,1) 1000", "Copy Size: (20000002,1) 1000"};
  auto one_lane = replay_lines(copies, {"channels.local.lanes=1"});
  EXPECT_EQ(one_lane.end_of(OpKind::copy, 0x20000001, 1), 1000);
  EXPECT_EQ(one_lane.end_of(OpKind::copy, 0x20000002, 1), 2000);
  auto two_lanes = replay_lines(copies, {"channels.local.lanes=2", "channels.local.latency_ns=500"});
  EXPECT_EQ(two_lanes.end_of(OpKind::copy, 0x20000001, 1), 1500);
  EXPECT_EQ(two_lanes.end_of(OpKind::copy, 0x20000002, 1), 1500);
  ASSERT_EQ(two_lanes.run.result.paths.size(), 1u);
  EXPECT_EQ(two_lanes.run.result.paths.begin()->second.bytes, 2000u);
}

TEST(Replay, RemoteCopyUsesTheNetworkPathAndDefaultSize) {
  auto r = replay_lines({"Copy Request: (20000001,1) (0,0) (0,0) 60000000 60800000"},
                        {"channels.net.latency_ns=700", "runtime.default_copy_bytes=300"});
  EXPECT_EQ(r.end_of(OpKind::copy, 0x20000001, 1), 1000);
  EXPECT_EQ(r.run.result.copies_default_size, 1u);
  EXPECT_EQ(r.run.result.paths.begin()->first, "system -> system (remote)");
}

TEST(Replay, BarrierPhasesCountAltersAndFireInOrder) {
  auto r = replay_lines({"Barrier Creation: 20000009 1", task(1, "80000000", "(20000001,1)"),
                         task(2, "80000001", "(20000002,1)"), "Barrier Alter: (20000009,1) (0,0) 1",
                         "Barrier Arrive: (20000009,1) (20000001,1) (0,0) 1",
                         "Barrier Arrive: (20000009,1) (20000002,1) (0,0) 1",
                         "Barrier Arrive: (20000009,2) (0,0) (0,0) 1",
                         task(3, "80000000", "(20000003,1)", "(20000009,2)"), "Task Time: (20000001,1) 10",
                         "Task Time: (20000002,1) 30", "Task Time: (20000003,1) 1"},
                        {"runtime.barrier_arrival_ns=100"});
  // Phase 1 needs 1 + 1 (Alter) arrivals: the second lands at 30 us + 100 ns.
  EXPECT_EQ(r.end_of(OpKind::barrier_phase, 0x20000009, 1), 30100);
  // Phase 2's only arrival took effect at 100 ns, but a phase never fires before the previous one.
  EXPECT_EQ(r.end_of(OpKind::barrier_phase, 0x20000009, 2), 30100);
  EXPECT_EQ(r.run.result.makespan_ns, 31100);
}

TEST(Replay, CrossNodeEventsPayTheNetworkLatency) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80800000", "(20000002,1)", "(20000001,1)"),
                         "Task Time: (20000001,1) 10"},
                        {"network.latency_ns=5000", "runtime.trigger_remote_ns=200", "runtime.trigger_local_ns=7"},
                        {"Processor: 80000000 1", "Processor: 80800000 1", "Task Time: (20000002,1) 10"});
  EXPECT_EQ(r.ready_of(OpKind::task, 0x20000002, 1), 10000 + 5000 + 200);
  EXPECT_EQ(r.run.result.makespan_ns, 25200);
}

// T (30 us busy on CPU 0) issues A and B (on CPU 1 and the GPU) as actions 0 and 1 of 2.
std::vector<std::string> issue_scenario() {
  return {task(1, "80000000", "(20000001,1)"), task(2, "80000001", "(20000002,1)", "(0,0)", "(20000001,1)"),
          task(3, "80000002", "(20000003,1)", "(0,0)", "(20000001,1)"), "Task Time: (20000001,1) 30",
          "Task Time: (20000002,1) 1", "Task Time: (20000003,1) 1"};
}

TEST(Replay, IssuePointRules) {
  auto interpolate = replay_lines(issue_scenario(), {"runtime.issue_point=\"interpolate\""});
  EXPECT_EQ(interpolate.ready_of(OpKind::task, 0x20000002, 1), 10000);
  EXPECT_EQ(interpolate.ready_of(OpKind::task, 0x20000003, 1), 20000);
  auto start = replay_lines(issue_scenario(), {"runtime.issue_point=start"});
  EXPECT_EQ(start.ready_of(OpKind::task, 0x20000002, 1), 0);
  EXPECT_EQ(start.ready_of(OpKind::task, 0x20000003, 1), 0);
  auto end = replay_lines(issue_scenario(), {"runtime.issue_point=end"});
  EXPECT_EQ(end.ready_of(OpKind::task, 0x20000002, 1), 30000);
  EXPECT_EQ(end.ready_of(OpKind::task, 0x20000003, 1), 30000);
  EXPECT_EQ(end.run.result.makespan_ns, 31000);
}

TEST(Replay, StuckBarrierIsReportedAndTheReplayEnds) {
  auto r = replay_lines({"Barrier Creation: 20000009 2", "Barrier Arrive: (20000009,1) (0,0) (0,0) 1",
                         task(1, "80000000", "(20000001,1)", "(20000009,1)"), "Task Time: (20000001,1) 5",
                         task(2, "80000000", "(20000002,1)"), "Task Time: (20000002,1) 7"});
  EXPECT_EQ(r.run.result.stuck, 2u);  // the phase and the task behind it
  EXPECT_EQ(r.run.result.makespan_ns, 7000);
  ASSERT_FALSE(r.run.result.stuck_examples.empty());
  bool named = false;
  for (const auto& s : r.run.result.stuck_examples) named |= s.reason.find("needs 2 arrivals, got 1") != std::string::npos;
  EXPECT_TRUE(named);
}

// A stuck operation names the input that never came: an input other than its issue first (the phase it
// waits on), its issuer only when nothing else holds it, whatever order the graph lists its in-edges in.
TEST(Replay, AStuckOperationNamesTheInputThatNeverCameBeforeItsIssuer) {
  auto r = replay_lines({"Barrier Creation: 20000009 2", "Barrier Arrive: (20000009,1) (0,0) (0,0) 1",
                         task(1, "80000000", "(20000001,1)", "(20000009,1)"), "Task Time: (20000001,1) 5",
                         task(2, "80000000", "(20000002,1)", "(20000009,1)", "(20000001,1)"), "Task Time: (20000002,1) 7",
                         task(3, "80000000", "(20000003,1)", "(0,0)", "(20000001,1)"), "Task Time: (20000003,1) 9"});
  EXPECT_EQ(r.run.result.stuck, 4u);  // the phase, the task behind it and the two it would have issued
  std::map<std::string, std::string> reason;
  for (const auto& s : r.run.result.stuck_examples) reason[s.reason.substr(0, s.reason.find(':'))] = s.reason;
  ASSERT_EQ(reason.count("task (20000002,1)"), 1u);
  EXPECT_NE(reason["task (20000002,1)"].find("waits on barrier_phase (20000009,1) (precondition), which never completed"),
            std::string::npos) << reason["task (20000002,1)"];
  ASSERT_EQ(reason.count("task (20000003,1)"), 1u);
  EXPECT_NE(reason["task (20000003,1)"].find("waits on task (20000001,1) (issue), which never completed"), std::string::npos)
      << reason["task (20000003,1)"];
  EXPECT_FALSE(r.graph().reverse_built());  // the examples' in-edges come from one pass along the forward edges
  // Task 1 never started, so it issued nothing: no issue time for what it would have issued.
  const VertexId issuer = r.vertex_of(OpKind::task, 0x20000001, 1), issued = r.vertex_of(OpKind::task, 0x20000003, 1);
  EXPECT_EQ(issue_time(r.graph(), r.run.map, r.run.model, r.result(), issuer, issued), kNever);
}

// Loading, building and replaying a trace (critical path included) never derive the graph's reverse CSR: it
// would add 5.6 bytes per record to a replay's peak.
TEST(Replay, AReplayAndItsCriticalPathLeaveTheReverseCsrUnbuilt) {
  for (const char* name : {"full_circuit_2node_p4_cpu2", "full_ghost_b2_cpu2"}) {
    auto r = testing::replay_real(name);
    ASSERT_TRUE(r.run.critical.has_value()) << name;
    EXPECT_FALSE(r.graph().reverse_built()) << name;
    r.graph().predecessors(0);  // the first caller derives it
    EXPECT_TRUE(r.graph().reverse_built()) << name;
  }
}

// A model without a kind the trace has is fine until a task needs it; then the replay fails naming the kind.
// The result keeps waits and runs in 32 bits and pending inputs in 16 (OperationRecords); past
// those limits the side tables take over. A 5 s task (run over 2^32 ns), a task queued behind it for 5 s (wait
// over 2^32 ns), and a merge of 70,000 inputs (pending count over 2^16), all on one processor, by hand:
// T1 0..5 s; T2 ready at 0, starts at 5 s, ends 10 us later; the merge fires when T1's 70,000 inputs are in, at
// 5 s; T3 waits on it and runs 20 us after T2.
TEST(Replay, WaitsAndRunsPast32BitsAndInputsPast16BitsAreKeptWhole) {
  std::vector<std::string> lines{task(1, "80000001", "(20000001,1)", "(0,0)", "(0,0)", 5),
                                 task(2, "80000001", "(20000002,1)", "(0,0)", "(0,0)", 0),
                                 "Event Merge: (20000003,1) 70000"};
  for (int i = 0; i < 70000; ++i) lines.push_back("Event Precondition: (20000003,1) (20000001,1)");
  lines.push_back(task(3, "80000001", "(20000004,1)", "(20000003,1)", "(0,0)", 0));
  lines.push_back("Task Time: (20000001,1) 5000000");
  lines.push_back("Task Time: (20000002,1) 10");
  lines.push_back("Task Time: (20000004,1) 20");
  auto r = replay_lines(lines, {"processors.cpu.count=1"});
  const ReplayResult& res = r.run.result;
  const TimeNs five_s = 5'000'000'000;
  const VertexId t1 = r.vertex_of(OpKind::task, 0x20000001, 1), t2 = r.vertex_of(OpKind::task, 0x20000002, 1);
  const VertexId merge = r.vertex_of(OpKind::merge, 0x20000003, 1), t3 = r.vertex_of(OpKind::task, 0x20000004, 1);
  EXPECT_EQ(res.start(t1), 0);
  EXPECT_EQ(res.end(t1), five_s);
  EXPECT_EQ(res.ready(t2), 0);
  EXPECT_EQ(res.start(t2), five_s);
  EXPECT_EQ(res.end(t2), five_s + 10'000);
  EXPECT_EQ(res.ready(merge), five_s);
  EXPECT_EQ(res.end(merge), five_s);
  EXPECT_EQ(res.ready(t3), five_s);
  EXPECT_EQ(res.start(t3), five_s + 10'000);
  EXPECT_EQ(res.end(t3), five_s + 30'000);
  EXPECT_EQ(res.makespan_ns, five_s + 30'000);
  EXPECT_EQ(res.stuck, 0u);
  ASSERT_TRUE(r.run.critical.has_value());
  EXPECT_EQ(r.run.critical->lower_bound_ns, five_s + 20'000);  // T1, the merge, T3: no queueing
}

TEST(Replay, ModelWithoutAProcessorKindIsAnErrorNamingIt) {
  auto model = machine::parse_machine(kBareMachine, "bare.toml", {"processors.gpu.count=0"});
  ASSERT_TRUE(model.ok());
  auto cpu_only = testing::make_trace({{0, kProcs}, {0, {task(5, "80000000", "(20000001,1)"), "Task Time: (20000001,1) 3"}}});
  auto fine = session::load_records(std::move(cpu_only), "t", {});
  ASSERT_TRUE(fine.ok());
  EXPECT_TRUE(session::replay_on(*fine, *model, {}).ok());
  auto with_gpu = testing::make_trace({{0, kProcs}, {0, {task(5, "80000002", "(20000001,1)"), "Task Time: (20000001,1) 3"}}});
  auto trace = session::load_records(std::move(with_gpu), "t", {});
  ASSERT_TRUE(trace.ok());
  auto run = session::replay_on(*trace, *model, {});
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.error().message.find("needs a GPU processor"), std::string::npos) << run.error().message;
  EXPECT_NE(run.error().message.find("no GPU processor on model node 0"), std::string::npos) << run.error().message;
}

// A random DAG of tasks, each on its own CPU, preconditions on earlier tasks (directly or through merges).
std::vector<std::string> random_dag(std::uint64_t seed, int tasks, std::vector<std::string>* procs) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> lines;
  char buf[160];
  int next_event = 1;
  std::vector<int> finished;
  for (int t = 0; t < tasks; ++t) {
    std::snprintf(buf, sizeof buf, "Processor: %x 1", 0x80000000u + t);
    procs->push_back(buf);
    std::string pre = "(0,0)";
    if (!finished.empty() && rng() % 4 != 0) {
      int inputs = 1 + static_cast<int>(rng() % 3);
      if (inputs == 1) {
        std::snprintf(buf, sizeof buf, "(%x,1)", 0x20000000u + finished[rng() % finished.size()]);
        pre = buf;
      } else {
        int merged = next_event++;
        std::snprintf(buf, sizeof buf, "Event Merge: (%x,1) %d", 0x20000000u + merged, inputs);
        lines.push_back(buf);
        for (int i = 0; i < inputs; ++i) {
          std::snprintf(buf, sizeof buf, "Event Precondition: (%x,1) (%x,1)", 0x20000000u + merged,
                        0x20000000u + finished[rng() % finished.size()]);
          lines.push_back(buf);
        }
        std::snprintf(buf, sizeof buf, "(%x,1)", 0x20000000u + merged);
        pre = buf;
      }
    }
    int finish = next_event++;
    std::snprintf(buf, sizeof buf, "Task Request: 5 %x (%x,1) %s (0,0) 0 (nil) 0", 0x80000000u + t,
                  0x20000000u + finish, pre.c_str());
    lines.push_back(buf);
    std::snprintf(buf, sizeof buf, "Task Time: (%x,1) %d", 0x20000000u + finish, 1 + static_cast<int>(rng() % 1000));
    lines.push_back(buf);
    finished.push_back(finish);
  }
  return lines;
}

TEST(ReplayProperty, WithoutCostsOrContentionTheEstimateIsTheLongestPath) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::vector<std::string> procs;
    auto lines = random_dag(seed, 60, &procs);
    procs.insert(procs.end(), lines.begin(), lines.end());
    auto model = machine::parse_machine(kBareMachine, "bare", {"processors.cpu.count=60"});
    ASSERT_TRUE(model.ok());
    auto r = testing::replay_records(testing::make_trace({{0, procs}}), std::move(*model));
    const auto* result = &r.run.result;
    const auto& g = r.graph();
    auto path = graph::longest_path(g, [&](VertexId v) -> std::int64_t {
      return g.kind(v) == OpKind::task ? g.task(v).time_ns : 0;
    });
    EXPECT_EQ(result->makespan_ns, path.length) << "seed " << seed;
    EXPECT_EQ(result->stuck, 0u);
  }
}

TEST(ReplayProperty, FasterProcessorsNeverLengthenTheRealTraces) {
  for (const char* name : {"full_ghost_b2_cpu2", "full_circuit_2node_p4_cpu2"}) {
    auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/real/") + name}, {});
    ASSERT_TRUE(trace.ok());
    TimeNs previous = -1;
    for (const char* speed : {"1", "2", "4", "8"}) {
      auto result = session::replay_trace(*trace, {RR_SOURCE_DIR "/data/machines/titan.toml",
                                                   {std::string("processors.cpu.speed=") + speed,
                                                    std::string("processors.utility.speed=") + speed}}, {});
      ASSERT_TRUE(result.ok());
      if (previous >= 0) {
        EXPECT_LE(result->result.makespan_ns, previous) << name << " speed " << speed;
      }
      previous = result->result.makespan_ns;
    }
  }
}

TEST(ReplayProperty, FoldingToTheSameNodeCountChangesNothing) {
  const std::string circuit = RR_SOURCE_DIR "/data/traces/real/full_circuit_2node_p4_cpu2";
  const std::string titan = RR_SOURCE_DIR "/data/machines/titan.toml";
  auto plain = testing::replay_path(circuit, titan, {}, 0);
  auto folded = testing::replay_path(circuit, titan, {}, 2);
  EXPECT_EQ(plain.run.result.makespan_ns, folded.run.result.makespan_ns);
  EXPECT_EQ(plain.run.result.ops, folded.run.result.ops);
  EXPECT_EQ(plain.run.result.processor_of, folded.run.result.processor_of);
}

}  // namespace
}  // namespace rr::replay
