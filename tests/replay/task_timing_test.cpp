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
  auto run = session::replay_trace(*trace, {RR_SOURCE_DIR "/data/machines/titan.toml", {}}, settings);
  EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().to_string());
  if (!run.ok()) return {0, 1};
  const graph::EventGraph& g = trace->graph();
  const ReplayResult& r = run->result;
  std::uint64_t same = 0, different = 0;
  for (graph::VertexId v = 0; v < g.vertex_count(); ++v) {
    if (r.release[v] != Release::issue) continue;
    const TimeNs recomputed = issue_time(g, run->map, run->model, r, r.released_by[v], v);
    if (recomputed == r.ready[v]) {
      ++same;
    } else if (++different <= 3) {
      ADD_FAILURE() << c.trace << " (" << c.what << "): vertex " << v << " ready at " << r.ready[v]
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
  noisy.perturb_sigma = 0.3;
  noisy.perturb_seed = 11;
  const std::vector<Case> cases = {
      {"real/full_ghost_b2_cpu2", "as traced", {}, {}},
      {"real/full_circuit_2node_p4_cpu2", "noise", noisy, {}},
      {"s3d/dme_mixed_4n", "noise", noisy, {}},
      {"s3d/dme_mixed_4n", "a function moved to the GPU", {}, {"1=gpu:0.5"}},
      {"s3d/dme_all_2n", "eft", {}, {}, machine::Placement::eft},
      {"legion-prof/circuit_small_cpu2_util1", "observed fractions", {}, {}},
      {"legion-prof/cgsolver_g8_b4_cpu2_util1", "observed fractions, noise", noisy, {}},
  };
  for (const Case& c : cases) {
    const auto [same, different] = compare_issue_times(c);
    EXPECT_GT(same, 100u) << c.trace << " (" << c.what << ")";
    EXPECT_EQ(different, 0u) << c.trace << " (" << c.what << ")";
  }
}

}  // namespace
}  // namespace rr::replay
