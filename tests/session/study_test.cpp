// A study (session/study.hpp, session/study_strategy.hpp): strategies read from text, every kind of bad one refused;
// the table's speed-up, efficiency, winners and crossovers by hand; and a small study replayed through the session.
#include <gtest/gtest.h>

#include <fstream>

#include "session/study.hpp"
#include "support/replay_fixture.hpp"
#include "support/test_dir.hpp"

namespace rr::session {
namespace {

TEST(StudyStrategy, ReadsEveryForm) {
  auto traced = parse_strategy("traced");
  ASSERT_TRUE(traced.ok());
  EXPECT_EQ(traced->name, "traced");
  EXPECT_EQ(traced->choices.placement, "traced");
  EXPECT_TRUE(traced->choices.map.empty());

  auto file = parse_strategy("mine=maps/a:b.toml");  // the first '=' or ':' decides: a file, whatever follows
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->name, "mine");
  EXPECT_EQ(file->choices.mapping, "maps/a:b.toml");

  auto inline_form = parse_strategy("gpu-4:placement=eft,map=18=gpu:0.02,map=20=gpu,set=processors.cpu.count=4,"
                                    "node-map=block,mapping=m.toml");
  ASSERT_TRUE(inline_form.ok()) << inline_form.error().to_string();
  EXPECT_EQ(inline_form->name, "gpu-4");
  EXPECT_EQ(inline_form->choices.placement, "eft");
  EXPECT_EQ(inline_form->choices.map, (std::vector<std::string>{"18=gpu:0.02", "20=gpu"}));
  EXPECT_EQ(inline_form->overrides, std::vector<std::string>{"processors.cpu.count=4"});
  EXPECT_EQ(inline_form->choices.node_map, "block");
  EXPECT_EQ(inline_form->choices.mapping, "m.toml");
}

TEST(StudyStrategy, RefusesEachMistakeInItsOwnWords) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"bare", "no '=' or ':' after the name"},
      {":placement=pool", "the name '' is not letters"},
      {"a b:placement=pool", "the name 'a b' is not letters"},
      {"a:", "no options after ':'"},
      {"a=", "no mapping file after '='"},
      {"a:placement", "'placement' is no KEY=VALUE"},
      {"a:placement=pool,", "'' is no KEY=VALUE"},
      {"a:placement=nowhere", "placement: nowhere not in {traced,pool,eft}"},
      {"a:speed=2", "unknown key 'speed'"},
      {"a:set=processors", "set takes a machine value KEY=VALUE"},
      {"a:fold=2", "a strategy has no fold"},
  };
  for (const auto& [text, words] : cases) {
    auto s = parse_strategy(text);
    ASSERT_FALSE(s.ok()) << text;
    EXPECT_NE(s.error().to_string().find("--strategy " + text + ": "), std::string::npos) << s.error().to_string();
    EXPECT_NE(s.error().to_string().find(words), std::string::npos) << s.error().to_string();
  }
}

TEST(StudyStrategy, TwoOfOneNameAreRefused) {
  std::vector<StudyStrategy> s{*parse_strategy("a:placement=pool"), *parse_strategy("b:placement=eft")};
  EXPECT_FALSE(duplicate_strategy(s));
  s.push_back(*parse_strategy("a=m.toml"));
  ASSERT_TRUE(duplicate_strategy(s));
  EXPECT_NE(duplicate_strategy(s)->find("two strategies are named 'a'"), std::string::npos);
}

TEST(StudySeries, NamedByWhatVaries) {
  EXPECT_EQ(series_name("", "eft", false, false), "eft");
  EXPECT_EQ(series_name("dme_all_Nn", "traced", false, true), "traced");
  EXPECT_EQ(series_name("all", "traced", true, true), "all");
  EXPECT_EQ(series_name("all", "eft", true, false), "all/eft");
}

StudyCell cell(const std::string& series, std::uint32_t nodes, replay::TimeNs ns, std::uint64_t stuck = 0) {
  StudyCell c;
  c.series = c.strategy = series;
  c.nodes = nodes;
  c.run.estimated_ns = ns;
  c.run.stuck = stuck;
  return c;
}

