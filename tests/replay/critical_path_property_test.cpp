// Property: on generated traces with barriers, waits, copies and merges, replayed on their truth machine and on
// Titan with and without noise, the critical path tiles the estimate exactly.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "gen/s3d.hpp"
#include "session/session.hpp"
#include "support/critical_path_checks.hpp"
#include "support/test_dir.hpp"

namespace rr::gen {
namespace {

namespace fs = std::filesystem;

void check_every_machine(const fs::path& dir, const std::string& what) {
  auto trace = session::load_trace({dir.string()}, {});
  ASSERT_TRUE(trace.ok()) << trace.error().to_string();
  // What a packed trace's reader demands of a graph (EventGraph::structure_problem), the builder gives.
  EXPECT_EQ(trace->graph().structure_problem(), "") << what;
  const std::string titan = RR_SOURCE_DIR "/data/machines/titan.toml";
  struct Case {
    std::string machine;
    std::vector<std::string> overrides;
    double sigma;
  };
  const std::vector<Case> cases = {{(dir / "machine.toml").string(), {}, 0.0},
                                   {titan, {}, 0.0},
                                   {titan, {"runtime.wait_frees_processor=false"}, 0.3},
                                   {titan, {"network.latency_ns=0", "runtime.barrier_arrival_ns=0",
                                            "runtime.merge_ns=0", "runtime.trigger_local_ns=0",
                                            "runtime.trigger_remote_ns=0", "runtime.task_launch_ns=0"}, 0.5}};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    session::ReplaySettings settings;
    settings.engine.rules.noise = {cases[i].sigma, 7 + i};
    auto run = session::replay_trace(*trace, {cases[i].machine, cases[i].overrides}, settings);
    ASSERT_TRUE(run.ok()) << run.error().to_string();
    // A processor held through a wait can deadlock S3D's drivers (they wait on work queued behind them): the
    // replay reports it as stuck work; the path of what did run must still tile its estimate.
    if (cases[i].overrides.empty() || cases[i].overrides[0] != "runtime.wait_frees_processor=false") {
      EXPECT_EQ(run->result.stuck, 0u) << what << " case " << i;
    }
    rr::testing::expect_tiles(*run->critical, run->result.makespan_ns, what + " case " + std::to_string(i));
  }
}

TEST(CriticalPathProperty, TilesTheEstimateOnGeneratedTraces) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    {
      const rr::testing::TestDir s("rr_cp");
      for (std::uint32_t dims : {1u, 3u}) {
        Program p = make_stencil(dims, 6, {dims == 1 ? 3u : 8u, 2, seed});
        TruthMachine m;
        write_trace(p, schedule(p, m), m, s.path().string(), Compression::none);
        check_every_machine(s.path(), "stencil " + std::to_string(dims) + "-D seed " + std::to_string(seed));
        fs::remove_all(s.path());
      }
    }
    {
      const rr::testing::TestDir s("rr_cp");
      Program p = make_s3d({"dme", seed % 2 ? "mixed" : "all", 2 + static_cast<std::uint32_t>(seed % 2), 3, 48, seed});
      TruthMachine m;
      write_trace(p, schedule(p, m), m, s.path().string(), Compression::none);
      check_every_machine(s.path(), "s3d seed " + std::to_string(seed));
    }
    {
      const rr::testing::TestDir s("rr_cp");
      Program p = make_random_dag(400, {3, 2, seed});
      TruthMachine m;
      Quirks q;
      q.external_preconditions = 0.05;
      write_trace(p, schedule(p, m), m, s.path().string(), Compression::none, q);
      check_every_machine(s.path(), "random-dag seed " + std::to_string(seed));
    }
  }
}

}  // namespace
}  // namespace rr::gen
