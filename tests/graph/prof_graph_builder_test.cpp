// Unit tests of the Legion Prof event-graph builder (graph/src/prof/prof_graph_builder.cpp): each rule of
// docs/legion-prof.md on a hand-made core::ProfileRecords, built as structs (no bytes, no reader). Every expected
// number is worked out from the records in the comment next to it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "graph/prof_graph_builder.hpp"
#include "support/prof_records_builder.hpp"

namespace rr::graph {
namespace {

using core::ProfEvent;
using core::ProfWorkKind;
using core::TimeNs;

using namespace rr::testing::prof;  // NOLINT: the records' vocabulary


VertexId find(const EventGraph& g, OpKind kind, ProfEvent e) {
  VertexId found = kNoVertex;
  for (VertexId v = 0; v < g.vertex_count(); ++v)
    if (g.kind(v) == kind && g.event(v) == key(e)) {
      EXPECT_EQ(found, kNoVertex) << "two " << op_kind_name(kind) << " vertices for " << core::to_string(key(e));
      found = v;
    }
  if (found == kNoVertex) ADD_FAILURE() << "no " << op_kind_name(kind) << " vertex for " << core::to_string(key(e));
  return found;
}

std::size_t count_kind(const EventGraph& g, OpKind kind) {
  std::size_t n = 0;
  for (VertexId v = 0; v < g.vertex_count(); ++v) n += g.kind(v) == kind;
  return n;
}

bool has_edge(const EventGraph& g, VertexId from, VertexId to, EdgeKind kind) {
  if (from == kNoVertex || to == kNoVertex) return false;
  auto succ = g.successors(from);
  auto kinds = g.successor_kinds(from);
  for (std::size_t i = 0; i < succ.size(); ++i)
    if (succ[i] == to && kinds[i] == kind) return true;
  return false;
}

// The predecessors of v as (from, kind) pairs, sorted, for whole-set comparisons.
std::vector<std::pair<VertexId, EdgeKind>> preds(const EventGraph& g, VertexId v) {
  std::vector<std::pair<VertexId, EdgeKind>> out;
  auto p = g.predecessors(v);
  auto k = g.predecessor_kinds(v);
  for (std::size_t i = 0; i < p.size(); ++i) out.emplace_back(p[i], k[i]);
  std::sort(out.begin(), out.end());
  return out;
}

using EdgeList = std::vector<std::pair<VertexId, EdgeKind>>;
EdgeList sorted(EdgeList edges) {
  std::sort(edges.begin(), edges.end());
  return edges;
}

bool has_note(const GraphFindings& f, const std::string& text) {
  for (const auto& n : f.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

// ---- 1. work items, critical, creator and where in the creator an action happened ----

// T (task 11 on CPU0) runs 1000..2000 and waits 1200..1400 on A: busy = 2000 - 1000 - 200 = 800.
// It creates A (task 12 on node 1's CPU) at 1100 and B (meta-task 7 on the utility processor, critical = A's
// fevent) at 1600.
TEST(ProfGraphBuilder, WorkItemsCriticalAndCreatorWithIssueFractions) {
  auto p = with_processors();
  p.strings = {"first", "second", "third", "MetaKind7"};
  // TaskKind overwrite rule: "first", replaced by the overwriting "second", not by the plain "third".
  p.task_kinds = {{11, 0, false}, {11, 1, true}, {11, 2, false}};
  p.meta_kinds = {{7, 3, false, false}};
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 900, 950, 1000, 2000, {}, {}, 11));
  add_waits(p, {wait_on(ev(2), 1200, 1300, 1400)});
  p.work.push_back(work(ProfWorkKind::task, kCpuNode1, ev(2), 1100, 1100, 1150, 1190, ev(1), {}, 12));
  p.work.push_back(work(ProfWorkKind::meta_task, kUtil0, ev(3), 1600, 1610, 1700, 1800, ev(1), ev(2), 7));
  auto r = build_profile_graph(trace_of({p}));
  const EventGraph& g = r.graph;

  // T, A, B and T's one resume segment.
  ASSERT_EQ(g.vertex_count(), 4u);
  const VertexId t = find(g, OpKind::task, ev(1));
  const VertexId a = find(g, OpKind::task, ev(2));
  const VertexId b = find(g, OpKind::task, ev(3));
  const VertexId resume = find(g, OpKind::task_resume, ev(1));
  ASSERT_NE(resume, kNoVertex);

  EXPECT_EQ(g.task(t).func_id, 11u);
  EXPECT_EQ(g.task(t).time_ns, 1000);                 // 2000 - 1000
  EXPECT_EQ(g.task(a).time_ns, 40);                   // 1190 - 1150
  EXPECT_EQ(g.task(b).func_id, kMetaFunction + 7u);   // meta-tasks are numbered 0x40000000 + lg_id
  EXPECT_EQ(g.task(b).time_ns, 100);                  // 1800 - 1700
  EXPECT_EQ(g.task(b).processor, core::Handle::make(kUtil0));
  EXPECT_EQ(g.function_name(11), "second");
  EXPECT_EQ(g.function_name(kMetaFunction + 7), "MetaKind7");
  EXPECT_EQ(g.node(t), 0u);
  EXPECT_EQ(g.node(a), 1u);  // from its processor's id (bits 40-55), not from the file's node 0

  // Program order of T: A at 1100, its wait at 1200, B at 1600: three actions.
  EXPECT_EQ(g.task(t).action_count, 3u);
  EXPECT_EQ(g.position(a), 0u);
  EXPECT_EQ(g.position(b), 2u);
  ASSERT_EQ(g.waits_of(t).size(), 1u);
  EXPECT_EQ(g.waits_of(t)[0].position, 1u);
  EXPECT_FLOAT_EQ(g.issue_fraction(a), 0.125f);            // (1100 - 1000 - 0) / 800
  EXPECT_FLOAT_EQ(g.waits_of(t)[0].fraction, 0.25f);       // (1200 - 1000 - 0) / 800
  EXPECT_FLOAT_EQ(g.issue_fraction(b), 0.5f);              // (1600 - 1000 - 200 waited before) / 800
  EXPECT_FLOAT_EQ(g.issue_fraction(t), -1.0f);             // launched by no one

  EXPECT_EQ(g.issuer(a), t);
  EXPECT_EQ(g.issuer(b), t);  // the issuer is the first segment...
  EXPECT_EQ(g.issuer(t), kNoVertex);
  EXPECT_TRUE(has_edge(g, t, a, EdgeKind::issue));
  EXPECT_TRUE(has_edge(g, resume, b, EdgeKind::issue));  // ...the edge leaves the segment after the wait
  EXPECT_TRUE(has_edge(g, a, b, EdgeKind::precondition));  // B's critical is A's fevent
  EXPECT_TRUE(has_edge(g, a, resume, EdgeKind::wait));
  EXPECT_EQ(preds(g, b), sorted({{a, EdgeKind::precondition}, {resume, EdgeKind::issue}}));
  EXPECT_EQ(r.findings.total(), 0u);
}

// ---- 2. mergers and completion queues ----

// M is logged as two records of one result: inputs {E2, E3, E2} and {E3, E4}: three distinct inputs. Q is a
// completion queue on {E2, E3}. X's critical is M, Y's is Q.
TEST(ProfGraphBuilder, MergerRecordsOfOneResultAreOneMergeAndCompletionQueueIsFirstOf) {
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 0, 0, 0, 1000));
  for (std::uint64_t i = 2; i <= 4; ++i)
    p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(i), 100, 100, 100 * i, 100 * i + 50, ev(1)));
  p.mergers.push_back(merger(ev(10), ev(1), 500, {ev(2), ev(3), ev(2), {}}));
  p.mergers.push_back(merger(ev(10), ev(1), 500, {ev(3), ev(4), {}, {}}));
  p.completion_queues.push_back(merger(ev(11), ev(1), 600, {ev(2), ev(3), {}, {}}));
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(5), 700, 700, 1000, 1100, ev(1), ev(10)));
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(6), 700, 700, 1100, 1200, ev(1), ev(11)));
  auto r = build_profile_graph(trace_of({p}));
  const EventGraph& g = r.graph;

  EXPECT_EQ(count_kind(g, OpKind::merge), 1u);
  EXPECT_EQ(count_kind(g, OpKind::first_of), 1u);
  const VertexId m = find(g, OpKind::merge, ev(10));
  const VertexId q = find(g, OpKind::first_of, ev(11));
  const VertexId e2 = find(g, OpKind::task, ev(2)), e3 = find(g, OpKind::task, ev(3)), e4 = find(g, OpKind::task, ev(4));
  ASSERT_NE(m, kNoVertex);
  ASSERT_NE(q, kNoVertex);
  EXPECT_EQ(g.payload(m), 3u);  // {E2, E3, E4}: E2 and E3 listed twice count once
  EXPECT_EQ(preds(g, m), sorted({{e2, EdgeKind::merge_input}, {e3, EdgeKind::merge_input}, {e4, EdgeKind::merge_input}}));
  EXPECT_EQ(preds(g, q), sorted({{e2, EdgeKind::merge_input}, {e3, EdgeKind::merge_input}}));
  // Requested by T, but a merge fires on its inputs alone: no issuer, no issue edge.
  EXPECT_EQ(g.issuer(m), kNoVertex);
  EXPECT_EQ(g.issuer(q), kNoVertex);
  EXPECT_TRUE(has_edge(g, m, find(g, OpKind::task, ev(5)), EdgeKind::precondition));
  EXPECT_TRUE(has_edge(g, q, find(g, OpKind::task, ev(6)), EdgeKind::precondition));
  EXPECT_EQ(r.findings.total(), 0u);
}

