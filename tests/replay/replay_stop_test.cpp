// A replay with a stop time (ReplayOptions::stop_after_ns, what `tune` stops its candidates with): a replay whose
// estimate is done by the stop is the same as without it, field by field; one whose estimate would end after it is
// cut off, says so, and never reports an estimate beyond the stop; a split replay keeps one engine. On the bundled
// real traces, Legion Prof logs (whose program thread and profiler work end after the estimate) and S3D samples,
// and on a generated trace with operations that never complete.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "gen/truth_files.hpp"
#include "replay/replay_engine.hpp"
#include "replay/result_difference.hpp"
#include "session/session.hpp"
#include "support/test_dir.hpp"

namespace rr::replay {
namespace {

const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";

struct Replayed {
  session::ReplayRun run;
  ReplayOptions options;
};

Replayed full_replay(const session::LoadedTrace& trace, const std::string& machine) {
  auto run = session::replay_trace(trace, {machine, {}}, {});
  EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().to_string());
  ReplayOptions options;
  options.detail.record_intervals = true;
  return {std::move(*run), options};
}

ReplayResult with_stop(const session::LoadedTrace& trace, const Replayed& r, TimeNs stop, std::uint32_t blocks = 1) {
  ReplayOptions options = r.options;
  options.stop_after_ns = stop;
  options.execution.blocks = blocks;
  options.execution.min_block_operations = 0;
  options.execution.min_lookahead_ns = 0;
  auto result = run_replay(trace.graph(), r.run.map, r.run.model, options);
  EXPECT_TRUE(result.ok());
  return std::move(*result);
}

void expect_stop_rules(const session::LoadedTrace& trace, const std::string& machine, const std::string& label) {
  const Replayed r = full_replay(trace, machine);
  auto full = run_replay(trace.graph(), r.run.map, r.run.model, r.options);
  ASSERT_TRUE(full.ok()) << label;
  ASSERT_FALSE(full->cut_off);
  const TimeNs m = full->makespan_ns;
  ASSERT_GT(m, 0) << label;
  // Done by the stop: the same result, whatever runs after the estimate (outside work, the last operations).
  for (TimeNs stop : {m, m + 1, full->last_end_ns, full->last_end_ns + 1000000})
    for (std::uint32_t blocks : {1u, 2u}) {
      const ReplayResult same = with_stop(trace, r, stop, blocks);
      EXPECT_EQ(first_difference(*full, same), std::nullopt) << label << ", stop " << stop << ", blocks " << blocks;
      EXPECT_EQ(same.blocks, 1u) << label << ": a replay with a stop runs on one engine";
    }
  // Not done by the stop: cut off, the estimate so far no later than the stop.
  for (TimeNs stop : {TimeNs{0}, m / 4, m / 2, m - 1})
    for (std::uint32_t blocks : {1u, 2u}) {
      const ReplayResult cut = with_stop(trace, r, stop, blocks);
      EXPECT_TRUE(cut.cut_off) << label << ", stop " << stop;
      EXPECT_LE(cut.makespan_ns, stop) << label;
      EXPECT_EQ(cut.stuck, 0u) << label << ": what was cut off is not stuck";
      EXPECT_LT(cut.operations, full->operations) << label;
    }
}

TEST(ReplayStop, BundledTracesAreTheSameWhenDoneByTheStopAndCutOffOtherwise) {
  for (const char* dir : {"real/full_circuit_2node_p4_cpu2", "real/full_ghost_b2_cpu2", "s3d/dme_mixed_4n",
                          "legion-prof/circuit_small_cpu2_util1", "legion-prof/cgsolver_g8_b4_cpu2_util1"}) {
    auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + dir}, {});
    ASSERT_TRUE(trace.ok()) << dir;
    expect_stop_rules(*trace, kTitan, dir);
  }
}

// Legion Prof logs have work outside the estimate that ends after it: a stop between the estimate's end and the
// last operation's leaves the replay whole.
TEST(ReplayStop, WorkAfterTheEstimateRunsOn) {
  auto trace = session::load_trace({RR_SOURCE_DIR "/data/traces/legion-prof/circuit_small_cpu2_util1"}, {});
  ASSERT_TRUE(trace.ok());
  const Replayed r = full_replay(*trace, kTitan);
  auto full = run_replay(trace->graph(), r.run.map, r.run.model, r.options);
  ASSERT_TRUE(full.ok());
  ASSERT_GT(full->last_end_ns, full->makespan_ns) << "the log's own thread ends after the estimate";
  const ReplayResult between = with_stop(*trace, r, (full->makespan_ns + full->last_end_ns) / 2);
  EXPECT_FALSE(between.cut_off);
  EXPECT_EQ(first_difference(*full, between), std::nullopt);
}

// An operation of the estimate that never completes (a cycle) keeps it unfinished: a replay past the stop is cut
// off, though the estimate of the whole replay is below it. `tune` replays such traces without a stop.
TEST(ReplayStop, OperationsThatNeverCompleteLeaveTheEstimateUnfinished) {
  const rr::testing::TestDir dir("rr_stop_cycle");
  gen::Program program = gen::make_random_dag(400, {2, 2, 5});
  ASSERT_TRUE(gen::inject_cycle(program));
  gen::TruthMachine machine;
  gen::write_trace(program, gen::schedule(program, machine), machine, dir.path().string(), gen::Compression::none);
  auto trace = session::load_trace({dir.path().string()}, {});
  ASSERT_TRUE(trace.ok());
  const std::string truth_machine = (dir.path() / "machine.toml").string();
  const Replayed r = full_replay(*trace, truth_machine);
  auto full = run_replay(trace->graph(), r.run.map, r.run.model, r.options);
  ASSERT_TRUE(full.ok());
  ASSERT_GT(full->stuck, 0u);
  EXPECT_FALSE(with_stop(*trace, r, full->last_end_ns).cut_off) << "nothing is left to run past the last end";
  EXPECT_TRUE(with_stop(*trace, r, full->makespan_ns / 2).cut_off);
}

}  // namespace
}  // namespace rr::replay
