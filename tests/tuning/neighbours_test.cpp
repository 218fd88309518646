// The neighbours of a mapping: each one change away, within the budget and the fewest processors a kind keeps, eft
// only with a move, node maps only where the trace is folded; and their seeded order, the same for a seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "support/test_dir.hpp"
#include "tuning/neighbours.hpp"
#include "tuning_fixture.hpp"

namespace rr::tuning {
namespace {

using core::ProcessorKind;
using namespace rr::tuning::testing;

std::vector<std::string> changes(const std::vector<Candidate>& cs) {
  std::vector<std::string> out;
  for (const auto& c : cs) out.push_back(c.change);
  return out;
}

TEST(Neighbours, OneChangeEachWithinTheBudget) {
  const rr::testing::TestDir dir("rr_neighbours");
  const auto trace = load(kMixed4);
  const auto titan = machine_for(trace, kTitan);
  const auto f = factors(dir.path() / "f.toml", "[18]\ngpu = 0.1\n");
  auto space = search_space(trace, titan, {}, {&f, 0});
  ASSERT_TRUE(space.ok());
  machine::MappingSpec start;
  start.placement = machine::Placement::pool;
  const auto cs = neighbours(*space, start, trace.graph());
  const std::string file = (dir.path() / "f.toml").string();
  // At the budget (12 + 2 = 14): no count grows alone; each shrinks, or grows for one of the other.
  EXPECT_EQ(changes(cs), (std::vector<std::string>{
                             "function 18 (gradient_species) to GPU (busy time x 0.1: " + file + ":2)",
                             "function 18 (gradient_species) to GPU (busy time x 0.1: " + file +
                                 ":2), placement eft: on whichever kind finishes first",
                             "CPU 12 -> 11 per node", "utility 2 -> 1 per node",
                             "CPU 12 -> 13, utility 2 -> 1 per node", "utility 2 -> 3, CPU 12 -> 11 per node",
                             "placement pool -> traced"}));
  EXPECT_EQ(cs[0].mapping.moves.size(), 1u);
  EXPECT_EQ(cs[0].mapping.placement, machine::Placement::pool);
  EXPECT_EQ(cs[1].mapping.placement, machine::Placement::eft);
  EXPECT_EQ(cs[4].mapping.processors.of(ProcessorKind::cpu), 13u);
  EXPECT_EQ(cs[4].mapping.processors.of(ProcessorKind::utility), 1u);
  EXPECT_FALSE(cs[4].mapping.processors.of(ProcessorKind::gpu).has_value());

  // From the move: it can be undone, eft is a neighbour, the same move is not.
  const auto from_move = neighbours(*space, cs[0].mapping, trace.graph());
  const auto texts = changes(from_move);
  EXPECT_EQ(std::count(texts.begin(), texts.end(), "function 18 (gradient_species) back to the kind it was traced on"), 1);
  EXPECT_EQ(std::count(texts.begin(), texts.end(), "placement pool -> eft"), 1);
  EXPECT_EQ(std::count_if(texts.begin(), texts.end(), [](const std::string& t) { return t.find("to GPU") != std::string::npos; }), 0);
}

TEST(Neighbours, CountsStayWithinTheirBoundsAndNodeMapsComeWithAFold) {
  const auto trace = load(kMixed4);
  const auto titan = machine_for(trace, kTitan);
  machine::MappingSpec start;
  start.placement = machine::Placement::traced;
  start.fold = 2;
  start.processors.of_kind[1] = 1;  // one CPU: it cannot lose it, the trace runs work there
  start.processors.of_kind[2] = 1;
  auto space = search_space(trace, titan, start, {nullptr, 3});
  ASSERT_TRUE(space.ok());
  const auto texts = changes(neighbours(*space, start, trace.graph()));
  EXPECT_EQ(texts, (std::vector<std::string>{"CPU 1 -> 2 per node (at most 3 in all: --cores 3)",
                                              "utility 1 -> 2 per node (at most 3 in all: --cores 3)", "placement traced -> pool",
                                              "node map cyclic -> block (4 traced nodes on 2 model nodes)"}));
  // Over the budget, a count only shrinks.
  machine::MappingSpec over = start;
  over.processors.of_kind[1] = 4;
  EXPECT_EQ(changes(neighbours(*space, over, trace.graph())),
            (std::vector<std::string>{"CPU 4 -> 3 per node", "placement traced -> pool",
                                      "node map cyclic -> block (4 traced nodes on 2 model nodes)"}));
}

TEST(Neighbours, TheSeedOrdersThemTheSameWayEveryTime) {
  const auto trace = load(kMixed4);
  const auto titan = machine_for(trace, kTitan);
  machine::MappingSpec start;
  start.placement = machine::Placement::pool;
  start.fold = 2;
  auto space = search_space(trace, titan, start, {});
  const auto base = neighbours(*space, start, trace.graph());
  ASSERT_GE(base.size(), 5u);
  auto a = base, b = base, c = base, d = base;
  shuffle(a, 7, 1);
  shuffle(b, 7, 1);
  shuffle(c, 8, 1);
  shuffle(d, 7, 2);
  EXPECT_EQ(changes(a), changes(b));
  EXPECT_TRUE(changes(a) != changes(c) || changes(a) != changes(d)) << "seed and round both order the candidates";
  const auto all = changes(base);
  const auto shuffled = changes(c);
  EXPECT_EQ(std::multiset<std::string>(all.begin(), all.end()),
            std::multiset<std::string>(shuffled.begin(), shuffled.end()));
  // The same order on every platform (64-bit integer arithmetic only): seed 1, round 1, pinned.
  auto pinned = base;
  shuffle(pinned, 1, 1);
  std::vector<std::size_t> order;
  for (const auto& p : pinned) order.push_back(std::find(all.begin(), all.end(), p.change) - all.begin());
  EXPECT_EQ(order, (std::vector<std::size_t>{3, 5, 0, 2, 4, 1}));
}

}  // namespace
}  // namespace rr::tuning