// ---- 3. triggers ----

// T (CPU0, 1000..2000) triggers U at 1300 once P (CPU1) has finished; both nodes log the trigger. W on node 1
// waits for U.
TEST(ProfGraphBuilder, TriggerLaunchedByItsTaskAndLoggedByTwoNodesCountsOnce) {
  auto p0 = with_processors();
  p0.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 0, 0, 1000, 2000));
  p0.work.push_back(work(ProfWorkKind::task, kCpu1, ev(2), 1000, 1000, 1000, 1200));
  p0.triggers.push_back({ev(20), ev(1), ev(2), 1300});
  core::ProfileRecords p1;
  p1.processors = {{core::Handle::make(kCpuNode1), core::RealmProcKind::cpu}};
  p1.triggers.push_back({ev(20), ev(1), ev(2), 1300});
  p1.work.push_back(work(ProfWorkKind::task, kCpuNode1, ev(3), 1000, 1400, 1500, 1600, {}, ev(20)));
  auto r = build_profile_graph(trace_of({p0, p1}));
  const EventGraph& g = r.graph;

  EXPECT_EQ(count_kind(g, OpKind::trigger), 1u);
  const VertexId t = find(g, OpKind::task, ev(1));
  const VertexId u = find(g, OpKind::trigger, ev(20));
  ASSERT_NE(u, kNoVertex);
  EXPECT_EQ(g.node(u), 0u);  // the first file's
  EXPECT_EQ(g.issuer(u), t);
  EXPECT_TRUE(has_edge(g, t, u, EdgeKind::issue));
  EXPECT_FLOAT_EQ(g.issue_fraction(u), 0.3f);  // (1300 - 1000) / (2000 - 1000)
  EXPECT_TRUE(has_edge(g, find(g, OpKind::task, ev(2)), u, EdgeKind::precondition));
  EXPECT_TRUE(has_edge(g, u, find(g, OpKind::task, ev(3)), EdgeKind::precondition));
  EXPECT_EQ(r.findings.count(core::Stat::duplicate_producer), 0u);
  EXPECT_EQ(r.findings.total(), 0u);
}

