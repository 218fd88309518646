// The search: the same path, best mapping and counts at any thread count, and with or without stopping candidates
// once past the best so far; its best mapping, written as a mapping file and replayed as `replay --mapping` does,
// gives its estimate exactly; budgets and round limits end it; a trace with operations that never complete is
// searched without stopping candidates early.
#include <gtest/gtest.h>

#include <fstream>

#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "gen/truth_files.hpp"
#include "replay/result_difference.hpp"
#include "session/replay_choices.hpp"
#include "support/test_dir.hpp"
#include "tuning/tuning.hpp"
#include "tuning_fixture.hpp"

namespace rr::tuning {
namespace {

using namespace rr::tuning::testing;

struct Searched {
  session::LoadedTrace trace;
  machine::MachineModel model;
};

Searched mixed4() {
  auto trace = load(kMixed4);
  auto model = machine_for(trace, kTitan);
  return {std::move(trace), std::move(model)};
}

TuneResult run(const Searched& s, TuneOptions options, const session::ReplaySettings& start = {}) {
  auto r = tune(s.trace, s.model, start, options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
  return std::move(*r);
}

void expect_same_search(const TuneResult& a, const TuneResult& b, const std::string& what) {
  EXPECT_EQ(a.start_ns, b.start_ns) << what;
  EXPECT_EQ(a.best_ns, b.best_ns) << what;
  EXPECT_EQ(machine::mapping_toml(a.best), machine::mapping_toml(b.best)) << what;
  ASSERT_EQ(a.path.size(), b.path.size()) << what;
  for (std::size_t i = 0; i < a.path.size(); ++i) {
    EXPECT_EQ(a.path[i].change, b.path[i].change) << what;
    EXPECT_EQ(a.path[i].after_ns, b.path[i].after_ns) << what;
    EXPECT_EQ(a.path[i].round_candidates, b.path[i].round_candidates) << what;
  }
  EXPECT_EQ(a.candidates, b.candidates) << what;
  EXPECT_EQ(a.failed, b.failed) << what;
  EXPECT_EQ(a.rounds, b.rounds) << what;
  EXPECT_EQ(a.stopped, b.stopped) << what;
}

TuneOptions with_factors(const machine::FunctionFactors& f) {
  TuneOptions o;
  o.space.factors = &f;
  return o;
}

TEST(Tune, TheSameSearchAtAnyThreadCountAndWithoutEarlyStops) {
  const rr::testing::TestDir dir("rr_tune_threads");
  const Searched s = mixed4();
  const auto f = factors(dir.path() / "f.toml", "[18]\ngpu = 0.1\n[20]\ngpu = 0.08\n");
  TuneOptions one = with_factors(f);
  one.threads = 1;
  const TuneResult a = run(s, one);
  ASSERT_FALSE(a.path.empty()) << "the factors allow a faster mapping";
  EXPECT_LT(a.best_ns, a.start_ns);
  EXPECT_GT(a.cut_off, 0u) << "candidates slower than the best are stopped";
  for (unsigned threads : {2u, 3u}) {
    TuneOptions more = one;
    more.threads = threads;
    const TuneResult b = run(s, more);
    expect_same_search(a, b, std::to_string(threads) + " threads");
    EXPECT_EQ(a.cut_off, b.cut_off);
  }
  TuneOptions whole = one;
  whole.early_stop = false;
  whole.threads = 2;
  const TuneResult c = run(s, whole);
  expect_same_search(a, c, "without early stops");
  EXPECT_EQ(c.cut_off, 0u);
}

// What --write-mapping writes, replay --mapping reads: the same estimate, to the nanosecond, on one engine and split.
TEST(Tune, TheWrittenBestMappingReplaysToItsEstimate) {
  const rr::testing::TestDir dir("rr_tune_written");
  const Searched s = mixed4();
  const auto f = factors(dir.path() / "f.toml", "[18]\ngpu = 0.1\n[20]\ngpu = 0.08\n");
  session::ReplaySettings start;
  start.mapping.fold = 2;  // the node map is a choice too
  const TuneResult r = run(s, with_factors(f), start);
  ASSERT_FALSE(r.path.empty());
  const auto file = dir.path() / "best.toml";
  std::ofstream(file) << machine::mapping_toml(r.best, {"the best mapping"});
  session::ReplayChoices choices;
  choices.mapping = file.string();
  auto settings = session::replay_settings(choices);
  ASSERT_TRUE(settings.ok()) << settings.error().to_string();
  for (std::uint32_t blocks : {1u, 2u}) {
    settings->engine.execution.blocks = blocks;
    auto replayed = session::replay_trace(s.trace, {kTitan, {}}, *settings);
    ASSERT_TRUE(replayed.ok()) << replayed.error().to_string();
    EXPECT_EQ(replayed->result.makespan_ns, r.best_ns) << blocks << " block(s)";
  }
  // And the start is what replay gives without the file.
  auto plain = session::replay_trace(s.trace, {kTitan, {}}, start);
  EXPECT_EQ(plain->result.makespan_ns, r.start_ns);
}

TEST(Tune, ABudgetOrARoundLimitEndsTheSearch) {
  const rr::testing::TestDir dir("rr_tune_budget");
  const Searched s = mixed4();
  const auto f = factors(dir.path() / "f.toml", "[18]\ngpu = 0.1\n[20]\ngpu = 0.08\n");
  TuneOptions budget = with_factors(f);
  budget.budget = 3;
  const TuneResult b = run(s, budget);
  EXPECT_EQ(b.candidates, 3u);
  EXPECT_EQ(b.stopped, "the budget of 3 candidate(s)");
  TuneOptions rounds = with_factors(f);
  rounds.rounds = 1;
  const TuneResult r = run(s, rounds);
  EXPECT_EQ(r.rounds, 1u);
  EXPECT_LE(r.path.size(), 1u);
  EXPECT_EQ(r.stopped, "the limit of 1 round(s)");
}

// A mapping's [processors] count is the machine's count set by --set: the same replay.
TEST(Tune, AMappingsProcessorCountIsTheMachinesCount) {
  const Searched s = mixed4();
  session::ReplaySettings counted;
  counted.mapping.placement = machine::Placement::pool;
  counted.mapping.processors.of_kind[1] = 5;
  counted.mapping.processors.of_kind[2] = 1;
  auto a = session::replay_trace(s.trace, {kTitan, {}}, counted);
  session::ReplaySettings pool;
  pool.mapping.placement = machine::Placement::pool;
  auto b = session::replay_trace(s.trace, {kTitan, {"processors.cpu.count=5", "processors.utility.count=1"}}, pool);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(replay::first_difference(a->result, b->result), std::nullopt);
  EXPECT_EQ(a->model.processors[1].count_on(0), 5u);
  EXPECT_EQ(a->model.processors[2].count_on(3), 1u);
}

// Operations that never complete leave every estimate unfinished: no candidate is stopped early, and the report
// says why.
TEST(Tune, OperationsThatNeverCompleteTurnEarlyStopsOff) {
  const rr::testing::TestDir dir("rr_tune_cycle");
  gen::Program program = gen::make_random_dag(600, {2, 2, 3});
  ASSERT_TRUE(gen::inject_cycle(program));
  gen::TruthMachine truth;
  gen::write_trace(program, gen::schedule(program, truth), truth, dir.path().string(), gen::Compression::none);
  const auto trace = load(dir.path().string());
  const auto model = machine_for(trace, (dir.path() / "machine.toml").string());
  const auto r = tune(trace, model, {}, {});
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->cut_off, 0u);
  ASSERT_EQ(r->notes.size(), 1u);
  EXPECT_NE(r->notes[0].find("never complete in the starting replay"), std::string::npos) << r->notes[0];
}

TEST(Tune, AStartThatCannotBeReplayedIsAnError) {
  const Searched s = mixed4();
  session::ReplaySettings start;
  auto move = machine::parse_move("99=gpu");
  ASSERT_TRUE(move.ok());
  start.mapping.moves.push_back(*move);
  auto r = tune(s.trace, s.model, start, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("no task of function 99"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace rr::tuning