// A wins at 1 and 4 nodes, B at 2: two crossovers. Numbers worked by hand.
std::vector<StudyCell> two_series() {
  return {cell("B", 4, 45), cell("A", 1, 100), cell("A", 2, 60), cell("A", 4, 40), cell("B", 1, 120), cell("B", 2, 50)};
}

TEST(StudyTable, StrongScalingByHand) {
  const StudyResult r = tabulate_study(two_series(), {"A", "B"}, Scaling::strong);
  ASSERT_EQ(r.cells.size(), 6u);
  EXPECT_EQ(r.node_counts, (std::vector<std::uint32_t>{1, 2, 4}));
  // Sorted by node count, then series: A1 B1 A2 B2 A4 B4.
  EXPECT_EQ(r.cells[2].series, "A");
  EXPECT_EQ(r.cells[2].nodes, 2u);
  EXPECT_DOUBLE_EQ(*r.cells[2].speedup, 100.0 / 60.0);           // T(1)/T(2)
  EXPECT_DOUBLE_EQ(*r.cells[2].efficiency, 100.0 / 60.0 / 2.0);  // speed-up x 1/2
  EXPECT_DOUBLE_EQ(*r.cells[4].speedup, 2.5);
  EXPECT_DOUBLE_EQ(*r.cells[4].efficiency, 0.625);
  EXPECT_DOUBLE_EQ(*r.cells[5].speedup, 120.0 / 45.0);
  EXPECT_EQ(r.cells[0].reference_nodes, 1u);
  EXPECT_DOUBLE_EQ(*r.cells[2].to_winner, 60.0 / 50.0);
  EXPECT_TRUE(r.cells[3].winner);
  EXPECT_FALSE(r.cells[2].winner);
  ASSERT_EQ(r.winners.size(), 3u);
  EXPECT_EQ(r.winners[0].series, "A");
  EXPECT_EQ(r.winners[1].series, "B");
  EXPECT_EQ(r.winners[1].time_ns, 50);
  EXPECT_EQ(r.winners[2].series, "A");
  ASSERT_EQ(r.crossovers.size(), 2u);
  EXPECT_EQ(r.crossovers[0].after_nodes, 1u);
  EXPECT_EQ(r.crossovers[0].nodes, 2u);
  EXPECT_EQ(r.crossovers[0].from, "A");
  EXPECT_EQ(r.crossovers[0].to, "B");
  EXPECT_TRUE(r.truth_winners.empty());  // no cell has a truth
}

TEST(StudyTable, WeakScalingByHand) {
  const StudyResult r = tabulate_study(two_series(), {"A", "B"}, Scaling::weak);
  EXPECT_DOUBLE_EQ(*r.cells[2].efficiency, 100.0 / 60.0);       // T(1)/T(2)
  EXPECT_DOUBLE_EQ(*r.cells[2].speedup, 100.0 / 60.0 * 2.0);    // scaled: efficiency x 2/1
  EXPECT_DOUBLE_EQ(*r.cells[5].efficiency, 120.0 / 45.0);
  EXPECT_DOUBLE_EQ(*r.cells[5].speedup, 120.0 / 45.0 * 4.0);
}

TEST(StudyTable, TiesGoToTheEarlierSeriesAndStuckCellsNeverWin) {
  // Equal at 1 node: B is listed first and wins. At 2 nodes A is faster but stuck: B wins, and A has no numbers.
  std::vector<StudyCell> cells{cell("A", 1, 100), cell("B", 1, 100), cell("A", 2, 10, 3), cell("B", 2, 80)};
  const StudyResult r = tabulate_study(cells, {"B", "A"}, Scaling::strong);
  ASSERT_EQ(r.winners.size(), 2u);
  EXPECT_EQ(r.winners[0].series, "B");
  EXPECT_EQ(r.winners[1].series, "B");
  EXPECT_TRUE(r.crossovers.empty());
  const StudyCell& stuck = r.cells[3];
  ASSERT_EQ(stuck.series, "A");
  EXPECT_FALSE(stuck.speedup);
  EXPECT_FALSE(stuck.efficiency);
  EXPECT_FALSE(stuck.to_winner);
  EXPECT_FALSE(stuck.winner);
}

