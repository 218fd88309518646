// The search space of tune: the moves a factors file and the machine's function_speed allow (and the notes on those
// they do not), the counts and their budget per node, and when node maps matter.
#include <gtest/gtest.h>

#include "support/test_dir.hpp"
#include "tuning/search_space.hpp"
#include "tuning_fixture.hpp"

namespace rr::tuning {
namespace {

using core::ProcessorKind;
using namespace rr::tuning::testing;

bool has_note(const SearchSpace& s, const std::string& part) {
  for (const auto& n : s.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

TEST(SearchSpace, WithoutFactorsOnlyCountsAndPlacementChange) {
  const auto trace = load(kMixed4);
  const auto titan = machine_for(trace, kTitan);
  auto s = search_space(trace, titan, {}, {});
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_TRUE(s->moves.empty());
  EXPECT_EQ(s->counts.kinds, (std::vector<ProcessorKind>{ProcessorKind::cpu, ProcessorKind::utility}));
  EXPECT_EQ(s->counts.budget, 14u);
  EXPECT_EQ(s->counts.budget_source, "the starting 12 CPU + 2 utility");
  EXPECT_EQ(s->start_counts, (std::array<std::uint32_t, 3>{1, 12, 2}));
  EXPECT_EQ(s->counts.least, (std::array<std::uint32_t, 3>{1, 1, 1}));  // the trace runs work on every kind
  EXPECT_FALSE(s->node_maps);
  EXPECT_EQ(s->traced_nodes, 4u);
  // Folded onto fewer nodes, the node map matters.
  machine::MappingSpec folded;
  folded.fold = 2;
  EXPECT_TRUE(search_space(trace, titan, folded, {})->node_maps);
}

TEST(SearchSpace, TheBudgetIsTheCoresGivenElseTheMachinesElseTheStart) {
  const auto trace = load(kMixed4);
  auto titan = machine_for(trace, kTitan);
  auto given = search_space(trace, titan, {}, {nullptr, 6});
  EXPECT_EQ(given->counts.budget, 6u);
  EXPECT_EQ(given->counts.budget_source, "--cores 6");
  titan.node.cores = 8;
  auto cores = search_space(trace, titan, {}, {});
  EXPECT_EQ(cores->counts.budget, 8u);
  EXPECT_EQ(cores->counts.budget_source, "node.cores of titan");
  // A starting mapping's counts are where the search starts.
  machine::MappingSpec start;
  start.processors.of_kind[1] = 3;
  auto from = search_space(trace, titan, start, {});
  EXPECT_EQ(from->start_counts[1], 3u);
  EXPECT_EQ(count_of(*from, start, ProcessorKind::cpu), 3u);
  EXPECT_EQ(count_of(*from, {}, ProcessorKind::cpu), 3u);
  EXPECT_EQ(count_of(*from, {}, ProcessorKind::utility), 2u);
}

TEST(SearchSpace, FactorsAndFunctionSpeedAllowMovesAndSayWhatTheyDoNot) {
  const rr::testing::TestDir dir("rr_space");
  const auto trace = load(kMixed4);
  auto titan = machine_for(trace, kTitan);
  // 18 and 20 run on CPUs in the mixed mapping, 16 (chemistry) on the GPU; 99 is no function of the trace.
  const auto f = factors(dir.path() / "f.toml", "[18]\ngpu = 0.1\n[20]\ngpu = 0.05\ncpu = 2\n[16]\ngpu = 0.5\n[99]\ngpu = 1\n");
  titan.processors[0].function_speed[20] = 4;  // the file's factor for 20 on GPUs stands; the speed comes on top
  titan.processors[0].function_speed[21] = 3;  // 21 (divergence) runs on the GPU only: no move
  titan.processors[1].function_speed[16] = 2;  // 16 may move to CPUs, priced by the machine
  auto s = search_space(trace, titan, {}, {&f, 0});
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->moves.size(), 3u);
  EXPECT_EQ(s->moves[0].function, 16u);
  EXPECT_EQ(s->moves[0].kind, ProcessorKind::cpu);
  EXPECT_FALSE(s->moves[0].factor.has_value());
  EXPECT_EQ(s->moves[0].source, "titan: processors.cpu.function_speed.16 = 2");
  EXPECT_EQ(s->moves[1].function, 18u);
  EXPECT_EQ(s->moves[1].factor, 0.1);
  EXPECT_EQ(s->moves[1].source, (dir.path() / "f.toml").string() + ":2");
  EXPECT_EQ(s->moves[2].function, 20u);
  EXPECT_EQ(s->moves[2].factor, 0.05);
  EXPECT_TRUE(has_note(*s, "function 16 (chemistry) ran on GPU only: its factor there ("));
  EXPECT_TRUE(has_note(*s, "function 20 (flux_species) ran on CPU only"));
  EXPECT_TRUE(has_note(*s, "1 function(s) of " + (dir.path() / "f.toml").string() + " have no task in this trace (99)"));
  // A kind the machine lacks: no move there.
  titan.processors[0].count = 0;
  auto no_gpu = search_space(trace, titan, {}, {&f, 0});
  EXPECT_EQ(no_gpu->moves.size(), 1u);
  EXPECT_TRUE(has_note(*no_gpu, "machine 'titan' has no GPU processor"));
}

}  // namespace
}  // namespace rr::tuning
