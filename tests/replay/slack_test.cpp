// Slack by hand on small graphs, and its invariants on the bundled traces.
#include <gtest/gtest.h>

#include "replay/slack.hpp"
#include "support/replay_fixture.hpp"

namespace rr::replay {
namespace {

using testing::replay_lines;
using testing::task;

std::vector<TimeNs> slack_of(const testing::Replayed& r) {
  return operation_slack(r.graph(), r.run.map, r.run.model, r.run.result);
}

TimeNs slack_at(const testing::Replayed& r, const std::vector<TimeNs>& s, std::uint64_t id) {
  return s[r.vertex_of(graph::OpKind::task, id, 1)];
}

// T1 (10 us, CPU 0) and T2 (20 us, CPU 1) side by side: the run ends at 20 us, so T1 could end 10 us later.
TEST(Slack, SideBySideTheShorterHasTheDifference) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000001", "(20000002,1)"),
                         "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 20"});
  const auto s = slack_of(r);
  EXPECT_EQ(slack_at(r, s, 0x20000001), 10000);
  EXPECT_EQ(slack_at(r, s, 0x20000002), 0);
}

// Three 10 us tasks queued on CPU 0 in the order they ran: a later end of any moves the ones after it.
TEST(Slack, AProcessorsOrderIsKept) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000000", "(20000002,1)"),
                         task(3, "80000000", "(20000003,1)"), "Task Time: (20000001,1) 10", "Task Time: (20000002,1) 10",
                         "Task Time: (20000003,1) 10"});
  const auto s = slack_of(r);
  for (std::uint64_t id : {0x20000001, 0x20000002, 0x20000003}) EXPECT_EQ(slack_at(r, s, id), 0) << std::hex << id;
}

// T1 (10 us) feeds T3 (10 us) on CPU 0; T2 (30 us) runs alone on CPU 1. T3 ends at 20, the run at 30: T1 and T3
// may each end 10 us later, T2 not at all.
TEST(Slack, AChainSharesItsRoom) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(2, "80000001", "(20000002,1)"),
                         task(3, "80000000", "(20000003,1)", "(20000001,1)"), "Task Time: (20000001,1) 10",
                         "Task Time: (20000002,1) 30", "Task Time: (20000003,1) 10"});
  ASSERT_EQ(r.run.result.makespan_ns, 30000);
  const auto s = slack_of(r);
  EXPECT_EQ(slack_at(r, s, 0x20000001), 10000);
  EXPECT_EQ(slack_at(r, s, 0x20000003), 10000);
  EXPECT_EQ(slack_at(r, s, 0x20000002), 0);
  EXPECT_EQ(near_critical_slack(30000), 300);
}

// A task waiting for its processor has room before it: T2 (ready at once) waits 20 us behind T1 on CPU 0, while T0
// (5 us, CPU 1) feeds T2. T0 may end as late as T2's latest start, 20 us: 15 us later than it did.
TEST(Slack, WaitingForTheProcessorIsRoomForTheInput) {
  auto r = replay_lines({task(1, "80000000", "(20000001,1)"), task(9, "80000001", "(20000009,1)"),
                         task(2, "80000000", "(20000002,1)", "(20000009,1)"), "Task Time: (20000001,1) 20",
                         "Task Time: (20000009,1) 5", "Task Time: (20000002,1) 10"});
  ASSERT_EQ(r.run.result.makespan_ns, 30000);
  const auto s = slack_of(r);
  EXPECT_EQ(slack_at(r, s, 0x20000009), 15000);
  EXPECT_EQ(slack_at(r, s, 0x20000001), 0);
  EXPECT_EQ(slack_at(r, s, 0x20000002), 0);
}

// On every bundled real trace: no slack is negative, and the operation that ends the run has none.
TEST(Slack, NeverNegativeAndNoneAtTheEnd) {
  for (const char* name : {"full_circuit_2node_p4_cpu2", "full_ghost_b2_cpu2"}) {
    auto r = testing::replay_real(name);
    const auto s = slack_of(r);
    const auto& res = r.run.result;
    bool end_found = false;
    for (graph::VertexId v = 0; v < r.graph().vertex_count(); ++v) {
      if (s[v] == kUnboundedSlack) continue;
      EXPECT_GE(s[v], 0) << name << " vertex " << v;
      if (res.counts(v) && res.end(v) == res.makespan_ns) {
        EXPECT_EQ(s[v], 0) << name;
        end_found = true;
      }
    }
    EXPECT_TRUE(end_found) << name;
  }
}

}  // namespace
}  // namespace rr::replay
