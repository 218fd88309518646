// Matching by key and launch order, grouping past 8 classes, the structure class on real Legion Prof logs, and
// the errors: runs of two applications, a machine that cannot be read.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "explain/explain.hpp"
#include "gen/generators.hpp"
#include "gen/plant.hpp"
#include "support/generated_trace.hpp"
#include "support/test_dir.hpp"

namespace rr::explain {
namespace {

namespace fs = std::filesystem;

using rr::testing::write_and_load;

replay::MachineMap map_of(const session::LoadedTrace& t) {
  auto model = session::load_machine_for(t, {"traced", {}});
  auto map = replay::MachineMap::build(t.records, *model, {});
  return std::move(*map);
}

TEST(Matching, PairsByKeyInLaunchOrder) {
  const rr::testing::TestDir d("rr_explain_match");
  const auto a = write_and_load(d.path() / "a", gen::make_stencil(1, 10, {3, 2, 1}));
  const auto b = write_and_load(d.path() / "b", gen::make_stencil(1, 12, {3, 2, 1}));
  const Matching m = match_operations(a.graph(), map_of(a), b.graph(), map_of(b));
  // Every task and copy of the shorter run has its counterpart; the two extra steps of B do not.
  EXPECT_EQ(m.matched, m.a.compared);
  EXPECT_EQ(m.a.unmatched, 0u);
  EXPECT_GT(m.b.unmatched, 0u);
  std::uint64_t tasks_a = 0;
  for (graph::VertexId v = 0; v < a.graph().vertex_count(); ++v) {
    if (a.graph().kind(v) != graph::OpKind::task) continue;
    ++tasks_a;
    const graph::VertexId u = m.a.other[v];
    ASSERT_NE(u, graph::kNoVertex);
    EXPECT_EQ(b.graph().task(u).func_id, a.graph().task(v).func_id);
    EXPECT_EQ(b.graph().node(u), a.graph().node(v));
    EXPECT_EQ(m.b.other[u], v);
  }
  EXPECT_EQ(tasks_a, 30u);
  // The names are the functions and copy paths of both runs, once each, sorted.
  EXPECT_TRUE(std::is_sorted(m.names.begin(), m.names.end()));
  EXPECT_NE(std::find(m.names.begin(), m.names.end(), "f7"), m.names.end());
}

TEST(Explain, GroupsPastEightClasses) {
  const rr::testing::TestDir d("rr_explain_group");
  gen::Program pa = gen::make_random_dag(3000, {2, 2, 4});
  gen::Program pb = pa;
  // Every one of the eight functions slower on node 0, each by its own factor, and the network slower: nine
  // classes, more than Shapley values are taken over.
  for (std::uint32_t f = 5; f < 13; ++f) gen::plant_slow_function(pb, {f, 0, 1.1 + 0.05 * (f - 5)});
  gen::TruthMachine slow_network;
  slow_network.network_latency_ns *= 4;
  const auto a = write_and_load(d.path() / "a", pa);
  const auto b = write_and_load(d.path() / "b", pb, slow_network);
  ExplainOptions o;
  o.machine_a = {(d.path() / "a" / "machine.toml").string(), {}};
  o.machine_b = {(d.path() / "b" / "machine.toml").string(), {}};
  auto r = explain_traces(a, b, o);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_LE(r->classes.size(), 8u);
  // Every subset, and B's own replay when the graphs are one program (A with every class must replay as B).
  bool structure = false;
  for (const FactClass& c : r->classes) structure = structure || c.kind == FactKind::structure;
  EXPECT_EQ(r->replays, (std::uint64_t{1} << r->classes.size()) + (structure ? 0 : 1));
  bool grouped = false;
  std::int64_t sum = 0;
  for (const FactClass& c : r->classes) {
    grouped = grouped || c.members.size() > 1;
    sum += c.share_ns;
  }
  EXPECT_TRUE(grouped);
  EXPECT_EQ(sum, r->difference_ns());
  ASSERT_FALSE(r->notes.empty());
  EXPECT_NE(r->notes.front().find("grouped"), std::string::npos) << r->notes.front();
}

TEST(Explain, ThreadCountDoesNotChangeTheResult) {
  const rr::testing::TestDir d("rr_explain_threads");
  gen::Program pa = gen::make_stencil(1, 20, {4, 2, 2});
  gen::Program pb = pa;
  gen::plant_slow_function(pb, {7, 2, 1.4});
  const auto a = write_and_load(d.path() / "a", pa);
  const auto b = write_and_load(d.path() / "b", pb);
  ExplainOptions o;
  o.threads = 1;
  auto one = explain_traces(a, b, o);
  o.threads = 3;
  auto three = explain_traces(a, b, o);
  ASSERT_TRUE(one.ok() && three.ok());
  EXPECT_EQ(one->subset_ns, three->subset_ns);
  ASSERT_EQ(one->classes.size(), three->classes.size());
  for (std::size_t i = 0; i < one->classes.size(); ++i) EXPECT_EQ(one->classes[i].share_ns, three->classes[i].share_ns);
}

TEST(Explain, RealLegionProfPairWithStructure) {
  const std::string dir = RR_SOURCE_DIR "/data/traces/legion-prof/";
  auto a = session::load_trace({dir + "circuit_small_cpu2_util1"}, {});
  auto b = session::load_trace({dir + "circuit_small_cpu2_util1_nocritical"}, {});
  ASSERT_TRUE(a.ok() && b.ok());
  auto r = explain_traces(*a, *b, {});
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  std::int64_t sum = 0;
  bool structure = false;
  for (const FactClass& c : r->classes) {
    sum += c.share_ns;
    structure = structure || c.kind == FactKind::structure;
  }
  EXPECT_TRUE(structure);
  EXPECT_EQ(sum, r->difference_ns());
  EXPECT_EQ(r->subset_ns.front(), r->replay_a_ns);
  EXPECT_EQ(r->subset_ns.back(), r->replay_b_ns);
  // Each replay of a trace's own graph on its own traced machine is the replay command's.
  auto own_b = session::replay_trace(*b, {"traced", {}}, {});
  ASSERT_TRUE(own_b.ok());
  EXPECT_EQ(own_b->result.makespan_ns, r->replay_b_ns);
  EXPECT_TRUE(r->observed_a_ns.has_value());
  EXPECT_TRUE(r->observed_b_ns.has_value());
}

// The configurations of one application (processors and cores): every pair adds up exactly, A with no class from
// B replays as A and with every class as B, and B's replay is the replay command's under the same placement.
TEST(Explain, ConfigurationPairsAddUp) {
  const std::string dir = RR_SOURCE_DIR "/data/traces/legion-prof-configs/circuit_small_";
  const std::vector<std::pair<std::string, std::uint32_t>> runs = {
      {"cpu1_util1_2cores", 2}, {"cpu2_util1_2cores", 2}, {"cpu4_util2_2cores", 2}, {"cpu1_util1_1core", 1}};
  std::vector<session::LoadedTrace> traces;
  for (const auto& [name, cores] : runs) {
    session::ReadingOptions o;
    o.build.traced_cores = cores;
    auto t = session::load_trace({dir + name}, o);
    ASSERT_TRUE(t.ok()) << t.error().to_string();
    traces.push_back(std::move(*t));
  }
  for (std::size_t i = 0; i < traces.size(); ++i)
    for (std::size_t j = 0; j < traces.size(); ++j) {
      if (i == j) continue;
      auto r = explain_traces(traces[i], traces[j], {});
      ASSERT_TRUE(r.ok()) << r.error().to_string();
      std::int64_t sum = 0;
      for (const FactClass& c : r->classes) sum += c.share_ns;
      const std::string what = runs[i].first + " -> " + runs[j].first;
      EXPECT_EQ(sum, r->difference_ns()) << what;
      EXPECT_EQ(r->subset_ns.front(), r->replay_a_ns) << what;
      EXPECT_EQ(r->subset_ns.back(), r->replay_b_ns) << what;
      session::ReplaySettings s;
      s.mapping.placement = machine::placement_from_name(r->placement);
      s.critical_path = false;
      auto own = session::replay_trace(traces[j], {"traced", {}}, s);
      ASSERT_TRUE(own.ok());
      EXPECT_EQ(own->result.makespan_ns, r->replay_b_ns) << what;
    }
}

TEST(ExplainErrors, RunsOfTwoApplications) {
  const rr::testing::TestDir d("rr_explain_apps");
  const auto a = write_and_load(d.path() / "stencil", gen::make_stencil(1, 10, {3, 2, 1}));
  const auto b = write_and_load(d.path() / "dag", gen::make_chain(40, {3, 2, 1}));
  auto r = explain_traces(a, b, {});
  ASSERT_FALSE(r.ok());
  const std::string message = r.error().to_string();
  EXPECT_NE(message.find((d.path() / "stencil").string()), std::string::npos) << message;
  EXPECT_NE(message.find((d.path() / "dag").string()), std::string::npos) << message;
  EXPECT_NE(message.find("do not look like two runs of one application"), std::string::npos) << message;
}

TEST(ExplainErrors, MachineThatCannotBeRead) {
  const rr::testing::TestDir d("rr_explain_machine");
  const auto a = write_and_load(d.path() / "a", gen::make_stencil(1, 4, {2, 2, 1}));
  ExplainOptions o;
  o.machine_b = {(d.path() / "missing.toml").string(), {}};
  auto r = explain_traces(a, a, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().to_string().find("missing.toml"), std::string::npos) << r.error().to_string();
}

}  // namespace
}  // namespace rr::explain
