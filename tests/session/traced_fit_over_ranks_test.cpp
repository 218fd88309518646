// The traced machine's fit over ranks (session/traced_fit.hpp with a network): every rank takes part in each of the
// fit's replays, sums the waits whose records it owns, and fits the latency one process fits, to the nanosecond,
// with the same sums; a later call with a packed fit replays nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gen/generators.hpp"
#include "session/session.hpp"
#include "session/traced_fit.hpp"
#include "support/generated_trace.hpp"
#include "support/in_process_network.hpp"
#include "support/ranks_as_threads.hpp"
#include "support/test_dir.hpp"

namespace rr::session {
namespace {

void expect_same_fit(const TracedNetworkFit& got, const TracedNetworkFit& want, const std::string& what) {
  EXPECT_EQ(got.fitted, want.fitted) << what;
  EXPECT_EQ(got.latency_ns, want.latency_ns) << what;
  EXPECT_EQ(got.waits, want.waits) << what;
  EXPECT_EQ(got.measured_ns, want.measured_ns) << what;
  EXPECT_EQ(got.replayed_before_ns, want.replayed_before_ns) << what;
  EXPECT_EQ(got.replayed_after_ns, want.replayed_after_ns) << what;
  EXPECT_EQ(got.reason, want.reason) << what;
  EXPECT_EQ(got.replays, want.replays) << what;  // one replay at a time, as over ranks
}

// Fits `trace` in one process (one replay at a time), then over 1..max_ranks ranks as threads, each rank
// counting and sending what it owns; every rank's fit must be one process's.
void check_over_ranks(const LoadedTrace& trace, std::uint32_t max_ranks, const std::string& name) {
  LoadedTrace serial = trace;
  serial.threads = 1;
  const machine::TracedFacts facts = traced_facts(trace);
  const TracedNetworkFit want = fit_traced_network(serial, {}, facts);
  ASSERT_GT(want.replays, 0u) << name;
  for (std::uint32_t ranks = 1; ranks <= max_ranks; ++ranks) {
    rr::testing::InProcessNetwork net(ranks, 40 + ranks);
    std::vector<std::uint64_t> sent_before(ranks);
    auto fits = rr::testing::on_ranks(net, ranks, [&](std::uint32_t r, replay::BlockNetwork& end) {
      TracedNetworkFit fit = fit_traced_network(trace, {}, facts, &end);
      sent_before[r] = net.sent_by(r);
      end.part_done();
      return fit;
    });
    for (std::uint32_t r = 0; r < ranks; ++r) {
      const std::string what = name + " at " + std::to_string(ranks) + " ranks, rank " + std::to_string(r);
      expect_same_fit(fits[r], want, what);
      if (ranks > 1) EXPECT_GT(sent_before[r], 0u) << what << ": the rank took no part";
    }
  }
}

TEST(TracedFitOverRanks, TwoNodeRealTraceFitsOneProcesssLatency) {
  auto trace = load_trace({RR_SOURCE_DIR "/data/traces/real/full_circuit_2node_p4_cpu2"}, {});
  ASSERT_TRUE(trace.ok()) << trace.error().to_string();
  check_over_ranks(*trace, 2, "full_circuit_2node_p4_cpu2");
  // (the fit moves the latency: the check above compared a real bisection, not a refusal)
  LoadedTrace serial = *trace;
  serial.threads = 1;
  EXPECT_TRUE(fit_traced_network(serial, {}, traced_facts(*trace)).fitted);
}

TEST(TracedFitOverRanks, GeneratedTracesAgreeAtEveryRankCount) {
  const rr::testing::TestDir dir("rr_traced_fit_over_ranks");
  check_over_ranks(rr::testing::mixed_s3d(dir.path() / "s3d", 4), 4, "mixed S3D, 4 nodes");
  gen::SmallOptions three;
  three.nodes = 3;
  check_over_ranks(rr::testing::write_and_load(dir.path() / "stencil", gen::make_stencil(1, 4, three)), 3,
                   "stencil, 3 nodes");
  check_over_ranks(rr::testing::write_and_load(dir.path() / "random", gen::make_random_dag(3000, three)), 3,
                   "random DAG, 3 nodes");
}

// The machine a command loads over ranks: every rank gets the traced machine one process gets.
TEST(TracedFitOverRanks, TracedMachineLoadedOverRanksIsOneProcesss) {
  auto trace = load_trace({RR_SOURCE_DIR "/data/traces/real/full_circuit_2node_p4_cpu2"}, {});
  ASSERT_TRUE(trace.ok()) << trace.error().to_string();
  const std::string want = fit_traced_machine(*trace).toml;
  rr::testing::InProcessNetwork net(2, 7);
  auto tomls = rr::testing::on_ranks(net, 2, [&](std::uint32_t, replay::BlockNetwork& end) {
    // Each rank reads the trace itself, as each process does: a copy would share the first one's fit.
    auto mine = load_trace({RR_SOURCE_DIR "/data/traces/real/full_circuit_2node_p4_cpu2"}, {});
    std::string toml = mine ? fit_traced_machine(*mine, &end).toml : mine.error().to_string();
    end.part_done();
    return toml;
  });
  EXPECT_EQ(tomls[0], want);
  EXPECT_EQ(tomls[1], want);
}

}  // namespace
}  // namespace rr::session
