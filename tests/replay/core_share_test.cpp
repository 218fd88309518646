// The nodes' shared cores (replay/core_share.hpp) alone, and through the engine on hand-computed DAGs, on one engine
// and split into blocks: every expected time is worked out in the comment beside it.
#include <gtest/gtest.h>

#include <vector>

#include "replay/core_share.hpp"
#include "replay/replay_engine.hpp"
#include "support/replay_fixture.hpp"

namespace rr::replay {
namespace {

using testing::replay_lines;
using testing::task;
using Kind = CoreShare::DueKind;

// Takes what is due on node 0 at each wake-up until nothing is, as the engine does: (real time, vertex) pairs.
std::vector<std::pair<TimeNs, graph::VertexId>> drain(CoreShare& share) {
  std::vector<std::pair<TimeNs, graph::VertexId>> out;
  for (TimeNs at = share.next_due(0); at != CoreShare::kNone; at = share.next_due(0))
    share.take_due(0, at, [&](const CoreShare::Due& d) {
      out.emplace_back(at, d.vertex);
      share.thread_stops(0, at);
    });
  return out;
}

TEST(CoreShare, ThreeThreadsOnTwoCoresRunAtTwoThirds) {
  CoreShare share;
  share.configure(1, 2, false);
  for (graph::VertexId v = 0; v < 3; ++v) {
    share.thread_starts(0, 0);
    share.schedule(0, 0, 300, Kind::segment_end, v, 0);
  }
  // 300 ns of work each at 2/3 of real time: 450 ns.
  const auto due = drain(share);
  ASSERT_EQ(due.size(), 3u);
  for (const auto& [at, v] : due) EXPECT_EQ(at, 450);
}

TEST(CoreShare, ALaterThreadSlowsTheFirstOnlyWhileBothRun) {
  CoreShare share;
  share.configure(1, 1, false);
  share.thread_starts(0, 0);
  share.schedule(0, 0, 100, Kind::segment_end, 1, 0);
  // B starts at 50, when A has done 50. Both at 1/2: A needs 50 more, 100 ns, so it ends at 150, when B has done
  // 50; B alone does its other 50 by 200.
  share.thread_starts(0, 50);
  share.schedule(0, 50, 100, Kind::segment_end, 2, 0);
  const auto due = drain(share);
  ASSERT_EQ(due.size(), 2u);
  EXPECT_EQ(due[0], std::make_pair(TimeNs{150}, graph::VertexId{1}));
  EXPECT_EQ(due[1], std::make_pair(TimeNs{200}, graph::VertexId{2}));
}

TEST(CoreShare, NoMoreThreadsThanCoresIsRealTime) {
  CoreShare share;
  share.configure(1, 4, false);
  for (graph::VertexId v = 0; v < 4; ++v) {
    share.thread_starts(0, 7 * v);
    share.schedule(0, 7 * v, 1000 + v, Kind::segment_end, v, 0);
  }
  const auto due = drain(share);
  ASSERT_EQ(due.size(), 4u);
  for (graph::VertexId v = 0; v < 4; ++v) EXPECT_EQ(due[v].first, 7 * v + 1000 + v);
}

TEST(CoreShare, OffWithoutCores) {
  CoreShare share;
  share.configure(4, 0, false);
  EXPECT_FALSE(share.enabled());
}

// Two tasks of 10 us on node 0's two CPUs: with one core each runs at half speed and both end at 20 us.
TEST(ReplayCores, TwoTasksOnOneCoreTakeTwiceAsLong) {
  const std::vector<std::string> lines = {task(1, "80000000", "(20000001,1)"), task(2, "80000001", "(20000002,1)"),
                                          "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 10"};
  auto shared = replay_lines(lines, {"node.cores=1"});
  EXPECT_EQ(shared.end_of(graph::OpKind::task, 0x20000001, 1), 20000);
  EXPECT_EQ(shared.end_of(graph::OpKind::task, 0x20000002, 1), 20000);
  EXPECT_EQ(shared.run.result.makespan_ns, 20000);
  EXPECT_EQ(shared.run.result.processors[1].busy_ns, 20000);  // it held its processor 20 us
  auto own = replay_lines(lines, {"node.cores=2"});
  EXPECT_EQ(own.run.result.makespan_ns, 10000);
  auto unlimited = replay_lines(lines);
  EXPECT_EQ(unlimited.run.result.makespan_ns, 10000);
}

// T (CPU0, 40 us) issues A (node 1's CPU, 10 us) halfway through its work; Y (CPU1, 100 us) runs beside T on one
// core. Both at 1/2: T reaches 20 us of work at 40 us, so A is ready then and, on node 1's own core, ends at 50.
// T needs 20 more at 1/2: it ends at 80, when Y has done 40; Y's other 60 alone end at 140.
TEST(ReplayCores, IssuesHappenWhenTheSharedWorkReachesThem) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000001", "(20000002,1)"),
                         task(3, "80800000", "(20000003,1)", "(0,0)", "(20000001,1)"), "Task Time: (20000001,1) 40",
                         "Task Time: (20000002,1) 100", "Task Time: (20000003,1) 10"},
                        {"node.cores=1"});
  EXPECT_EQ(r.ready_of(graph::OpKind::task, 0x20000003, 1), 40000);
  EXPECT_EQ(r.end_of(graph::OpKind::task, 0x20000003, 1), 50000);
  EXPECT_EQ(r.end_of(graph::OpKind::task, 0x20000001, 1), 80000);
  EXPECT_EQ(r.end_of(graph::OpKind::task, 0x20000002, 1), 140000);
  EXPECT_EQ(r.run.result.makespan_ns, 140000);
  // The critical path reads the issue's time the engine kept, so its classes still tile the run.
  ASSERT_TRUE(r.run.critical.has_value());
  TimeNs sum = 0;
  for (const TimeNs ns : r.run.critical->by_class) sum += ns;
  EXPECT_EQ(sum, r.run.result.makespan_ns);
}