// ---- 4. barrier arrivals and phases ----

// Barrier 5 owned by node 1. Generation 1: arrivals by T at 1200 (logged by both files: one arrival) and by S
// at 1300 once E4 fired; generation 2: T's arrival at 1500.
TEST(ProfGraphBuilder, ArrivalsFeedOnePhasePerGenerationAndRepeatsCountOnce) {
  const ProfEvent g1 = barrier(1, 5, 1), g2 = barrier(1, 5, 2);
  auto p0 = with_processors();
  p0.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 0, 0, 1000, 2000));
  p0.work.push_back(work(ProfWorkKind::task, kCpu1, ev(2), 0, 0, 1000, 2000));
  p0.work.push_back(work(ProfWorkKind::task, kUtil0, ev(4), 0, 0, 1000, 1100));
  p0.arrivals.push_back({g1, ev(1), {}, 1200});
  p0.arrivals.push_back({g1, ev(2), ev(4), 1300});
  p0.arrivals.push_back({g2, ev(1), {}, 1500});
  core::ProfileRecords p1;
  p1.arrivals.push_back({g1, ev(1), {}, 1200});  // the same arrival, logged by the barrier's owner
  auto r = build_profile_graph(trace_of({p0, p1}));
  const EventGraph& g = r.graph;

  EXPECT_EQ(count_kind(g, OpKind::barrier_arrive), 3u);  // 4 records, one a repeat
  EXPECT_EQ(count_kind(g, OpKind::barrier_phase), 2u);
  const VertexId ph1 = find(g, OpKind::barrier_phase, g1);
  const VertexId ph2 = find(g, OpKind::barrier_phase, g2);
  ASSERT_NE(ph1, kNoVertex);
  ASSERT_NE(ph2, kNoVertex);
  EXPECT_EQ(g.event(ph1), core::EventKey::make(g1.id & ~0xfffffull, 1));
  EXPECT_EQ(g.node(ph1), 1u);  // the owner node in bits 44-59 of the barrier id
  EXPECT_EQ(g.phase(ph1).required, 2);
  EXPECT_EQ(g.phase(ph1).arrived, 2);
  EXPECT_TRUE(g.phase(ph1).first);
  EXPECT_EQ(g.phase(ph2).required, 1);
  EXPECT_FALSE(g.phase(ph2).first);
  EXPECT_TRUE(has_edge(g, ph1, ph2, EdgeKind::phase_order));
  std::size_t arrivals_into_ph1 = 0;
  for (auto [from, kind] : preds(g, ph1)) {
    EXPECT_EQ(kind, EdgeKind::arrival);
    EXPECT_EQ(g.kind(from), OpKind::barrier_arrive);
    ++arrivals_into_ph1;
  }
  EXPECT_EQ(arrivals_into_ph1, 2u);
  // Each arrival is launched by its task; S's waits for E4.
  const VertexId t = find(g, OpKind::task, ev(1)), s = find(g, OpKind::task, ev(2));
  std::size_t by_t = 0, by_s = 0;
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    if (g.kind(v) != OpKind::barrier_arrive) continue;
    by_t += g.issuer(v) == t;
    by_s += g.issuer(v) == s;
    if (g.issuer(v) == s) {
      EXPECT_TRUE(has_edge(g, find(g, OpKind::task, ev(4)), v, EdgeKind::precondition));
      EXPECT_FLOAT_EQ(g.issue_fraction(v), 0.3f);  // (1300 - 1000) / (2000 - 1000)
    }
  }
  EXPECT_EQ(by_t, 2u);  // generation 1 and generation 2
  EXPECT_EQ(by_s, 1u);
  EXPECT_EQ(r.findings.total(), 0u);
}

