// Speed-up and weak-scaling efficiency of comparison rows, against numbers computed by hand, and the reason a
// row has no weak-scaling efficiency.
#include <gtest/gtest.h>

#include "comparison_rows.hpp"
#include "session/session.hpp"

namespace rr::app {
namespace {

// A run as compare makes it: the family comes from the trace's name and node count by session's rule.
replay::RunSummary run(const std::string& trace, const std::string& machine, std::uint32_t nodes, replay::TimeNs ns) {
  replay::RunSummary r;
  r.trace_label = trace;
  r.machine_label = machine;
  r.family = session::trace_family(trace, nodes);
  r.nodes = nodes;
  r.estimated_ns = ns;
  return r;
}

// Two machines, every trace on each, in compare's order (trace-major): a family at 2 and 4 nodes, a trace
// whose name gives no node count, and a family at one node count.
std::vector<ComparisonRow> grid() {
  return make_rows({run("dme_all_2n", "titan", 2, 100), run("dme_all_2n", "fast", 2, 50),
                    run("dme_all_4n", "titan", 4, 125), run("dme_all_4n", "fast", 4, 80),
                    run("full_ghost_b2_cpu2", "titan", 1, 200), run("full_ghost_b2_cpu2", "fast", 1, 400),
                    run("circuit_2node", "titan", 2, 30), run("circuit_2node", "fast", 2, 10)});
}

TEST(ComparisonRows, SpeedupIsTheSameTraceOnTheFirstMachineOverThisTime) {
  const auto rows = grid();
  ASSERT_EQ(rows.size(), 8u);
  const double expected[] = {1.0, 100.0 / 50, 1.0, 125.0 / 80, 1.0, 200.0 / 400, 1.0, 30.0 / 10};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ASSERT_TRUE(rows[i].speedup) << i;
    EXPECT_DOUBLE_EQ(*rows[i].speedup, expected[i]) << rows[i].run.trace_label << " @ " << rows[i].run.machine_label;
    EXPECT_EQ(rows[i].speedup_reference, "titan");
  }
  // Not the first row's time over this one (100/125 = 0.8): traces of other applications are not compared.
  EXPECT_DOUBLE_EQ(*rows[2].speedup, 1.0);
  EXPECT_DOUBLE_EQ(*rows[3].speedup, 1.5625);
}

TEST(ComparisonRows, WeakEfficiencyIsTheFewestNodeRunOfTheFamilyOnTheSameMachineOverThisTime) {
  const auto rows = grid();
  EXPECT_EQ(rows[0].run.family, "dme_all_Nn");
  ASSERT_TRUE(rows[0].weak_efficiency && rows[1].weak_efficiency && rows[2].weak_efficiency && rows[3].weak_efficiency);
  EXPECT_DOUBLE_EQ(*rows[0].weak_efficiency, 1.0);     // the 2-node run is the reference on titan
  EXPECT_DOUBLE_EQ(*rows[1].weak_efficiency, 1.0);     // and on fast
  EXPECT_DOUBLE_EQ(*rows[2].weak_efficiency, 0.8);     // titan: 100 / 125
  EXPECT_DOUBLE_EQ(*rows[3].weak_efficiency, 0.625);   // fast: 50 / 80, not titan's 100
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(rows[i].weak_efficiency_note, "") << i;
}

TEST(ComparisonRows, NoWeakEfficiencyForATraceWhoseNameGivesNoNodeCount) {
  const auto rows = grid();
  for (std::size_t i : {4u, 5u}) {
    EXPECT_EQ(rows[i].run.family, "full_ghost_b2_cpu2");  // "b2" and "cpu2" are not node counts
    EXPECT_FALSE(rows[i].weak_efficiency);
    EXPECT_EQ(rows[i].weak_efficiency_note,
              "'full_ghost_b2_cpu2' names no node count (like 4n or 4nodes), so it has no family");
  }
}

TEST(ComparisonRows, NoWeakEfficiencyForAFamilyAtOneNodeCount) {
  const auto rows = grid();
  for (std::size_t i : {6u, 7u}) {
    EXPECT_EQ(rows[i].run.family, "circuit_Nnode");
    EXPECT_FALSE(rows[i].weak_efficiency);
    EXPECT_EQ(rows[i].weak_efficiency_note, "family 'circuit_Nnode' has runs at one node count only (2)");
  }
}

TEST(ComparisonRows, AFamilyAtTwoNodeCountsOnDifferentMachinesOnlyHasNoWeakEfficiency) {
  // 2 nodes on one machine and 4 on another: weak scaling compares node counts on one machine.
  const auto rows = make_rows({run("s3d_2n", "titan", 2, 100), run("s3d_4n", "fast", 4, 50)});
  for (const auto& row : rows) {
    EXPECT_FALSE(row.weak_efficiency);
    EXPECT_NE(row.weak_efficiency_note.find("one node count only"), std::string::npos);
  }
}

TEST(ComparisonRows, ARunThatTookNoTimeHasNeitherNumber) {
  const auto rows = make_rows({run("x_2n", "titan", 2, 0), run("x_2n", "fast", 2, 10), run("x_4n", "titan", 4, 20),
                               run("x_4n", "fast", 4, 20)});
  EXPECT_FALSE(rows[0].speedup);
  EXPECT_FALSE(rows[1].speedup);  // its reference took no time
  EXPECT_FALSE(rows[0].weak_efficiency);
  EXPECT_FALSE(rows[2].weak_efficiency);  // its reference, the 2-node run on titan, took no time
  EXPECT_EQ(rows[2].weak_efficiency_note, "a run of family 'x_Nn' took no time");
  ASSERT_TRUE(rows[3].weak_efficiency);
  EXPECT_DOUBLE_EQ(*rows[3].weak_efficiency, 0.5);  // fast: 10 / 20
  EXPECT_DOUBLE_EQ(*rows[3].speedup, 1.0);          // 20 / 20
}

TEST(ComparisonRows, SweepRowsCompareWithTheFirstSetting) {
  const auto rows = make_rows({run("t", "speed=1", 1, 900), run("t", "speed=2", 1, 450), run("t", "speed=4", 1, 300)});
  EXPECT_DOUBLE_EQ(*rows[1].speedup, 2.0);
  EXPECT_DOUBLE_EQ(*rows[2].speedup, 3.0);
  EXPECT_EQ(rows[2].speedup_reference, "speed=1");
}

}  // namespace
}  // namespace rr::app
