// Work from spans (graph/prof_span_work.hpp) on hand-made records; every share is worked out beside it.
#include <gtest/gtest.h>

#include "graph/prof_graph_builder.hpp"
#include "graph/prof_span_work.hpp"
#include "support/prof_records_builder.hpp"

namespace rr::graph {
namespace {

using core::ProfWorkKind;
using namespace rr::testing::prof;  // NOLINT: the records' vocabulary

// A (task on CPU0) runs 0..100. B (meta-task on the utility processor) runs 50..150 and waits 60..90. The
// program's own thread spans it all and takes no core. Threads running: 1 on 0..50, 2 on 50..60, 1 on 60..90,
// 2 on 90..100, 1 on 100..150. On one core each of two runs at 1/2:
//   A: 50 + 10/2 + 30 + 10/2 = 90 of 100       -> 10 not worked
//   B: 10/2 + 10/2 + 50 = 60 of its 70 running  -> 10 not worked
core::ProfileRecords two_threads() {
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::implicit_task, kCpu1, ev(9), 0, 0, 0, 150));
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 0, 0, 0, 100));
  p.work.push_back(work(ProfWorkKind::meta_task, kUtil0, ev(2), 50, 50, 50, 150));
  add_waits(p, {wait_on(ev(7), 60, 80, 90)});
  return p;
}

TEST(SpanWork, TimeNotWorkedFollowsTheLogsOwnTimeline) {
  const auto p = two_threads();
  const auto one = span_time_not_worked(p, 1);
  ASSERT_EQ(one.size(), 3u);
  EXPECT_EQ(one[0], 0);  // the program's own thread
  EXPECT_EQ(one[1], 10);
  EXPECT_EQ(one[2], 10);
  // Two cores: never more threads than cores, spans are work.
  for (TimeNs lost : span_time_not_worked(p, 2)) EXPECT_EQ(lost, 0);
  for (TimeNs lost : span_time_not_worked(p, 0)) EXPECT_EQ(lost, 0);
}

TEST(SpanWork, TheGraphTakesTheWorkAsTaskTime) {
  BuildOptions options;
  options.traced_cores = 1;
  auto r = build_profile_graph(trace_of({two_threads()}), options);
  const EventGraph& g = r.graph;
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    if (g.kind(v) != OpKind::task) continue;
    if (g.event(v) == key(ev(1))) EXPECT_EQ(g.task(v).time_ns, 90);  // 100 - 100 x 0.1
    // B: span 100 less 1/7 of its 70 running: 90, so that its busy time (less the 30 of waits) is 60.
    if (g.event(v) == key(ev(2))) EXPECT_EQ(g.task(v).time_ns, 90);
    if (g.event(v) == key(ev(9))) EXPECT_EQ(g.task(v).time_ns, 150);
  }
  auto plain = build_profile_graph(trace_of({two_threads()}));
  for (VertexId v = 0; v < plain.graph.vertex_count(); ++v)
    if (plain.graph.kind(v) == OpKind::task && plain.graph.event(v) == key(ev(1))) EXPECT_EQ(plain.graph.task(v).time_ns, 100);
}

// Start-up silences: CPU0's first task runs 0..100 ms with nothing else logged from 10 to 70 ms (a silence in its
// first item: a start-up); later, its second task runs alone 200..300 ms with nothing logged from 210 to 290 (a
// silence too, but not in a first item: not a start-up). The utility processor's first meta-task runs 100..101 and
// the silence after its stop, 101..140, is its start-up. The start-ups measured take 60 and 39 ms, in that order.
TEST(SpanWork, StartUpSilencesAreThoseOfAProcessorsFirstItem) {
  constexpr TimeNs ms = 1'000'000;
  auto p = with_processors();
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(1), 0, 0, 0, 100 * ms));
  p.work.push_back(work(ProfWorkKind::task, kCpu0, ev(2), 5 * ms, 5 * ms, 200 * ms, 300 * ms));
  p.work.push_back(work(ProfWorkKind::meta_task, kUtil0, ev(3), 10 * ms, 10 * ms, 100 * ms, 101 * ms));
  p.work.push_back(work(ProfWorkKind::meta_task, kUtil0, ev(4), 70 * ms, 70 * ms, 140 * ms, 150 * ms));
  p.work.push_back(work(ProfWorkKind::meta_task, kUtil0, ev(5), 210 * ms, 210 * ms, 290 * ms, 291 * ms));
  const auto windows = silent_windows(p);
  ASSERT_EQ(windows.size(), 2u);
  EXPECT_EQ(windows[0].from, 10 * ms);
  EXPECT_EQ(windows[0].to, 70 * ms);
  EXPECT_EQ(windows[0].processor, kCpu0);
  EXPECT_EQ(windows[1].from, 101 * ms);
  EXPECT_EQ(windows[1].to, 140 * ms);
  EXPECT_EQ(windows[1].processor, kUtil0);
  const MeasuredStartUps measured = measured_start_ups({windows});
  EXPECT_EQ(measured.in_order, (std::vector<TimeNs>{60 * ms, 39 * ms}));
  EXPECT_EQ(measured.silences, 2u);
  EXPECT_EQ(measured.typical, 39 * ms);  // a later start-up: the one after the first
  // The start-up is no work of CPU0's first task: 60 ms of its 100 were not worked.
  EXPECT_EQ(span_time_not_worked(p, 1, windows)[0], 60 * ms);
  EXPECT_EQ(silent_overlap(windows, 0, 120 * ms), 60 * ms + 19 * ms);
}

// Several logs (processes): a node's k-th start-up is the lower median of the logs' k-th silences, over the logs
// that have one. A start-up none measured is a later one: the lower median of the silences after each log's first,
// which one long silence (a start-up slowed by threads spinning beside it) does not move as the mean would.
TEST(SpanWork, MeasuredStartUpsKeepTheirOrderAndTheTypicalOneIsALaterOnesMedian) {
  constexpr TimeNs ms = 1'000'000;
  auto window = [](TimeNs from, TimeNs length) { return SilentWindow{from, from + length, 1}; };
  const MeasuredStartUps m = measured_start_ups(
      {{window(0, 60 * ms), window(100 * ms, 39 * ms), window(200 * ms, 200 * ms), window(500 * ms, 45 * ms)},
       {window(0, 50 * ms), window(100 * ms, 41 * ms)},
       {}});
  // k = 0: 60 and 50 (the shorter); k = 1: 39 and 41; k = 2: 200; k = 3: 45.
  EXPECT_EQ(m.in_order, (std::vector<TimeNs>{50 * ms, 39 * ms, 200 * ms, 45 * ms}));
  EXPECT_EQ(m.silences, 6u);
  EXPECT_EQ(m.typical, 41 * ms);  // of the later 39, 41, 45 and 200; their mean would be 81 ms
  // A log of one start-up: it is the typical one too.
  EXPECT_EQ(measured_start_ups({{window(0, 55 * ms)}}).typical, 55 * ms);
  EXPECT_EQ(measured_start_ups({{}, {}}).silences, 0u);
  EXPECT_EQ(measured_start_ups({{}, {}}).typical, 0);
}

}  // namespace
}  // namespace rr::graph
