// The split of one replay into blocks by model node (replay/src/partition.hpp): consecutive nodes go together,
// every operation goes with its node (a task with the processors that may run it, a later segment with its
// task), nothing crosses blocks sooner than the lookahead, a copy's first hop on another block's instance marks
// that instance shared, and a split that cannot be made or would not pay says why.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "replay/src/partition.hpp"
#include "replay/src/shared_state.hpp"
#include "replay/task_timing.hpp"
#include "replay/timing_rules.hpp"
#include "session/session.hpp"

namespace rr::replay {
namespace {

using graph::EdgeKind;
using graph::OpKind;
using graph::VertexId;

const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";

// A bundled 4-node S3D trace (CPU and GPU tasks, copies between nodes) mapped on a model, with its copies planned.
struct Mapped {
  session::LoadedTrace trace;
  session::ReplayRun run;
  SharedState shared;
  const graph::EventGraph& g() const { return trace.graph(); }
};

Mapped mapped(std::vector<std::string> overrides = {}, std::uint32_t fold = 0) {
  auto trace = session::load_trace({RR_SOURCE_DIR "/data/traces/s3d/dme_mixed_4n"}, {});
  EXPECT_TRUE(trace.ok());
  session::ReplaySettings settings;
  settings.critical_path = false;
  settings.mapping.fold = fold;
  auto run = session::replay_trace(*trace, {kTitan, std::move(overrides)}, settings);
  EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().to_string());
  Mapped m{std::move(*trace), std::move(*run), {}};
  EXPECT_FALSE(plan_copies(m.g(), m.run.map, m.run.model, m.shared));
  return m;
}

Partition split(const Mapped& m, std::uint32_t blocks, PartitionLimits limits = {}) {
  return partition_by_node(m.g(), m.run.map, m.run.model, m.shared.copies, {}, blocks, limits);
}

TEST(Partition, ConsecutiveNodesGoTogetherAndEveryOperationWithItsNode) {
  const Mapped m = mapped();
  const graph::EventGraph& g = m.g();
  const MachineMap& map = m.run.map;
  ASSERT_EQ(map.model_nodes(), 4u);
  const Partition p = split(m, 2);
  ASSERT_EQ(p.why_not, nullptr);
  ASSERT_EQ(p.count, 2u);
  EXPECT_EQ(p.of_node, (std::vector<std::uint8_t>{0, 0, 1, 1}));
  ASSERT_EQ(p.of_vertex.size(), g.vertex_count());
  std::uint32_t in_block[2] = {0, 0};
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    ++in_block[p.of_vertex[v]];
    if (g.kind(v) == OpKind::task_resume) {
      EXPECT_EQ(p.of_vertex[v], p.of_vertex[g.task_of(v)]) << "a later segment stays with its task";
    } else if (g.kind(v) == OpKind::task) {
      const graph::TaskInfo& t = g.task(v);
      for (std::uint32_t proc : map.targets(t.func_id, t.processor.value()))
        EXPECT_EQ(p.of_vertex[v], p.of_node[map.processors()[proc].node]) << "a task goes with its processors";
    } else if (g.node(v) != graph::kNoNode) {
      EXPECT_EQ(p.of_vertex[v], p.of_node[map.fold(g.node(v))]);
    }
  }
  EXPECT_GT(in_block[0], 0u);
  EXPECT_GT(in_block[1], 0u);
}