// ---- 5. waits split a task ----

// T (CPU0) runs 1000..3000 and waits 1200..1500 on A, 2200..2900 on B: busy = 2000 - 300 - 700 = 1000.
// Origin: T's start 1000 (A starts 1100, B 1600).
TEST(ProfGraphBuilder, WaitsSplitTaskIntoSegmentsResumedAtWaitEnd) {
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 1000, 1000, 1000, 3000));
  add_waits(p, {wait_on(ev(2), 1200, 1400, 1500), wait_on(ev(3), 2200, 2800, 2900)});
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(2), 1100, 1100, 1100, 1400));
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(3), 1600, 1600, 1600, 2800));
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(4), 1600, 3000, 3000, 3100, {}, ev(1)));
  auto r = build_profile_graph(trace_of({p}));
  const EventGraph& g = r.graph;

  const VertexId t = find(g, OpKind::task, ev(1));
  const VertexId a = find(g, OpKind::task, ev(2)), b = find(g, OpKind::task, ev(3)), x = find(g, OpKind::task, ev(4));
  EXPECT_EQ(count_kind(g, OpKind::task_resume), 2u);
  auto waits = g.waits_of(t);
  ASSERT_EQ(waits.size(), 2u);
  const VertexId r1 = waits[0].resume, r2 = waits[1].resume;
  ASSERT_NE(r1, kNoVertex);
  ASSERT_NE(r2, kNoVertex);
  EXPECT_EQ(g.kind(r1), OpKind::task_resume);
  EXPECT_EQ(g.kind(r2), OpKind::task_resume);
  EXPECT_EQ(g.resume_wait(r1).task, t);
  EXPECT_EQ(waits[0].wait_ns, 300);  // 1500 - 1200
  EXPECT_EQ(waits[1].wait_ns, 700);  // 2900 - 2200
  EXPECT_EQ(g.wait_ns(t), 1000);
  EXPECT_EQ(waits[0].awaited, a);
  EXPECT_EQ(waits[1].awaited, b);
  EXPECT_FLOAT_EQ(waits[0].fraction, 0.2f);  // (1200 - 1000 - 0) / 1000
  EXPECT_FLOAT_EQ(waits[1].fraction, 0.9f);  // (2200 - 1000 - 300) / 1000
  EXPECT_EQ(preds(g, r1), sorted({{t, EdgeKind::continuation}, {a, EdgeKind::wait}}));
  EXPECT_TRUE(has_edge(g, r1, r2, EdgeKind::continuation));
  EXPECT_TRUE(has_edge(g, b, r2, EdgeKind::wait));
  // T's finish event fires when its last segment ends.
  EXPECT_TRUE(has_edge(g, r2, x, EdgeKind::precondition));
  EXPECT_FALSE(has_edge(g, t, x, EdgeKind::precondition));

  EXPECT_EQ(g.observed_origin(), 1000);
  EXPECT_EQ(g.observed_start(t), 0);       // 1000 - 1000
  EXPECT_EQ(g.observed_start(r1), 500);    // wait end 1500 - 1000
  EXPECT_EQ(g.observed_start(r2), 1900);   // wait end 2900 - 1000
  EXPECT_EQ(g.observed_end(t), 2000);      // 3000 - 1000
  EXPECT_EQ(r.findings.total(), 0u);
}

