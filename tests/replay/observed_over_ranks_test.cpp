// The comparison with the observed run over ranks (replay/observed_comparison.hpp): however the operations are
// spread over the ranks, every rank gets one process's comparison of the whole graph, field by field, on the real
// Legion Prof logs; a trace without observed times gives nothing on every rank.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "replay/observed_comparison.hpp"
#include "replay/part_exchange.hpp"
#include "replay/src/observed_samples.hpp"
#include "session/session.hpp"
#include "support/in_process_network.hpp"
#include "support/ranks_as_threads.hpp"

namespace rr::replay {
namespace {

using graph::VertexId;

void expect_same(const ObservedErrors& a, const ObservedErrors& b, const std::string& where) {
  EXPECT_EQ(a.name, b.name) << where;
  EXPECT_EQ(a.count, b.count) << where << " " << a.name;
  EXPECT_EQ(a.observed_busy_ns, b.observed_busy_ns) << where << " " << a.name;
  EXPECT_EQ(a.replayed_busy_ns, b.replayed_busy_ns) << where << " " << a.name;
  EXPECT_EQ(a.start_median_ns, b.start_median_ns) << where << " " << a.name;
  EXPECT_EQ(a.start_p95_abs_ns, b.start_p95_abs_ns) << where << " " << a.name;
  EXPECT_EQ(a.end_median_ns, b.end_median_ns) << where << " " << a.name;
  EXPECT_EQ(a.end_p95_abs_ns, b.end_p95_abs_ns) << where << " " << a.name;
}

void expect_same(const ObservedComparison& a, const ObservedComparison& b, const std::string& where) {
  EXPECT_EQ(a.observed_makespan_ns, b.observed_makespan_ns) << where;
  EXPECT_EQ(a.estimated_ns, b.estimated_ns) << where;
  EXPECT_EQ(a.error, b.error) << where;
  EXPECT_EQ(a.operations, b.operations) << where;
  EXPECT_EQ(a.not_replayed, b.not_replayed) << where;
  ASSERT_EQ(a.by_kind.size(), b.by_kind.size()) << where;
  for (std::size_t i = 0; i < a.by_kind.size(); ++i) expect_same(a.by_kind[i], b.by_kind[i], where);
  ASSERT_EQ(a.by_function.size(), b.by_function.size()) << where;
  for (std::size_t i = 0; i < a.by_function.size(); ++i) expect_same(a.by_function[i], b.by_function[i], where);
}

// Which rank takes an operation: a task and its resumed segments go together, as they do over ranks.
using OwnerOf = std::function<std::uint32_t(const graph::EventGraph&, VertexId, std::uint32_t ranks)>;

std::uint32_t scattered(const graph::EventGraph& g, VertexId v, std::uint32_t ranks) {
  const VertexId task = g.task_of_segment(v);
  const std::uint64_t key = task == graph::kNoVertex ? v : task;
  return static_cast<std::uint32_t>((key * 2654435761u) % ranks);
}
std::uint32_t all_on_last(const graph::EventGraph&, VertexId, std::uint32_t ranks) { return ranks - 1; }

std::vector<std::optional<ObservedComparison>> over_ranks(const session::LoadedTrace& trace,
                                                          const ReplayResult& result, std::uint32_t ranks,
                                                          const OwnerOf& owner) {
  const graph::EventGraph& g = trace.graph();
  rr::testing::InProcessNetwork net(ranks, 5 + ranks);
  return rr::testing::on_ranks(net, ranks, [&](std::uint32_t r, BlockNetwork& end) {
    NetworkRankExchange exchange(end);
    auto record_of = [&](VertexId v) { return owner(g, v, ranks) == r ? v : graph::kNoVertex; };
    auto got = compare_samples_over_ranks(g, result, record_of, exchange);
    end.part_done();
    return got;
  });
}

TEST(ObservedOverRanks, EveryRankGetsOneProcesssComparisonOfTheRealLogs) {
  for (const char* name : {"legion-prof/circuit_small_cpu2_util1", "legion-prof/circuit_mpi2_medium_cpu2_util1",
                           "legion-prof/ghost_mpi2_n4096_b4_s20_cpu2_util1"}) {
    auto trace = session::load_trace({std::string(RR_SOURCE_DIR "/data/traces/") + name}, {});
    ASSERT_TRUE(trace.ok()) << name;
    auto run = session::replay_trace(*trace, {"traced", {}}, {});
    ASSERT_TRUE(run.ok()) << name;
    const auto whole = compare_with_observed(trace->graph(), run->result);
    ASSERT_TRUE(whole.has_value());
    ASSERT_GT(whole->by_function.size(), 3u) << name;  // (enough functions for their order to be tested)
    for (std::uint32_t ranks = 1; ranks <= 4; ++ranks)
      for (const auto& [how, owner] : {std::pair<const char*, OwnerOf>{"scattered", scattered},
                                       std::pair<const char*, OwnerOf>{"all on the last rank", all_on_last}}) {
        const auto got = over_ranks(*trace, run->result, ranks, owner);
        for (std::uint32_t r = 0; r < ranks; ++r) {
          const std::string where = std::string(name) + ", " + how + ", rank " + std::to_string(r) + " of " +
                                    std::to_string(ranks);
          ASSERT_TRUE(got[r].has_value()) << where;
          expect_same(*got[r], *whole, where);
        }
      }
  }
}

TEST(ObservedOverRanks, ATraceWithoutObservedTimesGivesNothingOnEveryRank) {
  auto trace = session::load_trace({RR_SOURCE_DIR "/data/traces/real/full_ghost_b2_cpu2"}, {});
  ASSERT_TRUE(trace.ok());
  auto run = session::replay_trace(*trace, {RR_SOURCE_DIR "/data/machines/titan.toml", {}}, {});
  ASSERT_TRUE(run.ok());
  ASSERT_FALSE(compare_with_observed(trace->graph(), run->result).has_value());
  for (const auto& got : over_ranks(*trace, run->result, 3, scattered)) EXPECT_FALSE(got.has_value());
}

}  // namespace
}  // namespace rr::replay