// Start-ups of 5 us freeze the node, one after another: node 0's two CPUs start 10 us tasks at 0. CPU 0 starts up
// 0..5, CPU 1 5..10; nothing runs meanwhile, so both tasks run 10..20. A later task on CPU 0 (after the first, by
// its precondition) pays no start-up: 20..30.
TEST(ReplayStartUp, StartUpsFreezeTheNodeOneAfterAnother) {
  const std::vector<std::string> lines = {task(1, "80000000", "(20000001,1)"), task(2, "80000001", "(20000002,1)"),
                                          task(3, "80000000", "(20000003,1)", "(20000001,1)"),
                                          "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 10",
                                          "Task Time: (20000003,1) 10"};
  auto r = replay_lines(lines, {"runtime.processor_start_ns=5000"});
  EXPECT_EQ(r.end_of(graph::OpKind::task, 0x20000001, 1), 20000);
  EXPECT_EQ(r.end_of(graph::OpKind::task, 0x20000002, 1), 20000);
  EXPECT_EQ(r.end_of(graph::OpKind::task, 0x20000003, 1), 30000);
  ASSERT_EQ(r.run.result.start_ups.size(), 2u);
  EXPECT_EQ(r.run.result.start_ups[0].from, 0);
  EXPECT_EQ(r.run.result.start_ups[0].to, 5000);
  EXPECT_EQ(r.run.result.start_ups[1].from, 5000);
  EXPECT_EQ(r.run.result.start_ups[1].to, 10000);
  // On one shared core: frozen until 10, then the two tasks share the core at 1/2 and both end at 30; task 3 runs
  // alone 30..40.
  auto shared = replay_lines(lines, {"runtime.processor_start_ns=5000", "node.cores=1"});
  EXPECT_EQ(shared.end_of(graph::OpKind::task, 0x20000001, 1), 30000);
  EXPECT_EQ(shared.end_of(graph::OpKind::task, 0x20000002, 1), 30000);
  EXPECT_EQ(shared.end_of(graph::OpKind::task, 0x20000003, 1), 40000);
}

// The start-ups a log measured keep their lengths, in the order they come on a node; a later one takes the typical
// length: with [2, 7] us measured and 4 us typical, node 0's three CPUs start 10 us tasks at 0 and start up 0..2,
// 2..9 and 9..13, so all three tasks run 13..23. A what-if with fewer processors has fewer start-ups: the first ones.
TEST(ReplayStartUp, MeasuredStartUpsComeInOrderThenTheTypicalOne) {
  const std::vector<std::string> lines = {"Processor: 80000003 1", task(1, "80000000", "(20000001,1)"),
                                          task(2, "80000001", "(20000002,1)"), task(3, "80000003", "(20000003,1)"),
                                          "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 10",
                                          "Task Time: (20000003,1) 10"};
  auto r = replay_lines(lines, {"processors.cpu.count=3", "runtime.processor_start_ns=4000",
                                "runtime.processor_starts_ns=[2000, 7000]"});
  ASSERT_EQ(r.run.result.start_ups.size(), 3u);
  const std::vector<std::pair<TimeNs, TimeNs>> expected = {{0, 2000}, {2000, 9000}, {9000, 13000}};
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(r.run.result.start_ups[k].from, expected[k].first) << k;
    EXPECT_EQ(r.run.result.start_ups[k].to, expected[k].second) << k;
  }
  EXPECT_EQ(r.run.result.makespan_ns, 23000);
  // Only measured start-ups (no typical length): the third processor starts at once.
  auto measured_only = replay_lines(lines, {"processors.cpu.count=3", "runtime.processor_starts_ns=[2000, 7000]"});
  EXPECT_EQ(measured_only.run.result.makespan_ns, 19000);
}

