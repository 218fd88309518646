// The issue times the critical path recomputes (replay::issue_time, TaskTiming) against the replay itself: every
// operation its issuer released became ready exactly when the engine had the issue reach it. Bundled traces
// of both kinds (text logs; Legion Prof logs with observed issue fractions and background work), with noise,
// with a moved function on a GPU, and under eft placement.
#include <gtest/gtest.h>

#include "replay/task_timing.hpp"
#include "support/replay_fixture.hpp"

namespace rr::replay {
namespace {

struct Case {
  const char* trace;
  const char* what;
  ReplayOptions options;
  std::vector<std::string> moves;
  machine::Placement placement = machine::Placement::traced;
  std::vector<std::string> overrides;
};

// Operations released by their issue whose recomputed issue time is their ready time, and those that are not.
std::pair<std::uint64_t, std::uint64_t> compare_issue_times(const Case& c) {
  auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + c.trace}, {});
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().to_string());
  if (!trace.ok()) return {0, 1};
  session::ReplaySettings settings;
  settings.engine = c.options;
  settings.critical_path = false;
  settings.mapping.placement = c.placement;
  for (const auto& m : c.moves) settings.mapping.moves.push_back(*machine::parse_move(m));
  auto run = session::replay_trace(*trace, {RR_SOURCE_DIR "/data/machines/titan.toml", c.overrides}, settings);
  EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().to_string());
  if (!run.ok()) return {0, 1};
  const graph::EventGraph& g = trace->graph();
  const ReplayResult& r = run->result;
  std::uint64_t same = 0, different = 0;
  for (graph::VertexId v = 0; v < g.vertex_count(); ++v) {
    if (r.release(v) != Release::issue) continue;
    const TimeNs recomputed = issue_time(g, run->map, run->model, r, r.released_by(v), v);
    if (recomputed == r.ready(v)) {
      ++same;
    } else if (++different <= 3) {
      ADD_FAILURE() << c.trace << " (" << c.what << "): vertex " << v << " ready at " << r.ready(v)
                    << ", issue time recomputed as " << recomputed;
    }
  }
  // What issues nothing has no issue time: the first operation that is neither a task segment nor background.
  for (graph::VertexId v = 0; v < g.vertex_count(); ++v) {
    const graph::OpKind k = g.kind(v);
    if (k == graph::OpKind::task || k == graph::OpKind::task_resume || k == graph::OpKind::background) continue;
    EXPECT_EQ(issue_time(g, run->map, run->model, r, v, v), kNever) << c.trace;
    break;
  }
  return {same, different};
}

TEST(TaskTiming, RecomputedIssueTimesAreWhenTheReplayReleasedEachIssuedOperation) {
  ReplayOptions noisy;
  noisy.rules.noise = {0.3, 11};
  const auto traced = machine::Placement::traced;
  const std::vector<Case> cases = {
      {"real/full_ghost_b2_cpu2", "as traced", {}, {}, traced, {}},
      {"real/full_circuit_2node_p4_cpu2", "noise", noisy, {}, traced, {}},
      {"s3d/dme_mixed_4n", "noise", noisy, {}, traced, {}},
      {"s3d/dme_mixed_4n", "a function moved to the GPU", {}, {"18=gpu:0.5"}, traced, {}},
      {"s3d/dme_all_2n", "eft", {}, {}, machine::Placement::eft, {}},
      {"s3d/dme_mixed_2n", "issue point at the start", noisy, {}, traced, {"runtime.issue_point=start"}},
      {"real/full_circuit_2node_p4_cpu2", "issue point at the end", {}, {}, traced, {"runtime.issue_point=end"}},
      {"legion-prof/circuit_small_cpu2_util1", "observed fractions", {}, {}, traced, {}},
      {"legion-prof/cgsolver_g8_b4_cpu2_util1", "observed fractions, noise", noisy, {}, traced, {}},
  };
  for (const Case& c : cases) {
    const auto [same, different] = compare_issue_times(c);
    EXPECT_GT(same, 100u) << c.trace << " (" << c.what << ")";
    EXPECT_EQ(different, 0u) << c.trace << " (" << c.what << ")";
  }
}

// Task 1 (CPU 0, 100 us) issues task 2 (CPU 1, 80 us) halfway through its busy time (its one action), so the
// run ends with task 2 at 50 + 80 = 130 us. Nothing queues, so the lower bound is the run itself; under noise
// it is so only if the bound recomputes the issue point with the noise the run had.
TEST(TaskTiming, UnderNoiseTheLowerBoundIsTheRunWhenNothingQueues) {
  std::vector<std::string> lines = testing::kProcs;
  for (const char* line : {"Task Time: (20000001,1) 100", "Task Time: (20000002,1) 80"}) lines.push_back(line);
  lines.push_back(testing::task(1, "80000000", "(20000001,1)"));
  lines.push_back(testing::task(2, "80000001", "(20000002,1)", "(0,0)", "(20000001,1)"));
  auto trace = session::load_records(testing::make_trace({{0, lines}}), "test", {});
  ASSERT_TRUE(trace.ok()) << trace.error().to_string();
  auto model = machine::parse_machine(testing::kBareMachine, "bare.toml", {});
  ASSERT_TRUE(model.ok()) << model.error().to_string();
  for (const double sigma : {0.0, 0.5}) {
    session::ReplaySettings settings;
    settings.engine.rules.noise = {sigma, 3};
    auto run = session::replay_on(*trace, *model, settings);
    ASSERT_TRUE(run.ok()) << run.error().to_string();
    ASSERT_TRUE(run->critical.has_value());
    EXPECT_EQ(run->critical->lower_bound_ns, run->result.makespan_ns) << "sigma " << sigma;
    if (sigma == 0) EXPECT_EQ(run->result.makespan_ns, 130000);
    else EXPECT_NE(run->result.makespan_ns, 130000);  // the noise changed the run
  }
}

}  // namespace
}  // namespace rr::replay
