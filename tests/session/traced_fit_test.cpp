// The traced machine's network latency fitted to the trace's measured waits (session/traced_fit.hpp): the plain
// bisection's steps whatever the thread budget, a hand-computed latency, no fit where nothing can be fitted, and
// how many replays a fit runs (none for a trace already fitted).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "machine_models/machine_loader.hpp"
#include "machine_models/traced_machine.hpp"
#include "session/session.hpp"
#include "session/traced_fit.hpp"
#include "support/replay_fixture.hpp"
#include "support/trace_builder.hpp"

namespace rr::session {
namespace {

// The fit runs the replays its next steps will need side by side, guessing which; the oracle is the plain
// bisection, one replay per step, written out here: whatever the thread budget, the fit takes its steps.
TEST(TracedNetworkFit, SideBySideReplaysTakeThePlainBisectionsSteps) {
  const std::string circuit = RR_SOURCE_DIR "/data/traces/real/full_circuit_2node_p4_cpu2";
  ReadingOptions one_thread;
  one_thread.threads = 1;
  auto serial = load_trace({circuit}, one_thread);
  ASSERT_TRUE(serial.ok());
  const std::string toml = machine::traced_machine_toml(serial->records, serial->label, traced_facts(*serial));
  double measured = 0;
  for (const graph::WaitInfo& w : serial->graph().waits())
    if (w.awaited != graph::kNoVertex) measured += static_cast<double>(w.wait_ns);
  auto replayed_waits = [&](double latency) {
    const std::string value = std::to_string(std::llround(latency));
    auto model = machine::parse_machine(toml, "traced", {"network.latency_ns=" + value, "channels.network.latency_ns=" + value});
    EXPECT_TRUE(model.ok());
    ReplaySettings settings;
    settings.critical_path = false;
    auto run = replay_on(*serial, std::move(*model), settings);
    EXPECT_TRUE(run.ok());
    const graph::EventGraph& g = serial->graph();
    double sum = 0;
    for (const graph::WaitInfo& w : g.waits()) {
      if (w.awaited == graph::kNoVertex || run->result.ready(w.resume) < 0) continue;
      for (std::size_t i = 0; i < g.predecessors(w.resume).size(); ++i)
        if (g.predecessor_kinds(w.resume)[i] == graph::EdgeKind::continuation) {
          const graph::VertexId before = g.predecessors(w.resume)[i];
          if (run->result.end(before) >= 0)
            sum += static_cast<double>(std::max<std::int64_t>(0, run->result.ready(w.resume) - run->result.end(before)));
        }
    }
    return sum;
  };
  double lo = std::log(1000.0), hi = std::log(1e8 + 1000.0);
  ASSERT_LT(replayed_waits(25000), measured);
  ASSERT_GE(replayed_waits(1e8), measured);
  for (int step = 0; step < 14; ++step) {
    const double mid = 0.5 * (lo + hi);
    (replayed_waits(std::exp(mid) - 1000.0) < measured ? lo : hi) = mid;
  }
  const double oracle_latency = std::round(std::exp(hi) - 1000.0);
  const double oracle_after = replayed_waits(oracle_latency);

  for (unsigned threads : {1u, 2u, 4u}) {
    ReadingOptions reading;
    reading.threads = threads;
    auto trace = load_trace({circuit}, reading);
    ASSERT_TRUE(trace.ok());
    const TracedNetworkFit fit = fit_traced_network(*trace, {}, traced_facts(*trace));
    ASSERT_TRUE(fit.fitted) << fit.reason;
    EXPECT_EQ(fit.latency_ns, oracle_latency) << threads << " thread(s)";
    EXPECT_EQ(fit.replayed_after_ns, oracle_after) << threads << " thread(s)";
    EXPECT_EQ(fit.measured_ns, measured);
    EXPECT_EQ(fit.replayed_before_ns, replayed_waits(25000));
    // The plain bisection's 16 replays (the assumed latency, 100 ms, 14 steps), and any guessed ahead wrongly.
    if (threads == 1) EXPECT_EQ(fit.replays, 16u);
    else EXPECT_GE(fit.replays, 16u) << threads << " thread(s)";
  }
}

// Hand-computed: task A on node 0 issues task B (100 us) on node 1 and waits for it; the wait measured 10.1 ms.
// A's busy time is 10 us, its two actions at 1/3 and 2/3 of it: B is issued at 3.333 us and the wait starts at
// 6.667 us. Replayed, the wait lasts from 6.667 us to B's issue, the launch crossing to node 1 (one latency L),
// B's 100 us and its finish event crossing back (another L): 2L + 96.667 us. With the assumed 25 us that is
// 146.667 us; equal to the measured 10100 us, L = 5001.667 us, which the traced machine takes as its network
// latency (runtime costs are 0 there).
TEST(TracedNetworkFit, TheMeasuredWaitGivesTheLatency) {
  auto records = testing::make_trace(
      {{0, {"Processor: 80000000 1", "Processor: 80800000 1", "Memory: 60000000 1", "Memory: 60800000 1",
            testing::task(5, "80000000", "(20000001,1)"), testing::task(6, "80800000", "(20000002,1)", "(0,0)", "(20000001,1)"),
            "Task Wait: (20000001,1) (20000002,1) 10100", "Task Time: (20000001,1) 10110"}},
       {1, {"Task Time: (20000002,1) 100"}}});
  auto trace = load_records(std::move(records), "hand-made", {});
  ASSERT_TRUE(trace.ok());
  const TracedNetworkFit fit = fit_traced_network(*trace, {});
  ASSERT_TRUE(fit.fitted) << fit.reason;
  EXPECT_EQ(fit.waits, 1u);
  EXPECT_EQ(fit.measured_ns, 10100000);
  EXPECT_NEAR(fit.latency_ns, 5001667, 5001667 * 0.002);
  EXPECT_NEAR(fit.replayed_after_ns, 10100000, 10100000 * 0.004);
  EXPECT_NEAR(fit.replayed_before_ns, 146667, 1);
  // The traced machine uses it, tagged as fitted; it is fitted once; an override still wins.
  const TracedMachineFit machine = fit_traced_machine(*trace);
  EXPECT_GE(machine.replays, 16u);
  EXPECT_NE(machine.toml.find("# [F] fitted so that the 1 wait(s)"), std::string::npos) << machine.toml;
  const TracedMachineFit again = fit_traced_machine(*trace);
  EXPECT_EQ(again.replays, 0u);
  EXPECT_EQ(again.toml, machine.toml);
  auto run = replay_trace(*trace, {"traced", {}}, {});
  ASSERT_TRUE(run.ok());
  EXPECT_NEAR(static_cast<double>(run->model.network_latency_ns), 5001667, 5001667 * 0.002);
  EXPECT_EQ(replay_trace(*trace, {"traced", {"network.latency_ns=7"}}, {})->model.network_latency_ns, 7);
}

TEST(TracedNetworkFit, NoFitOnOneNodeOrWithoutMeasuredWaits) {
  auto one = load_trace({RR_SOURCE_DIR "/data/traces/real/full_ghost_b2_cpu2"}, {});
  ASSERT_TRUE(one.ok());
  const TracedNetworkFit fit = fit_traced_network(*one, {});
  EXPECT_FALSE(fit.fitted);
  EXPECT_NE(fit.reason.find("one node"), std::string::npos);
  EXPECT_EQ(fit.replays, 0u);
  EXPECT_NE(fit_traced_machine(*one).toml.find("latency_ns = 25000   # [A]"), std::string::npos);
  auto no_wait = load_records(testing::make_trace({{0, {"Processor: 80000000 1", "Processor: 80800000 1",
                                                        testing::task(5, "80000000", "(20000001,1)"), "Task Time: (20000001,1) 10"}},
                                                   {1, {}}}),
                              "t", {});
  ASSERT_TRUE(no_wait.ok());
  EXPECT_FALSE(fit_traced_network(*no_wait, {}).fitted);
}

}  // namespace
}  // namespace rr::session