// ---- 6. the origin of observed times ----

// The program's own thread I starts at 100; a copy C at 400, a task T at 500: the origin is 400.
TEST(ProfGraphBuilder, OriginIsEarliestStartOutsideTheProgramsOwnThread) {
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::implicit_task, kCpu0, ev(1), 100, 100, 100, 10000));
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(2), 450, 480, 500, 900, ev(1)));
  core::ProfCopy c{};
  c.fevent = ev(3);
  c.creator = ev(1);
  c.size = 64;
  c.create = 380;
  c.ready = 390;
  c.start = 400;
  c.stop = 450;
  p.copies.push_back(c);
  auto r = build_profile_graph(trace_of({p}));
  const EventGraph& g = r.graph;

  const VertexId i = find(g, OpKind::task, ev(1)), t = find(g, OpKind::task, ev(2)), cv = find(g, OpKind::copy, ev(3));
  EXPECT_EQ(g.observed_origin(), 400);
  EXPECT_EQ(g.observed_start(cv), 0);      // 400 - 400
  EXPECT_EQ(g.observed_end(cv), 50);       // 450 - 400
  EXPECT_EQ(g.observed_start(t), 100);     // 500 - 400
  EXPECT_EQ(g.observed_end(t), 500);       // 900 - 400
  EXPECT_EQ(g.observed_start(i), 0);       // 100 - 400 < 0: what started before the origin counts as 0 (-1 means unknown)
  EXPECT_EQ(g.observed_end(i), 9600);      // 10000 - 400
  EXPECT_EQ(g.copy(cv).bytes, 64u);
  EXPECT_EQ(std::vector<VertexId>(g.outside_work().begin(), g.outside_work().end()), std::vector<VertexId>{i});

  // Only the program's own thread: no origin, times as logged.
  auto q = with_processors();
  q.work.push_back(work(ProfWorkKind::implicit_task, kCpu0, ev(1), 100, 100, 100, 10000));
  auto only = build_profile_graph(trace_of({q}));
  EXPECT_EQ(only.graph.observed_origin(), 0);
  EXPECT_EQ(only.graph.observed_start(0), 100);
}

// ---- 7. events no record produces ----