// Work under way stands still while another processor starts up: CPU 0 starts up 0..5 and runs task 1 5..15; tasks
// 2 (CPU 1) and 3 (CPU 0) wait for it. At 15 task 3 starts on CPU 0, which has started, and task 2 on CPU 1, whose
// start-up freezes the node 15..20: both run 20..30. The critical path names the start-ups: 10 of the 30 us.
TEST(ReplayStartUp, WorkUnderWayStandsStillDuringAStartUp) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000001", "(20000002,1)", "(20000001,1)"),
                         task(3, "80000000", "(20000003,1)", "(20000001,1)"), "Task Time: (20000001,1) 10",
                         "Task Time: (20000002,1) 10", "Task Time: (20000003,1) 10"},
                        {"runtime.processor_start_ns=5000"});
  EXPECT_EQ(r.end_of(graph::OpKind::task, 0x20000001, 1), 15000);
  EXPECT_EQ(r.end_of(graph::OpKind::task, 0x20000002, 1), 30000);
  EXPECT_EQ(r.end_of(graph::OpKind::task, 0x20000003, 1), 30000);
  ASSERT_TRUE(r.run.critical.has_value());
  TimeNs start_ups = 0;
  for (const auto& [resource, ns] : r.run.critical->contention)
    if (resource.type == PathResource::Type::start_ups) start_ups += ns;
  EXPECT_EQ(start_ups, 10000);
}

// Node 0's two CPUs start 10 us tasks A and B at 0 on one shared core, with start-ups of 0.5 us: CPU 0 starts up
// 0..0.5, CPU 1 0.5..1, then A and B share the core at 1/2 and both end at 1 + 20 = 21 us. C (4 us) on node 1
// waits for A: ready at 21 + 1 (the network latency) = 22 us, its CPU starts up 22..22.5 and it ends at 26.5 us. Split
// into a block per node (each node's clock and start-ups its block's own), the times are the same.
TEST(ReplayStartUp, TwoBlocksKeepEachNodesClockAndStartUps) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000001", "(20000002,1)"),
                         task(3, "80800000", "(20000003,1)", "(20000001,1)"), "Task Time: (20000001,1) 10",
                         "Task Time: (20000002,1) 10"},
                        {"node.cores=1", "runtime.processor_start_ns=500", "network.latency_ns=1000"},
                        {"Task Time: (20000003,1) 4"});
  ReplayOptions split;
  split.execution.min_block_operations = 0;
  split.execution.min_lookahead_ns = 0;
  for (const std::uint32_t blocks : {1u, 2u}) {
    split.execution.blocks = blocks;
    auto result = run_replay(r.graph(), r.run.map, r.run.model, split);
    ASSERT_TRUE(result.ok()) << result.error().to_string();
    EXPECT_EQ(result->blocks, blocks);
    auto end_of = [&](std::uint64_t id) {
      return result->end(r.vertex_of(graph::OpKind::task, id, 1));
    };
    EXPECT_EQ(end_of(0x20000001), 21000) << blocks << " block(s)";
    EXPECT_EQ(end_of(0x20000002), 21000) << blocks << " block(s)";
    EXPECT_EQ(result->ready(r.vertex_of(graph::OpKind::task, 0x20000003, 1)), 22000) << blocks << " block(s)";
    EXPECT_EQ(end_of(0x20000003), 26500) << blocks << " block(s)";
    EXPECT_EQ(result->makespan_ns, 26500) << blocks << " block(s)";
    ASSERT_EQ(result->start_ups.size(), 3u) << blocks << " block(s)";
    const std::pair<TimeNs, TimeNs> expected[] = {{0, 500}, {500, 1000}, {22000, 22500}};
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(result->start_ups[i].node, i < 2 ? 0u : 1u) << blocks << " block(s)";
      EXPECT_EQ(std::pair(result->start_ups[i].from, result->start_ups[i].to), expected[i]) << blocks << " block(s)";
    }
  }
}

}  // namespace
}  // namespace rr::replay
