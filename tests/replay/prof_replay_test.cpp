// The replay engine on graphs built from hand-made Legion Prof records (graph/src/prof/prof_graph_builder.cpp):
// completion queues fire on their first input, measured delays of unrecorded events are relative to the recorded
// inputs, profiling responses are left out of the estimate, the observed queue order, the segment overhead, and
// background work held by its own node's start-up on the critical path.
// The machine is the bare one of support/replay_fixture.hpp (no runtime costs, traced placement); node 0 has
// model processors GPU 0, CPU 1, CPU 2, utility 3. Every expected time is worked out in the comment next to it.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "graph/prof_graph_builder.hpp"
#include "machine_models/machine_loader.hpp"
#include "replay/critical_path.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_engine.hpp"
#include "replay/task_timing.hpp"
#include "support/prof_records_builder.hpp"
#include "support/replay_fixture.hpp"

namespace rr::replay {
namespace {

using core::ProfEvent;
using core::ProfWorkKind;
using graph::EventGraph;
using graph::OpKind;
using graph::VertexId;

using namespace rr::testing::prof;  // NOLINT: the records' vocabulary
// Traced CPU 0 and 1 of node 0 are model processors 1 and 2, its utility processor model processor 3.

// A work item created when it was ready (or when it started, if earlier).
core::ProfWorkItem work(ProfWorkKind kind, std::uint64_t proc, ProfEvent fevent, core::TimeNs ready, core::TimeNs start,
                        core::TimeNs stop, ProfEvent creator = {}, ProfEvent critical = {}) {
  return rr::testing::prof::work(kind, proc, fevent, std::min(ready, start), ready, start, stop, creator, critical);
}
core::ProfileRecords node0() { return with_processors(); }
core::TraceRecords trace_of(core::ProfileRecords p) { return rr::testing::prof::trace_of({std::move(p)}); }

struct Run {
  graph::BuildResult built;
  ReplayResult result;
  std::vector<TimeNs> issued;  // per vertex: when its issuer reached it (replay::issue_time); kNever if none did
  VertexId find(OpKind kind, ProfEvent e) const {
    for (VertexId v = 0; v < built.graph.vertex_count(); ++v)
      if (built.graph.kind(v) == kind && built.graph.event(v) == key(e)) return v;
    ADD_FAILURE() << "no " << graph::op_kind_name(kind) << " vertex for " << core::to_string(key(e));
    return graph::kNoVertex;
  }
  TimeNs start(OpKind kind, ProfEvent e) const { return at(&ReplayResult::start, find(kind, e)); }
  TimeNs end(OpKind kind, ProfEvent e) const { return at(&ReplayResult::end, find(kind, e)); }
  TimeNs ready(OpKind kind, ProfEvent e) const { return at(&ReplayResult::ready, find(kind, e)); }
  TimeNs at(TimeNs (ReplayResult::*time)(VertexId) const, VertexId v) const {
    return v < result.ops.size() ? (result.*time)(v) : -2;
  }
};

// Builds the graph of `p` and replays it on the bare machine with `overrides`.
Run replay(const core::ProfileRecords& p, std::vector<std::string> overrides = {}, ReplayOptions options = {}) {
  const core::TraceRecords trace = trace_of(p);
  Run run{graph::build_profile_graph(trace), {}, {}};
  auto model = machine::parse_machine(testing::kBareMachine, "bare.toml", overrides);
  EXPECT_TRUE(model.ok()) << (model.ok() ? "" : model.error().to_string());
  if (!model.ok()) return run;
  auto map = MachineMap::build(trace, *model);
  EXPECT_TRUE(map.ok()) << (map.ok() ? "" : map.error().to_string());
  if (!map.ok()) return run;
  auto result = run_replay(run.built.graph, *map, *model, options);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().to_string());
  if (result.ok()) run.result = std::move(*result);
  EXPECT_EQ(run.result.stuck, 0u);
  const graph::EventGraph& g = run.built.graph;
  run.issued.assign(g.vertex_count(), kNever);
  for (VertexId u = 0; u < g.vertex_count(); ++u) {
    if (!result.ok() || run.result.start(u) == kNever) continue;
    auto succ = g.successors(u);
    auto kinds = g.successor_kinds(u);
    for (std::size_t i = 0; i < succ.size(); ++i)
      if (kinds[i] == graph::EdgeKind::issue) run.issued[succ[i]] = issue_time(g, *map, *model, run.result, u, succ[i]);
  }
  return run;
}

// A (CPU0) runs 100 ns, B (CPU1) 300 ns. Q is a completion queue of {A, B}, M a merger of {A, B}. C (CPU0, 50 ns)
// waits for Q, D (CPU1, 40 ns) for M. Q fires with A at 100: C runs 100..150. M fires with B at 300: D 300..340.
TEST(ProfReplay, CompletionQueueFiresOnItsFirstInputMergeOnItsLast) {
  auto p = node0();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 0, 0, 100));
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(2), 0, 0, 300));
  p.completion_queues.push_back({ev(10), {}, 0, {ev(2), ev(1), {}, {}}});
  p.mergers.push_back({ev(11), {}, 0, {ev(1), ev(2), {}, {}}});
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(3), 100, 100, 150, {}, ev(10)));
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(4), 300, 300, 340, {}, ev(11)));
  auto r = replay(p);

  EXPECT_EQ(r.end(OpKind::task, ev(1)), 100);
  EXPECT_EQ(r.end(OpKind::task, ev(2)), 300);
  EXPECT_EQ(r.ready(OpKind::first_of, ev(10)), 100);  // B's input at 300 is ignored, not a later ready time
  EXPECT_EQ(r.end(OpKind::first_of, ev(10)), 100);
  EXPECT_EQ(r.result.released_by(r.find(OpKind::first_of, ev(10))), r.find(OpKind::task, ev(1)));
  EXPECT_EQ(r.start(OpKind::task, ev(3)), 100);
  EXPECT_EQ(r.end(OpKind::task, ev(3)), 150);  // 100 + 50
  EXPECT_EQ(r.end(OpKind::merge, ev(11)), 300);
  EXPECT_EQ(r.end(OpKind::task, ev(4)), 340);  // 300 + 40
  EXPECT_EQ(r.result.makespan_ns, 340);
  EXPECT_EQ(r.result.operations, 6u);
}