// A (CPU0) runs 1000..1300: the origin is 1000, A fired at 300. M merges A and EXT, which nothing produces.
// X (critical M, launched by no one) became ready at 1700 = 700: 700 - max(0, 300) = 400 after its inputs.
// Y (critical EXT directly) ready at 1100 = 100: 100 - 0 = 100. Z (critical M) ready at 1200 = 200, before M's
// recorded input fired at 300: 200 - 300 < 0, clamped to 0.
TEST(ProfGraphBuilder, ExternalEventGivesMeasuredDelayAfterRecordedInputs) {
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 1000, 1000, 1000, 1300));
  p.mergers.push_back(merger(ev(10), {}, 1000, {ev(1), ev(99), {}, {}}));
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(2), 1050, 1700, 1750, 1850, {}, ev(10)));
  p.work.push_back(work(ProfWorkKind::task, kUtil0, ev(3), 1050, 1100, 1100, 1150, {}, ev(99)));
  p.work.push_back(work(ProfWorkKind::task, kUtil0, ev(4), 1050, 1200, 1200, 1250, {}, ev(10)));
  auto r = build_profile_graph(trace_of({p}));
  const EventGraph& g = r.graph;

  EXPECT_EQ(g.observed_origin(), 1000);
  const VertexId a = find(g, OpKind::task, ev(1)), m = find(g, OpKind::merge, ev(10));
  const VertexId x = find(g, OpKind::task, ev(2)), y = find(g, OpKind::task, ev(3)), z = find(g, OpKind::task, ev(4));
  EXPECT_EQ(g.external_delay(x), 400);
  EXPECT_EQ(g.external_delay(y), 100);
  EXPECT_EQ(g.external_delay(z), 0);
  EXPECT_EQ(g.external_delay(a), 0);  // all its inputs are recorded (it has none)
  EXPECT_EQ(g.external_delay(m), 0);  // pass-through vertices carry no delay themselves
  EXPECT_EQ(preds(g, m), sorted({{a, EdgeKind::merge_input}}));
  EXPECT_EQ(r.findings.count(core::Stat::external_event), 1u);  // one distinct event...
  EXPECT_EQ(r.findings.external_references, 2u);                // ...referenced by M and by Y
}

// The delay is measured from the operation's launch, not from its creator's end: T (CPU0, 1000..2000) creates X
// at 1100 (observed 100); X waits on EXT, which nothing produces, and became ready at 1500 (observed 500).
// Expected (docs/legion-prof.md): 500 - max(launch 100, no recorded input) = 400.
// (Regression: the builder once took the issue edge from T as an input at T's observed end, 1000, and computed
// max(0, 500 - 1000) = 0, making X ready at its launch.)
TEST(ProfGraphBuilder, ExternalDelayOfLaunchedOperationCountsFromItsLaunchNotItsCreatorsEnd) {
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 1000, 1000, 1000, 2000));
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(2), 1100, 1500, 1500, 1600, ev(1), ev(99)));
  auto r = build_profile_graph(trace_of({p}));
  const EventGraph& g = r.graph;
  const VertexId x = find(g, OpKind::task, ev(2));
  EXPECT_FLOAT_EQ(g.issue_fraction(x), 0.1f);  // (1100 - 1000) / 1000
  EXPECT_EQ(g.external_delay(x), 400);
}

// Observed fire times propagate through triggers: T (CPU0, 1000..2000; origin 1000) performs trigger U at 1300
// (300), but U's precondition P (CPU1) ended at 1800 (800): U fired at max(300, 800) = 800. M merges U and EXT;
// X (critical M) became ready at 2000 (1000): 1000 - 800 = 200.
TEST(ProfGraphBuilder, ExternalDelayCountsFromATriggersPreconditionWhenLaterThanPerformed) {
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 1000, 1000, 1000, 2000));
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(2), 1000, 1000, 1000, 1800));
  p.triggers.push_back({ev(20), ev(1), ev(2), 1300});
  p.mergers.push_back(merger(ev(10), {}, 1300, {ev(20), ev(99), {}, {}}));
  p.work.push_back(work(ProfWorkKind::task, kUtil0, ev(3), 1000, 2000, 2000, 2100, {}, ev(10)));
  auto r = build_profile_graph(trace_of({p}));
  EXPECT_EQ(r.graph.external_delay(find(r.graph, OpKind::task, ev(3))), 200);
}

// Through a completion queue, its first input: A (CPU0) ended at 1300 (origin 1000: 300), B (CPU1) at 1800 (800).
// Q (first of A, B) fired at min(300, 800) = 300; M merges Q and EXT; X (critical M) ready at 2000 (1000):
// 1000 - 300 = 700.
TEST(ProfGraphBuilder, ExternalDelayCountsFromACompletionQueuesFirstInput) {
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 1000, 1000, 1000, 1300));
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(2), 1000, 1000, 1000, 1800));
  p.completion_queues.push_back(merger(ev(11), {}, 1000, {ev(1), ev(2), {}, {}}));
  p.mergers.push_back(merger(ev(10), {}, 1000, {ev(11), ev(99), {}, {}}));
  p.work.push_back(work(ProfWorkKind::task, kUtil0, ev(3), 1000, 2000, 2000, 2100, {}, ev(10)));
  auto r = build_profile_graph(trace_of({p}));
  EXPECT_EQ(r.graph.external_delay(find(r.graph, OpKind::task, ev(3))), 700);
}