TEST(StudyTable, ASeriesIsMeasuredFromItsOwnFewestNodes) {
  std::vector<StudyCell> cells{cell("A", 1, 100), cell("A", 4, 50), cell("B", 2, 80), cell("B", 4, 40)};
  const StudyResult r = tabulate_study(cells, {"A", "B"}, Scaling::strong);
  const StudyCell& b4 = r.cells.back();
  EXPECT_EQ(b4.reference_nodes, 2u);
  EXPECT_DOUBLE_EQ(*b4.speedup, 2.0);
  EXPECT_DOUBLE_EQ(*b4.efficiency, 1.0);
}

TEST(StudyTable, TheTruthHasWinnersOfItsOwnWhenEveryCellHasOne) {
  std::vector<StudyCell> cells = two_series();
  for (auto& c : cells) c.truth_ns = c.run.estimated_ns;
  cells[5].truth_ns = 30;  // B at 2 nodes: 50 estimated, but 30 by the truth; A at 4 nodes: 40 both
  cells[0].truth_ns = 39;  // B at 4 nodes: 45 estimated, 39 by the truth
  const StudyResult r = tabulate_study(cells, {"A", "B"}, Scaling::strong);
  ASSERT_EQ(r.truth_winners.size(), 3u);
  EXPECT_EQ(r.truth_winners[1].series, "B");
  EXPECT_EQ(r.truth_winners[1].time_ns, 30);
  EXPECT_EQ(r.truth_winners[2].series, "B");
  ASSERT_EQ(r.truth_crossovers.size(), 1u);
  EXPECT_EQ(r.truth_crossovers[0].nodes, 2u);
  cells[1].truth_ns.reset();
  EXPECT_TRUE(tabulate_study(cells, {"A", "B"}, Scaling::strong).truth_winners.empty());
}

// Two nodes with one 10 us CPU task each (functions 1 and 2), on the bare machine (2 CPUs per node) from a file.
class SmallStudy : public ::testing::Test {
 protected:
  void SetUp() override {
    machine_ = (dir_.path() / "bare.toml").string();
    std::ofstream(machine_) << testing::kBareMachine;
    auto node0 = testing::kProcs;
    node0.push_back(testing::task(1, "80000000", "(20000001,1)"));
    node0.push_back("Task Time: (20000001,1) 10");
    const std::vector<std::string> node1{testing::task(2, "80800000", "(20800001,1)"), "Task Time: (20800001,1) 10"};
    auto trace = load_records(testing::make_trace({{0, node0}, {1, node1}}), "two_2n", {});
    ASSERT_TRUE(trace.ok()) << trace.error().to_string();
    trace_ = std::make_unique<LoadedTrace>(std::move(*trace));
  }
  std::vector<StudyInput> folds(std::vector<std::uint32_t> counts, std::optional<replay::TimeNs> truth = {}) {
    std::vector<StudyInput> out;
    for (auto n : counts) out.push_back({trace_.get(), "", n, n, {machine_, {}}, truth});
    return out;
  }
  testing::TestDir dir_{"rr_study"};
  std::string machine_;
  std::unique_ptr<LoadedTrace> trace_;
};

TEST_F(SmallStudy, StrategiesTimesFoldsWithTheirOwnMachineValues) {
  // 'one' has one CPU per node under pool: folded onto one node the two tasks run one after the other.
  std::vector<StudyStrategy> strategies{traced_strategy(), *parse_strategy("one:placement=pool,set=processors.cpu.count=1")};
  auto r = run_study(folds({1, 2}), strategies, Scaling::strong, 2);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->series, (std::vector<std::string>{"traced", "one"}));
  ASSERT_EQ(r->cells.size(), 4u);
  EXPECT_EQ(r->cells[1].series, "one");
  EXPECT_EQ(r->cells[1].nodes, 1u);
  EXPECT_EQ(r->cells[1].run.estimated_ns, 20000);
  EXPECT_EQ(r->cells[3].run.estimated_ns, 10000);
  EXPECT_DOUBLE_EQ(*r->cells[3].speedup, 2.0);
  EXPECT_DOUBLE_EQ(*r->cells[3].efficiency, 1.0);
  EXPECT_EQ(r->cells[2].run.estimated_ns, 10000);  // traced at 2 nodes: each task on its own node
  EXPECT_EQ(r->winners.front().series, "traced");
  EXPECT_TRUE(r->warnings.empty());
  // The same cells at one thread.
  auto one = run_study(folds({1, 2}), strategies, Scaling::strong, 1);
  ASSERT_TRUE(one.ok());
  for (std::size_t i = 0; i < r->cells.size(); ++i)
    EXPECT_EQ(one->cells[i].run.estimated_ns, r->cells[i].run.estimated_ns);
}