// A (CPU0) ran 1000..1400; M merges A and EXT (no record produces it); X (CPU1, 200 ns, launched by no one) waits
// for M and was ready at 1900. Origin 1000: A fired at 400, X ready at 900, so the delay is 900 - 400 = 500.
// Speed 1: A 0..400, X ready 400 + 500 = 900, runs 900..1100.
// Speed 2: A 0..200 (400 / 2), X ready 200 + 500 = 700, runs 700..800 (200 / 2). The delay keeps its length.
TEST(ProfReplay, MeasuredDelayOfAnUnrecordedEventFollowsTheRecordedInputs) {
  auto p = node0();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 1000, 1000, 1400));
  p.mergers.push_back({ev(10), {}, 1000, {ev(1), ev(99), {}, {}}});
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(2), 1900, 1900, 2100, {}, ev(10)));

  auto one = replay(p);
  const VertexId x = one.find(OpKind::task, ev(2));
  EXPECT_EQ(one.built.graph.external_delay(x), 500);
  EXPECT_EQ(one.built.findings.count(core::Stat::external_event), 1u);
  EXPECT_EQ(one.end(OpKind::task, ev(1)), 400);
  EXPECT_EQ(one.end(OpKind::merge, ev(10)), 400);
  EXPECT_EQ(one.ready(OpKind::task, ev(2)), 900);
  EXPECT_EQ(one.result.release(x), Release::observed);
  EXPECT_EQ(one.end(OpKind::task, ev(2)), 1100);
  EXPECT_EQ(one.result.makespan_ns, 1100);

  auto two = replay(p, {"processors.cpu.speed=2"});
  EXPECT_EQ(two.end(OpKind::task, ev(1)), 200);
  EXPECT_EQ(two.ready(OpKind::task, ev(2)), 700);
  EXPECT_EQ(two.start(OpKind::task, ev(2)), 700);
  EXPECT_EQ(two.end(OpKind::task, ev(2)), 800);
  EXPECT_EQ(two.result.makespan_ns, 800);
  // The delay after the last recorded input is the same on both machines; the work halved.
  EXPECT_EQ(one.ready(OpKind::task, ev(2)) - one.end(OpKind::task, ev(1)), 500);
  EXPECT_EQ(two.ready(OpKind::task, ev(2)) - two.end(OpKind::task, ev(1)), 500);
}