TEST(Partition, NothingCrossesBlocksSoonerThanTheLookahead) {
  const Mapped m = mapped();
  const graph::EventGraph& g = m.g();
  const Partition p = split(m, 4);
  ASSERT_EQ(p.why_not, nullptr);
  ASSERT_EQ(p.count, 4u);
  EXPECT_GT(p.lookahead, 0);
  EXPECT_LE(p.lookahead, p.least_hop);
  int crossing = 0;
  for (VertexId u = 0; u < g.vertex_count(); ++u) {
    auto succ = g.successors(u);
    auto kinds = g.successor_kinds(u);
    for (std::size_t i = 0; i < succ.size(); ++i) {
      if (p.of_vertex[u] == p.of_vertex[succ[i]]) continue;
      ++crossing;
      EXPECT_NE(kinds[i], EdgeKind::continuation);
      EXPECT_NE(kinds[i], EdgeKind::phase_order);
      if (kinds[i] != EdgeKind::arrival || g.kind(u) == OpKind::barrier_arrive) {  // an alter sends no message
        EXPECT_GE(edge_delay_ns(g, m.run.map, m.run.model, u, succ[i], kinds[i]), p.lookahead);
      }
    }
  }
  EXPECT_GT(crossing, 0) << "the trace's nodes talk to each other";
}

// A copy's request for its first hop on another block's instance takes effect at once: that instance is shared,
// and no hop on a shared instance is shorter than least_hop. With the NIC on the destination's side, a remote
// copy's only hop is on the other node's instance.
TEST(Partition, FirstHopsOnAnotherBlocksInstanceAreShared) {
  const Mapped m = mapped({"channels.nic.side=\"destination\""});
  const graph::EventGraph& g = m.g();
  const machine::MachineModel& model = m.run.model;
  const CopyPlans& copies = m.shared.copies;
  const Partition p = split(m, 4);
  ASSERT_EQ(p.why_not, nullptr);
  const TaskTiming timing(g, m.run.map, model, {});
  const std::uint32_t nodes = m.run.map.model_nodes();
  ASSERT_EQ(p.shared_instance.size(), model.channels.size() * nodes);
  for (VertexId c = 0; c < g.vertex_count(); ++c) {
    if (g.kind(c) != OpKind::copy) continue;
    const CopyPlan& plan = copies.plans[g.payload(c)];
    if (plan.path_slot == CopyPlan::kRemoved) continue;
    const auto& hops = copies.path_of(plan).hops;
    for (std::uint32_t h = 0; h < hops.size(); ++h) {
      const std::uint32_t node = copies.hop_node(model, plan, h);
      const std::size_t key = std::size_t{hops[h]} * nodes + node;
      if (h == 0 && p.of_node[node] != p.of_vertex[c]) {
        EXPECT_TRUE(p.shared_instance[key]);
      }
      if (p.shared_instance[key]) {
        EXPECT_GE(hop_ns(g, model, timing, hops[h], c), p.least_hop);
      }
    }
  }
  EXPECT_GT(std::count(p.shared_instance.begin(), p.shared_instance.end(), 1), 0);
  EXPECT_LE(p.lookahead, p.least_hop);
}

TEST(Partition, NoMoreBlocksThanModelNodes) {
  const Partition p = split(mapped(), 8);
  ASSERT_EQ(p.why_not, nullptr);
  EXPECT_EQ(p.count, 4u);
  EXPECT_EQ(p.of_node, (std::vector<std::uint8_t>{0, 1, 2, 3}));
}

TEST(Partition, SaysWhyItDoesNotSplit) {
  const Mapped m = mapped();
  auto why = [](const Partition& p) { return std::string(p.why_not ? p.why_not : "split"); };
  const std::string too_few = "fewer than two model nodes, or too few operations to share";
  EXPECT_EQ(why(split(m, 1)), too_few);
  const Partition small = split(m, 2, {m.g().vertex_count() / 2 + 1, 0});
  EXPECT_EQ(why(small), too_few);
  EXPECT_EQ(small.count, 1u);
  EXPECT_EQ(why(split(mapped({}, 1), 2)), too_few);
  EXPECT_EQ(why(split(m, 2, {0, machine::TimeNs{1} << 50})), "blocks would wait for each other more than they work");
  // Without network latency or a remote trigger cost, an input reaches another node's block at once.
  EXPECT_EQ(why(split(mapped({"network.latency_ns=0", "runtime.trigger_remote_ns=0"}), 2)),
            "something crosses blocks without delay");
}

}  // namespace
}  // namespace rr::replay
