// Unit tests of the event-graph builder: every join rule, each cross-file case and every validation finding.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "graph/graph_algorithms.hpp"
#include "graph/graph_builder.hpp"
#include "support/trace_builder.hpp"

namespace rr::graph {
namespace {

using testing::make_trace;

const std::string kMachine0 = "Processor: 80000000 1";
const std::string kMachine1 = "Processor: 80800000 1";

VertexId vertex_of(const EventGraph& g, OpKind kind, std::uint64_t id, std::uint32_t gen) {
  for (VertexId v = 0; v < g.vertex_count(); ++v)
    if (g.kind(v) == kind && g.event(v) == core::EventKey::make(id, gen)) return v;
  ADD_FAILURE() << "no " << op_kind_name(kind) << " vertex for " << std::hex << id << "," << gen;
  return kNoVertex;
}

bool has_edge(const EventGraph& g, VertexId from, VertexId to, EdgeKind kind) {
  auto succ = g.successors(from);
  auto kinds = g.successor_kinds(from);
  for (std::size_t i = 0; i < succ.size(); ++i)
    if (succ[i] == to && kinds[i] == kind) return true;
  return false;
}

std::vector<std::string> example_events(const GraphFindings& f, core::Stat kind) {
  std::vector<std::string> out;
  for (const auto& e : f.examples)
    if (e.kind == kind) out.push_back(core::to_string(e.event));
  return out;
}

TEST(GraphBuilder, TaskTimeJoinsRequestAcrossFilesAndNodeComesFromProcessorId) {
  // Node 0 launches a task on node 1's processor; node 1 runs it and logs its Task Time.
  auto trace = make_trace({{0, {kMachine0, kMachine1, "Task Request: 7 80800000 (20000001,1) (0,0) (0,0) 0 (nil) 0"}},
                           {1, {kMachine0, kMachine1, "Task Time: (20000001,1) 125"}}});
  auto r = build_event_graph(trace);
  ASSERT_EQ(r.graph.vertex_count(), 1u);
  VertexId t = vertex_of(r.graph, OpKind::task, 0x20000001, 1);
  EXPECT_EQ(r.graph.task(t).time_ns, 125000);
  EXPECT_EQ(r.graph.task(t).func_id, 7u);
  EXPECT_EQ(r.graph.node(t), 1u);
  EXPECT_EQ(r.findings.total(), 0u);
}

TEST(GraphBuilder, PreconditionAndIssueEdgesWithProgramOrder) {
  auto trace = make_trace({{0,
                            {kMachine0, "Task Request: 5 80000000 (20000001,1) (0,0) (0,0) 0 (nil) 0",
                             "Task Request: 6 80000000 (20000002,1) (0,0) (20000001,1) 0 (nil) 0",
                             "Event Trigger: (20000003,1) (20000002,1) (20000001,1)",
                             "Task Request: 6 80000000 (20000004,1) (20000003,1) (20000001,1) 0 (nil) 0",
                             "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 10", "Task Time: (20000004,1) 10"}}});
  auto r = build_event_graph(trace);
  const auto& g = r.graph;
  VertexId top = vertex_of(g, OpKind::task, 0x20000001, 1);
  VertexId a = vertex_of(g, OpKind::task, 0x20000002, 1);
  VertexId trig = vertex_of(g, OpKind::trigger, 0x20000003, 1);
  VertexId b = vertex_of(g, OpKind::task, 0x20000004, 1);
  EXPECT_TRUE(has_edge(g, top, a, EdgeKind::issue));
  EXPECT_TRUE(has_edge(g, top, trig, EdgeKind::issue));
  EXPECT_TRUE(has_edge(g, a, trig, EdgeKind::precondition));
  EXPECT_TRUE(has_edge(g, trig, b, EdgeKind::precondition));
  EXPECT_EQ(g.issuer(a), top);
  EXPECT_EQ(g.issuer(top), kNoVertex);
  EXPECT_EQ(g.position(a), 0u);
  EXPECT_EQ(g.position(trig), 1u);
  EXPECT_EQ(g.position(b), 2u);
  EXPECT_EQ(g.task(top).action_count, 3u);
  EXPECT_EQ(r.findings.total(), 0u);
}

TEST(GraphBuilder, CopySizeJoinsRequestLoggedOnAnotherNode) {
  auto trace = make_trace({{0, {kMachine0, "Copy Request: (20000001,1) (0,0) (0,0) 60800000 60000000"}},
                           {1, {kMachine1, "Copy Size: (20000001,1) 4096"}}});
  auto r = build_event_graph(trace);
  VertexId c = vertex_of(r.graph, OpKind::copy, 0x20000001, 1);
  EXPECT_EQ(r.graph.copy(c).bytes, 4096u);
  EXPECT_EQ(r.graph.copy(c).src_memory.value(), 0x60800000u);
  EXPECT_EQ(r.graph.node(c), 0u);  // the caller's node
  EXPECT_EQ(r.findings.total(), 0u);
}

TEST(GraphBuilder, MergePreconditionsNeedNotBeAdjacentAndCountIsChecked) {
  auto trace = make_trace({{0,
                            {kMachine0, "Event Merge: (20000010,1) 2",
                             "Task Request: 5 80000000 (20000001,1) (0,0) (0,0) 0 (nil) 0",
                             "Event Precondition: (20000010,1) (20000001,1)", "Task Time: (20000001,1) 3",
                             "Event Precondition (20000010,1) (20000002, 1)", "Event Merge: (20000011,1) 3",
                             "Event Precondition: (20000011,1) (20000010,1)",
                             "Task Request: 5 80000000 (20000002,1) (0,0) (0,0) 0 (nil) 0", "Task Time: (20000002,1) 3"}}});
  auto r = build_event_graph(trace);
  const auto& g = r.graph;
  VertexId m = vertex_of(g, OpKind::merge, 0x20000010, 1);
  VertexId m2 = vertex_of(g, OpKind::merge, 0x20000011, 1);
  EXPECT_TRUE(has_edge(g, vertex_of(g, OpKind::task, 0x20000001, 1), m, EdgeKind::merge_input));
  EXPECT_TRUE(has_edge(g, vertex_of(g, OpKind::task, 0x20000002, 1), m, EdgeKind::merge_input));
  EXPECT_TRUE(has_edge(g, m, m2, EdgeKind::merge_input));
  EXPECT_EQ(r.findings.count(core::Stat::merge_count_mismatch), 1u);
  EXPECT_EQ(example_events(r.findings, core::Stat::merge_count_mismatch), std::vector<std::string>{"(20000011,1)"});
}

TEST(GraphBuilder, TaskWaitSplitsTheTaskSoIssueThenWaitIsNotACycle) {
  // The top task issues A, waits for A, then issues B (as in the real full_ghost trace).
  auto trace = make_trace({{0,
                            {kMachine0, "Task Request: 5 80000000 (20000001,1) (0,0) (0,0) 0 (nil) 0",
                             "Task Request: 6 80000000 (20000002,1) (0,0) (20000001,1) 0 (nil) 0",
                             "Task Wait: (20000001,1) (20000002,1) 40",
                             "Task Request: 7 80000000 (20000003,1) (0,0) (20000001,1) 0 (nil) 0",
                             "Event Trigger: (20000004,1) (20000001,1) (0,0)", "Task Time: (20000001,1) 100",
                             "Task Time: (20000002,1) 30", "Task Time: (20000003,1) 20"}}});
  auto r = build_event_graph(trace);
  const auto& g = r.graph;
  VertexId top = vertex_of(g, OpKind::task, 0x20000001, 1);
  VertexId a = vertex_of(g, OpKind::task, 0x20000002, 1);
  VertexId b = vertex_of(g, OpKind::task, 0x20000003, 1);
  VertexId resume = vertex_of(g, OpKind::task_resume, 0x20000001, 1);
  VertexId trig = vertex_of(g, OpKind::trigger, 0x20000004, 1);
  EXPECT_TRUE(has_edge(g, top, a, EdgeKind::issue));
  EXPECT_TRUE(has_edge(g, a, resume, EdgeKind::wait));
  EXPECT_TRUE(has_edge(g, top, resume, EdgeKind::continuation));
  EXPECT_TRUE(has_edge(g, resume, b, EdgeKind::issue));
  EXPECT_TRUE(has_edge(g, resume, trig, EdgeKind::precondition));  // the finish event leaves the last segment
  EXPECT_FALSE(has_edge(g, top, trig, EdgeKind::precondition));
  ASSERT_EQ(g.waits_of(top).size(), 1u);
  EXPECT_EQ(g.waits_of(top)[0].position, 1u);
  EXPECT_EQ(g.waits_of(top)[0].wait_ns, 40000);
  EXPECT_EQ(g.wait_ns(top), 40000);
  EXPECT_EQ(g.task(top).action_count, 3u);
  EXPECT_EQ(g.position(b), 2u);
  EXPECT_TRUE(r.findings.cycle.empty());
  EXPECT_EQ(topological_order(g).size(), g.vertex_count());
}

TEST(GraphBuilder, ExternalEventsAreCountedOncePerEventWithTheirIds) {
  auto trace = make_trace({{0,
                            {kMachine0, "Task Request: 5 80000000 (20000001,1) (20000099,3) (0,0) 0 (nil) 0",
                             "Task Request: 5 80000000 (20000002,1) (20000099,3) (0,0) 0 (nil) 0",
                             "Task Time: (20000001,1) 1", "Task Time: (20000002,1) 1"}}});
  auto r = build_event_graph(trace);
  EXPECT_EQ(r.findings.count(core::Stat::external_event), 1u);
  EXPECT_EQ(r.findings.external_references, 2u);
  EXPECT_EQ(example_events(r.findings, core::Stat::external_event), std::vector<std::string>{"(20000099,3)"});
}

TEST(GraphBuilder, DuplicateProducer) {
  auto trace = make_trace({{0, {kMachine0, "Task Request: 5 80000000 (20000001,1) (0,0) (0,0) 0 (nil) 0",
                                "Event Trigger: (20000001,1) (0,0) (0,0)", "Task Time: (20000001,1) 1"}}});
  auto r = build_event_graph(trace);
  EXPECT_EQ(r.findings.count(core::Stat::duplicate_producer), 1u);
  EXPECT_EQ(example_events(r.findings, core::Stat::duplicate_producer), std::vector<std::string>{"(20000001,1)"});
}

TEST(GraphBuilder, TimingRecordsWithoutRequestsAndRequestsWithoutTiming) {
  auto trace = make_trace({{0,
                            {kMachine0, "Task Time: (20000050,1) 9", "Copy Size: (20000051,1) 0",
                             "Copy Size: (20000052,1) 64", "Task Request: 5 80000000 (20000001,1) (0,0) (0,0) 0 (nil) 0",
                             "Copy Request: (20000002,1) (0,0) (0,0) 60000000 60000000",
                             "Task Request: 5 80000000 (20000003,1) (0,0) (0,0) 0 (nil) 0", "Task Time: (20000003,1) 1",
                             "Task Time: (20000003,1) 2", "Copy Request: (20000004,1) (0,0) (0,0) 60000000 60000000",
                             "Copy Size: (20000004,1) 8", "Copy Size: (20000004,1) 8", "Task Wait: (20000060,1) (0,0) 5"}}});
  auto r = build_event_graph(trace);
  const auto& f = r.findings;
  EXPECT_EQ(example_events(f, core::Stat::task_time_without_request), std::vector<std::string>{"(20000050,1)"});
  EXPECT_EQ(example_events(f, core::Stat::zero_byte_copy_orphan), std::vector<std::string>{"(20000051,1)"});
  EXPECT_EQ(example_events(f, core::Stat::copy_size_without_request), std::vector<std::string>{"(20000052,1)"});
  EXPECT_EQ(example_events(f, core::Stat::task_without_time), std::vector<std::string>{"(20000001,1)"});
  EXPECT_EQ(example_events(f, core::Stat::copy_without_size), std::vector<std::string>{"(20000002,1)"});
  EXPECT_EQ(example_events(f, core::Stat::duplicate_task_time), std::vector<std::string>{"(20000003,1)"});
  EXPECT_EQ(example_events(f, core::Stat::duplicate_copy_size), std::vector<std::string>{"(20000004,1)"});
  EXPECT_EQ(example_events(f, core::Stat::wait_without_task), std::vector<std::string>{"(20000060,1)"});
  EXPECT_EQ(r.graph.task(vertex_of(r.graph, OpKind::task, 0x20000003, 1)).time_ns, 1000);  // the first one counts
}

TEST(GraphBuilder, PreconditionWithoutMergeAndUnknownIssuer) {
  auto trace = make_trace({{0, {kMachine0, "Event Precondition: (20000070,1) (0,0)",
                                "Task Request: 5 80000000 (20000001,1) (0,0) (20000077,2) 0 (nil) 0",
                                "Task Time: (20000001,1) 1"}}});
  auto r = build_event_graph(trace);
  EXPECT_EQ(example_events(r.findings, core::Stat::precondition_without_merge),
            std::vector<std::string>{"(20000070,1)"});
  EXPECT_EQ(example_events(r.findings, core::Stat::unknown_issuer), std::vector<std::string>{"(20000077,2)"});
}

TEST(GraphBuilder, BarrierPhasesInOrderWithAlterDeltasAndFirstPhaseInferred) {
  // The slot was recycled: the first phase is gen 3. Expected 1 arrival, phase 3 altered +1.
  auto trace = make_trace({{0,
                            {kMachine0, "Barrier Creation: 20000005 1", "Barrier Alter: (20000005,3) (0,0) 1",
                             "Barrier Arrive: (20000005,3) (0,0) (0,0) 1", "Barrier Arrive: (20000005,3) (0,0) (0,0) 1",
                             "Barrier Arrive: (20000005,5) (0,0) (0,0) 1",
                             "Task Request: 5 80000000 (20000001,1) (20000005,2) (0,0) 0 (nil) 0",
                             "Task Request: 5 80000000 (20000002,1) (20000005,5) (0,0) 0 (nil) 0",
                             "Task Time: (20000001,1) 1", "Task Time: (20000002,1) 1"}}});
  auto r = build_event_graph(trace);
  const auto& g = r.graph;
  VertexId p3 = vertex_of(g, OpKind::barrier_phase, 0x20000005, 3);
  VertexId p4 = vertex_of(g, OpKind::barrier_phase, 0x20000005, 4);  // no records: filled in
  VertexId p5 = vertex_of(g, OpKind::barrier_phase, 0x20000005, 5);
  EXPECT_TRUE(g.phase(p3).first);
  EXPECT_EQ(g.phase(p3).required, 2);
  EXPECT_EQ(g.phase(p3).arrived, 2);
  EXPECT_TRUE(has_edge(g, p3, p4, EdgeKind::phase_order));
  EXPECT_TRUE(has_edge(g, p4, p5, EdgeKind::phase_order));
  EXPECT_TRUE(has_edge(g, p5, vertex_of(g, OpKind::task, 0x20000002, 1), EdgeKind::precondition));
  // Phase 4 gets no arrival: it can never complete (and so neither can 5 in a replay).
  EXPECT_EQ(example_events(r.findings, core::Stat::barrier_phase_incomplete), std::vector<std::string>{"(20000005,4)"});
  // (20000005,2) is the generation before the first phase: fired at creation, not external.
  EXPECT_EQ(r.findings.count(core::Stat::external_event), 0u);
  EXPECT_EQ(r.findings.pre_first_phase_references, 1u);
  EXPECT_EQ(g.node(p3), 0u);
}

TEST(GraphBuilder, BarrierWithoutCreation) {
  auto trace = make_trace({{0, {kMachine0, "Barrier Arrive: (20800005,1) (0,0) (0,0) 1"}}});
  auto r = build_event_graph(trace);
  EXPECT_EQ(example_events(r.findings, core::Stat::barrier_without_creation), std::vector<std::string>{"(20800005,1)"});
  EXPECT_EQ(r.graph.node(vertex_of(r.graph, OpKind::barrier_phase, 0x20800005, 1)), 1u);  // owner from the id
}

TEST(GraphBuilder, CycleIsNamedWithItsOperations) {
  auto trace = make_trace({{0, {kMachine0, "Task Request: 5 80000000 (20000001,1) (20000003,1) (0,0) 0 (nil) 0",
                                "Event Merge: (20000002,1) 1", "Event Precondition: (20000002,1) (20000001,1)",
                                "Event Trigger: (20000003,1) (20000002,1) (0,0)", "Task Time: (20000001,1) 1"}}});
  auto r = build_event_graph(trace);
  ASSERT_EQ(r.findings.count(core::Stat::cycle), 1u);
  ASSERT_EQ(r.findings.cycle.size(), 3u);
  std::vector<OpKind> kinds;
  for (auto v : r.findings.cycle) kinds.push_back(r.graph.kind(v));
  EXPECT_EQ(kinds, (std::vector<OpKind>{OpKind::task, OpKind::merge, OpKind::trigger}));
  EXPECT_TRUE(topological_order(r.graph).empty());
}

TEST(GraphBuilder, SixtyFourBitIdsGiveOwnerNodes) {
  // 64-bit layout: 16 node bits at 59..44. Processor on node 3, event created on node 2.
  auto trace = make_trace({{2, {"Processor: 8000300000000000 1",
                                "Task Request: 5 8000300000000000 (2000200000000001,1) (0,0) (0,0) 0 (nil) 0",
                                "Barrier Creation: 2000500000000007 1", "Barrier Arrive: (2000500000000007,1) (0,0) (0,0) 1"}}});
  ASSERT_EQ(trace.width, core::IdWidth::bits64);
  auto r = build_event_graph(trace);
  EXPECT_EQ(r.graph.node(vertex_of(r.graph, OpKind::task, 0x2000200000000001, 1)), 3u);
  EXPECT_EQ(r.graph.node(vertex_of(r.graph, OpKind::barrier_phase, 0x2000500000000007, 1)), 5u);
}

TEST(GraphBuilder, RealTracesHaveOnlyTheExpectedFindings) {
  const std::string root = RR_SOURCE_DIR "/data/traces/real/";
  {
    auto trace = parser::read_trace({root + "full_ghost_b2_cpu2"}, {});
    ASSERT_TRUE(trace.ok());
    auto r = build_event_graph(*trace);
    EXPECT_EQ(r.findings.total(), 0u);
    EXPECT_EQ(r.findings.pre_first_phase_references, 8u);
    EXPECT_EQ(r.graph.vertex_count(), 823u + 80 + 340 + 650 + 76 + 76 + 4);
  }
  {
    auto trace = parser::read_trace({root + "full_circuit_2node_p4_cpu2"}, {});
    ASSERT_TRUE(trace.ok());
    auto r = build_event_graph(*trace);
    EXPECT_TRUE(r.findings.cycle.empty());
    // Tasks still pending when the run ended (see the pending-event dump) have no Task Time.
    EXPECT_EQ(r.findings.count(core::Stat::task_without_time), 46u);
    EXPECT_EQ(r.findings.count(core::Stat::external_event), 102u);
    EXPECT_EQ(r.findings.count(core::Stat::duplicate_producer), 0u);
    EXPECT_EQ(r.findings.count(core::Stat::merge_count_mismatch), 0u);
  }
}

}  // namespace
}  // namespace rr::graph