// T (CPU0) ran 1000..2000 and created instance I at 1400; the profiler's response P about I ran 1900..5000
// (3100 ns, background). P is issued at 0 + 1000 * 0.4 = 400 and runs its 3100 ns after it is ready, past T's
// end at 1000; the makespan counts T alone.
TEST(ProfReplay, ProfilingResponseRunsButIsLeftOutOfTheMakespan) {
  auto p = node0();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 1000, 1000, 2000));
  p.work.push_back(work(ProfWorkKind::prof_task, kUtil0, ev(2), 1900, 1900, 5000, ev(50)));
  core::ProfInstance inst{};
  inst.inst_uid = ev(50);
  inst.create = 1400;
  inst.ready = 1400;
  inst.destroy = 6000;
  inst.creator = ev(1);
  p.instances.push_back(inst);
  auto r = replay(p);

  const VertexId t = r.find(OpKind::task, ev(1));
  const VertexId pv = r.find(OpKind::background, ev(2));
  ASSERT_NE(pv, graph::kNoVertex);
  EXPECT_EQ(r.result.end(t), 1000);
  EXPECT_EQ(r.issued[pv], 400);
  EXPECT_EQ(r.result.ready(pv), 400 + r.built.graph.external_delay(pv));
  EXPECT_EQ(r.result.end(pv), r.result.ready(pv) + 3100);  // 5000 - 1900 at CPU speed 1
  EXPECT_EQ(r.result.processor_of[pv], ~0u);               // no processor held
  EXPECT_FALSE(r.result.counts(pv));
  EXPECT_TRUE(r.result.counts(t));
  EXPECT_EQ(r.result.outside_work, 1u);
  EXPECT_EQ(r.result.makespan_ns, 1000);
  EXPECT_EQ(r.result.last_end_ns, r.result.end(pv));
  EXPECT_GE(r.result.last_end_ns, 3500);  // at least 400 + 3100
}

// H holds CPU0 0..1000. A (CPU0, 200 ns) is ready at 100 (after P1 on CPU1, 100 ns) but the run started it at 3000;
// B (CPU0, 300 ns) is ready at 500 (after P2 on the utility processor, 500 ns) and the run started it at 2000. Both
// wait for CPU0 until 1000.
// observed: B (observed 2000) before A (3000): B 1000..1300, A 1300..1500.
// ready:    A (ready 100) before B (500):       A 1000..1200, B 1200..1500.
TEST(ProfReplay, ObservedQueueOrderRunsWhatTheRunStartedFirst) {
  auto p = node0();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 0, 0, 1000));
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(2), 0, 0, 100));
  p.work.push_back(work(ProfWorkKind::task, kUtil0, ev(3), 0, 0, 500));
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(4), 100, 3000, 3200, {}, ev(2)));
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(5), 500, 2000, 2300, {}, ev(3)));

  auto observed = replay(p);
  EXPECT_EQ(observed.ready(OpKind::task, ev(4)), 100);
  EXPECT_EQ(observed.ready(OpKind::task, ev(5)), 500);
  EXPECT_EQ(observed.start(OpKind::task, ev(5)), 1000);
  EXPECT_EQ(observed.end(OpKind::task, ev(5)), 1300);
  EXPECT_EQ(observed.start(OpKind::task, ev(4)), 1300);
  EXPECT_EQ(observed.end(OpKind::task, ev(4)), 1500);

  ReplayOptions by_ready;
  by_ready.rules.queue_order = QueueOrder::ready;
  auto ready = replay(p, {}, by_ready);
  EXPECT_EQ(ready.ready(OpKind::task, ev(4)), 100);
  EXPECT_EQ(ready.ready(OpKind::task, ev(5)), 500);
  EXPECT_EQ(ready.start(OpKind::task, ev(4)), 1000);
  EXPECT_EQ(ready.end(OpKind::task, ev(4)), 1200);
  EXPECT_EQ(ready.start(OpKind::task, ev(5)), 1200);
  EXPECT_EQ(ready.end(OpKind::task, ev(5)), 1500);
  EXPECT_EQ(observed.result.makespan_ns, 1500);
  EXPECT_EQ(ready.result.makespan_ns, 1500);
}