TEST_F(SmallStudy, WhatDoesNotFitATraceIsLeftOutWithAWarning) {
  std::vector<StudyStrategy> strategies{*parse_strategy("moved:placement=eft,map=9=gpu"), *parse_strategy("e:placement=eft")};
  auto r = run_study(folds({1, 2, 4}), strategies, Scaling::strong, 1);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->node_counts, (std::vector<std::uint32_t>{1, 2}));  // no 4-node cell: a fold only joins nodes
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_NE(r->warnings[0].find("no task of function 9: --map 9=gpu does not apply to it (strategy moved)"),
            std::string::npos) << r->warnings[0];
  EXPECT_NE(r->warnings[1].find("trace two_2n has 2 node(s): its 4-node cells are left out"), std::string::npos);
  ASSERT_FALSE(r->notes.empty());
  EXPECT_NE(r->notes[0].find("strategy moved: placement eft"), std::string::npos);
  // Nothing left at all is an error that says why.
  auto none = run_study(folds({4}), strategies, Scaling::strong, 1);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().to_string().find("none is left to replay: trace two_2n has 2 node(s)"), std::string::npos);
}

TEST_F(SmallStudy, AStrategyThatCannotBeUsedIsNamed) {
  const std::string folding = (dir_.path() / "fold.toml").string();
  std::ofstream(folding) << "fold = 1\n";
  auto r = run_study(folds({1}), {*parse_strategy("f=" + folding)}, Scaling::strong, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().to_string().find("strategy f: its mapping sets fold = 1"), std::string::npos);
  r = run_study(folds({1}), {*parse_strategy("k:set=processors.cpu.cont=2")}, Scaling::strong, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().to_string().find("strategy k: "), std::string::npos);
  EXPECT_NE(r.error().to_string().find("processors.cpu.count"), std::string::npos);  // the nearest key
  r = run_study(folds({1}), {*parse_strategy("m:map=1=nowhere")}, Scaling::strong, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().to_string().find("strategy m: "), std::string::npos);
}

TEST_F(SmallStudy, AMappingFileGivesPlacementAndProcessorCounts) {
  // One CPU per node from the file's [processors] table, under pool: folded onto one node, one task after the other.
  const std::string file = (dir_.path() / "one_cpu.toml").string();
  std::ofstream(file) << "placement = \"pool\"\n[processors]\ncpu = 1\n";
  auto r = run_study(folds({1, 2}, 10000), {*parse_strategy("one=" + file)}, Scaling::strong, 1);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->cells[0].run.estimated_ns, 20000);
  EXPECT_EQ(r->cells[1].run.estimated_ns, 10000);
  EXPECT_FALSE(r->cells[1].truth_ns);  // other processor counts: not the trace's own run
}

TEST_F(SmallStudy, OnlyTheTracesOwnMappingKeepsTheTruth) {
  std::vector<StudyStrategy> strategies{traced_strategy(), *parse_strategy("p:placement=pool")};
  auto r = run_study(folds({2}, 10000), strategies, Scaling::strong, 1);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  ASSERT_EQ(r->cells.size(), 2u);
  EXPECT_EQ(r->cells[0].truth_ns, 10000);
  EXPECT_FALSE(r->cells[1].truth_ns);
  EXPECT_TRUE(r->truth_winners.empty());  // not every cell has one
}

}  // namespace
}  // namespace rr::session