// The same through a barrier arrival: T arrives at generation 1 at 1300 (300), once P ended at 1800 (800); the
// phase's only arrival fires at max(300, 800) = 800 ("a trigger or an arrival when performed and its precondition
// fired", prof_graph_builder.cpp). X (critical: a merge of the phase and EXT) ready at 2000 (1000): 1000 - 800 = 200.
// (Regression: own_fire_time once took an arrival's `performed` alone, 300, giving 1000 - 300 = 700.)
TEST(ProfGraphBuilder, ExternalDelayCountsFromAnArrivalsPreconditionWhenLaterThanPerformed) {
  const ProfEvent g1 = barrier(0, 5, 1);
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 1000, 1000, 1000, 2000));
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(2), 1000, 1000, 1000, 1800));
  p.arrivals.push_back({g1, ev(1), ev(2), 1300});
  p.mergers.push_back(merger(ev(10), {}, 1300, {g1, ev(99), {}, {}}));
  p.work.push_back(work(ProfWorkKind::task, kUtil0, ev(3), 1000, 2000, 2000, 2100, {}, ev(10)));
  auto r = build_profile_graph(trace_of({p}));
  EXPECT_EQ(r.graph.external_delay(find(r.graph, OpKind::task, ev(3))), 200);
}

// ---- 8. messages ----

// T (CPU0) runs 1000..2000. Message 1 was sent at 1300 (spawn, the sender's clock) and created at 1800 on the
// receiver's: launched at 0.3. Message 2 has no spawn record: launched at its create 1500, 0.5.
TEST(ProfGraphBuilder, MessageIsLaunchedAtItsSendersSpawnTime) {
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 1000, 1000, 1000, 2000));
  p.work.push_back(work(ProfWorkKind::message, kUtil0, ev(2), 1800, 1850, 1900, 1950, ev(1), {}, 3));
  p.work.back().extra = 0;
  p.spawns.push_back({1, 1300});
  p.work.push_back(work(ProfWorkKind::message, kUtil0, ev(3), 1500, 1950, 1950, 1990, ev(1), {}, 3));
  auto r = build_profile_graph(trace_of({p}));
  const EventGraph& g = r.graph;
  const VertexId t = find(g, OpKind::task, ev(1)), m1 = find(g, OpKind::task, ev(2)), m2 = find(g, OpKind::task, ev(3));
  EXPECT_EQ(g.issuer(m1), t);
  EXPECT_EQ(g.task(m1).func_id, kMetaFunction + 3u);
  EXPECT_FLOAT_EQ(g.issue_fraction(m1), 0.3f);  // (spawn 1300 - 1000) / 1000, not (create 1800 - 1000) / 1000
  EXPECT_FLOAT_EQ(g.issue_fraction(m2), 0.5f);  // (create 1500 - 1000) / 1000
  EXPECT_EQ(g.position(m1), 0u);  // 1300 before 1500 (by create, 1800, it would come second)
  EXPECT_EQ(g.position(m2), 1u);
}

// ---- 9. profiling responses about instances ----

// T (CPU0, 1000..2000) created instance I at 1400 (InstTimelineInfo); the profiler's response P about I
// (creator = I's uid) ran 1900..1950.
TEST(ProfGraphBuilder, ProfilingResponseAboutAnInstanceIsIssuedByTheInstancesCreator) {
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 1000, 1000, 1000, 2000));
  p.work.push_back(work(ProfWorkKind::prof_task, kUtil0, ev(2), 1900, 1900, 1900, 1950, ev(50)));
  core::ProfInstance inst{};
  inst.inst_uid = ev(50);
  inst.inst_id = 7;
  inst.create = 1400;
  inst.ready = 1450;
  inst.destroy = 3000;
  inst.creator = ev(1);
  p.instances.push_back(inst);
  auto r = build_profile_graph(trace_of({p}));
  const EventGraph& g = r.graph;
  const VertexId t = find(g, OpKind::task, ev(1));
  const VertexId pv = find(g, OpKind::background, ev(2));
  ASSERT_NE(pv, kNoVertex);
  EXPECT_EQ(g.issuer(pv), t);
  EXPECT_TRUE(has_edge(g, t, pv, EdgeKind::issue));
  EXPECT_FLOAT_EQ(g.issue_fraction(pv), 0.4f);  // (instance create 1400 - 1000) / 1000
  EXPECT_EQ(g.task(pv).func_id, kProfilerFunction);
  EXPECT_EQ(g.task(pv).time_ns, 50);  // 1950 - 1900
  EXPECT_EQ(g.function_name(kProfilerFunction), "profiler task");
  EXPECT_EQ(g.node(pv), 0u);  // background work: the file's node
  EXPECT_EQ(std::vector<VertexId>(g.outside_work().begin(), g.outside_work().end()), std::vector<VertexId>{pv});
  EXPECT_EQ(r.findings.count(core::Stat::unknown_issuer), 0u);  // the instance uid is no task, yet no finding
  EXPECT_EQ(r.findings.count(core::Stat::external_event), 0u);
}