// T (CPU0) ran 0..1000 and waited 400..600 on P (CPU1, 0..300): busy 1000 - 200 = 800, the wait at
// 400 / 800 = 0.5, so two segments of 400 ns. With a CPU segment overhead of 50:
// T: 0..450 (50 + 400); P: 0..350 (50 + 300); the resume is ready at max(450, 350) = 450 and runs 450..900.
// Without: T 0..400, resume 400..800.
TEST(ProfReplay, SegmentOverheadIsAddedToEverySegment) {
  auto p = node0();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 0, 0, 1000));
  p.work.back().first_wait = 0;
  p.work.back().wait_count = 1;
  core::ProfWait w{};
  w.wait_event = ev(2);
  w.wait_start = 400;
  w.wait_ready = 300;
  w.wait_end = 600;
  w.item = 0;
  p.waits.push_back(w);
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(2), 0, 0, 300));

  auto plain = replay(p);
  EXPECT_EQ(plain.end(OpKind::task, ev(1)), 400);
  EXPECT_EQ(plain.start(OpKind::task_resume, ev(1)), 400);
  EXPECT_EQ(plain.end(OpKind::task_resume, ev(1)), 800);

  auto r = replay(p, {"processors.cpu.segment_overhead_ns=50"});
  const VertexId t = r.find(OpKind::task, ev(1));
  const VertexId resume = r.find(OpKind::task_resume, ev(1));
  EXPECT_EQ(r.result.end(t), 450);
  EXPECT_EQ(r.end(OpKind::task, ev(2)), 350);
  EXPECT_EQ(r.result.ready(resume), 450);
  EXPECT_EQ(r.result.start(resume), 450);
  EXPECT_EQ(r.result.end(resume), 900);  // 450 + 50 + 400
  EXPECT_EQ(r.result.makespan_ns, 900);
  const std::uint32_t cpu0 = r.result.processor_of[t];
  ASSERT_EQ(cpu0, 1u);  // node 0's first CPU after its GPU
  EXPECT_EQ(r.result.processor_of[resume], cpu0);
  EXPECT_EQ(r.result.processors[cpu0].segments, 2u);
  EXPECT_EQ(r.result.processors[cpu0].busy_ns, 900);  // (50 + 400) * 2
  EXPECT_EQ(plain.result.processors[cpu0].busy_ns, 800);
}

// Background work runs on its own node's cores, so a start-up there holds it. On node 1, T (CPU, 0..1000) is its
// processor's first work: the start-up (5000 ns) freezes node 1 from 0 to 5000. The partition work P (0..2000,
// background), ready at 0, stands still until 5000 and ends at 7000; T ends at 6000. The critical path is P: its
// 2000 ns of work from 0, then 5000 ns of contention on node 1's start-ups (nothing started up on node 0).
TEST(ProfReplay, BackgroundWorkOnTheCriticalPathWaitsForItsOwnNodesStartUps) {
  core::ProfileRecords n1;
  n1.processors = {{core::Handle::make(kCpuNode1), core::RealmProcKind::cpu}};
  n1.work.push_back(work(ProfWorkKind::task, kCpuNode1, ev(1), 0, 0, 1000));
  n1.work.push_back(work(ProfWorkKind::partition, kCpuNode1, ev(2), 0, 0, 2000));
  const core::TraceRecords trace = rr::testing::prof::trace_of({node0(), n1});
  const graph::BuildResult built = graph::build_profile_graph(trace);
  auto model = machine::parse_machine(testing::kBareMachine, "bare.toml", {"runtime.processor_start_ns=5000"});
  ASSERT_TRUE(model.ok()) << model.error().to_string();
  auto map = MachineMap::build(trace, *model);
  ASSERT_TRUE(map.ok()) << map.error().to_string();
  auto r = run_replay(built.graph, *map, *model, {});
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  VertexId t = graph::kNoVertex, pv = graph::kNoVertex;
  for (VertexId v = 0; v < built.graph.vertex_count(); ++v) {
    if (built.graph.kind(v) == OpKind::task) t = v;
    if (built.graph.kind(v) == OpKind::background) pv = v;
  }
  ASSERT_NE(t, graph::kNoVertex);
  ASSERT_NE(pv, graph::kNoVertex);
  ASSERT_EQ(r->start_ups.size(), 1u);
  EXPECT_EQ(r->start_ups[0].node, 1u);
  EXPECT_EQ(r->start_ups[0].from, 0);
  EXPECT_EQ(r->start_ups[0].to, 5000);
  EXPECT_EQ(r->end(t), 6000);
  EXPECT_EQ(r->start(pv), 0);
  EXPECT_EQ(r->end(pv), 7000);
  EXPECT_EQ(r->makespan_ns, 7000);
  const CriticalPath cp = critical_path(built.graph, *map, *model, *r);
  ASSERT_FALSE(cp.steps.empty());
  EXPECT_EQ(cp.by_class[static_cast<std::size_t>(PathClass::compute)], 2000);
  PathResource node1;
  node1.type = PathResource::Type::start_ups;
  node1.node = 1;
  EXPECT_EQ(cp.contention, (std::map<PathResource, TimeNs>{{node1, 5000}}));
}

}  // namespace
}  // namespace rr::replay
