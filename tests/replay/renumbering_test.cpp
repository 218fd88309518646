// The renumbered graphs of bench_replay's layout experiments (tests/perf/renumbered_graph.hpp) are the same
// graph: a replay of one gives every operation the times it has in the other, so the timings they measure
// compare like with like.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>

#include "perf/renumbered_graph.hpp"
#include "replay/replay_engine.hpp"
#include "session/session.hpp"

namespace rr::replay {
namespace {

using graph::VertexId;

// Every operation of `original`, found in `renumbered` by what it is (kind, event, node, place among its
// issuer's actions, and a task's Task Time), has the same start and end in both replays.
void expect_same_schedule(const graph::EventGraph& original, const ReplayResult& a, const graph::EventGraph& renumbered,
                          const ReplayResult& b) {
  ASSERT_EQ(original.vertex_count(), renumbered.vertex_count());
  EXPECT_EQ(renumbered.structure_problem(), "");
  EXPECT_EQ(a.makespan_ns, b.makespan_ns);
  EXPECT_EQ(a.operations, b.operations);
  EXPECT_EQ(a.stuck, b.stuck);
  // Each operation keeps its identity (kind, event, node, attributes) and its times.
  std::map<std::tuple<int, std::uint64_t, std::uint32_t, std::uint32_t, std::uint32_t, std::int64_t>, std::pair<TimeNs, TimeNs>> times;
  auto key = [](const graph::EventGraph& g, VertexId v) {
    const bool task = g.kind(v) == graph::OpKind::task || g.kind(v) == graph::OpKind::background;
    return std::make_tuple(static_cast<int>(g.kind(v)), g.event(v).id(), std::uint32_t{g.event(v).gen}, g.node(v), g.position(v),
                           task ? g.task(v).time_ns : std::int64_t{0});
  };
  for (VertexId v = 0; v < original.vertex_count(); ++v) times[key(original, v)] = {a.start(v), a.end(v)};
  ASSERT_EQ(times.size(), original.vertex_count()) << "the key names every operation once";
  for (VertexId v = 0; v < renumbered.vertex_count(); ++v) {
    auto it = times.find(key(renumbered, v));
    ASSERT_NE(it, times.end());
    EXPECT_EQ(it->second, std::make_pair(b.start(v), b.end(v))) << "vertex " << v;
  }
}

TEST(Renumbering, StartOrderAndInterleavingReplayToTheSameSchedule) {
  const std::string trace_path = RR_SOURCE_DIR "/data/traces/s3d/dme_mixed_4n";
  auto trace = session::load_trace({trace_path}, {});
  ASSERT_TRUE(trace.ok());
  auto run = session::replay_trace(*trace, {RR_SOURCE_DIR "/data/machines/titan.toml", {}}, {});
  ASSERT_TRUE(run.ok());
  const graph::EventGraph& g = trace->graph();

  const graph::EventGraph ordered = bench::in_start_order(g, run->result.ops);
  auto again = run_replay(ordered, run->map, run->model, {});
  ASSERT_TRUE(again.ok());
  expect_same_schedule(g, run->result, ordered, *again);
  // The start order is what it says: start times never decrease along the new numbering.
  for (VertexId v = 1; v < ordered.vertex_count(); ++v)
    if (again->start(v) >= 0) {
      EXPECT_LE(again->start(v - 1), again->start(v)) << v;
    }

  const graph::EventGraph mixed = bench::interleaved(g);
  auto third = run_replay(mixed, run->map, run->model, {});
  ASSERT_TRUE(third.ok());
  expect_same_schedule(g, run->result, mixed, *third);
}

}  // namespace
}  // namespace rr::replay