// ---- 10. the note on logs without the event graph ----

TEST(ProfGraphBuilder, NoteOnlyForLogsWithoutEventGraphRecords) {
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 0, 0, 0, 100));
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(2), 0, 0, 0, 100));
  auto without = build_profile_graph(trace_of({p}));
  EXPECT_TRUE(has_note(without.findings, "without the event graph"));
  EXPECT_EQ(without.findings.notes.size(), 1u);

  p.mergers.push_back(merger(ev(10), ev(1), 50, {ev(1), ev(2), {}, {}}));
  auto with = build_profile_graph(trace_of({p}));
  EXPECT_FALSE(has_note(with.findings, "without the event graph"));
  EXPECT_TRUE(with.findings.notes.empty());
}

// ---- edge cases and findings ----

TEST(ProfGraphBuilder, EmptyProfileBuildsAnEmptyGraph) {
  auto r = build_profile_graph(trace_of({core::ProfileRecords{}}));
  EXPECT_EQ(r.graph.vertex_count(), 0u);
  EXPECT_EQ(r.graph.edge_count(), 0u);
  EXPECT_EQ(r.findings.total(), 0u);
  EXPECT_TRUE(r.findings.notes.empty());  // the note is for logs with work but no event graph
  EXPECT_TRUE(r.findings.cycle.empty());
  EXPECT_EQ(r.graph.observed_origin(), 0);

  auto none = build_profile_graph(trace_of({}));
  EXPECT_EQ(none.graph.vertex_count(), 0u);
}

// X names a creator event no record produces: an unknown_issuer finding, X issued by no one.
TEST(ProfGraphBuilder, CreatorNoRecordProducesIsUnknownIssuer) {
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(2), 100, 100, 100, 200, ev(77)));
  auto r = build_profile_graph(trace_of({p}));
  const EventGraph& g = r.graph;
  ASSERT_EQ(g.vertex_count(), 1u);
  EXPECT_EQ(r.findings.count(core::Stat::unknown_issuer), 1u);
  EXPECT_EQ(g.issuer(0), kNoVertex);
  EXPECT_FLOAT_EQ(g.issue_fraction(0), -1.0f);
  EXPECT_TRUE(g.predecessors(0).empty());
  bool example = false;
  for (const auto& f : r.findings.examples)
    example |= f.kind == core::Stat::unknown_issuer && f.event == key(ev(77));
  EXPECT_TRUE(example);
}

// Unlike a trigger logged twice, two work items with one fevent are a duplicate_producer: the first stays.
TEST(ProfGraphBuilder, TwoWorkItemsWithOneFinishEventAreADuplicateProducer) {
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 0, 0, 0, 100, {}, {}, 1));
  p.work.push_back(work(ProfWorkKind::task, kCpu1, ev(1), 0, 0, 0, 100, {}, {}, 2));
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(2), 0, 100, 100, 200, {}, ev(1)));
  auto r = build_profile_graph(trace_of({p}));
  EXPECT_EQ(r.findings.count(core::Stat::duplicate_producer), 1u);
  // The precondition of ev(2) comes from the first producer (vertex 0, function 1).
  ASSERT_EQ(r.graph.vertex_count(), 3u);
  EXPECT_EQ(r.graph.task(0).func_id, 1u);
  EXPECT_TRUE(has_edge(r.graph, 0, 2, EdgeKind::precondition));
  EXPECT_FALSE(has_edge(r.graph, 1, 2, EdgeKind::precondition));
}

}  // namespace
}  // namespace rr::graph
