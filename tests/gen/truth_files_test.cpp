// The files that say what a generated trace's replay must reproduce: truth.json read back by a JSON reader gives
// the scheduler's truth, and machine.toml read back by the machine loader gives the truth machine.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>

#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "gen/s3d.hpp"
#include "machine_models/machine_loader.hpp"
#include "support/test_dir.hpp"

namespace rr::gen {
namespace {

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

TEST(TruthJson, ReadsBackAsTheScheduledTruth) {
  const rr::testing::TestDir dir("rr_truth_json");
  const Program p = make_s3d({"heptane", "mixed", 2, 1, 48, 7});
  const TruthMachine m;
  const Truth truth = schedule(p, m);
  Quirks quirks;
  quirks.nil_args = 0.5;
  const WriteResult written = write_trace(p, truth, m, dir.path().string(), Compression::none, quirks);
  const nlohmann::json j = read_json(dir.path() / "truth.json");

  EXPECT_EQ(j["schema"], "realm-replay/truth");
  EXPECT_EQ(j["parameters"]["generator"], "s3d");
  EXPECT_EQ(j["parameters"]["seed"], 7);
  EXPECT_EQ(j["parameters"]["nodes"], 2);
  EXPECT_EQ(j["parameters"]["mechanism"], "heptane");  // the generator's own parameters, typed
  EXPECT_EQ(j["parameters"]["steps"], 1);
  EXPECT_EQ(j["injected"]["nil_args"], written.injected.at("nil_args"));
  EXPECT_EQ(j["makespan_ns"], truth.makespan_ns);
  EXPECT_EQ(j["never_ran"], 0);
  const auto& ops = j["operations"];
  ASSERT_EQ(ops.size(), p.ops.size());
  std::set<std::string> events;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    ASSERT_EQ(ops[i]["start_ns"], truth.start[i]) << i;
    ASSERT_EQ(ops[i]["end_ns"], truth.end[i]) << i;
    ASSERT_EQ(ops[i]["node"], p.ops[i].node) << i;
    ASSERT_EQ(ops[i]["kind"], kGenKindNames[static_cast<int>(p.ops[i].kind)]) << i;
    if (p.ops[i].kind != GenKind::phase) events.insert(ops[i]["event"].get<std::string>());
  }
  EXPECT_EQ(events.size(), std::count_if(p.ops.begin(), p.ops.end(), [](const GenOp& o) { return o.kind != GenKind::phase; }))
      << "every operation but a barrier phase has an event of its own";
}

TEST(TruthMachineFile, LoadsAsTheMachineTheTruthWasScheduledOn) {
  const rr::testing::TestDir dir("rr_truth_machine");
  const Program p = make_s3d({"dme", "mixed", 2, 1, 48, 1});
  TruthMachine m;
  m.network_latency_ns = 1234;
  m.nic_latency_ns = 777;
  m.lanes = 3;
  write_trace(p, schedule(p, m), m, dir.path().string(), Compression::none);
  auto model = machine::load_machine((dir.path() / "machine.toml").string());
  ASSERT_TRUE(model.ok()) << model.error().to_string();
  EXPECT_EQ(model->processor(core::ProcessorKind::gpu).count, p.gpus_per_node);
  EXPECT_EQ(model->processor(core::ProcessorKind::cpu).count, p.cpus_per_node + p.drivers_per_node);
  EXPECT_EQ(model->processor(core::ProcessorKind::utility).count, p.utility_per_node);
  EXPECT_EQ(model->network_latency_ns, 1234);
  EXPECT_EQ(model->runtime.trigger_local_ns, m.trigger_local_ns);
  EXPECT_EQ(model->runtime.trigger_remote_ns, m.trigger_remote_ns);
  EXPECT_EQ(model->runtime.merge_ns, m.merge_ns);
  ASSERT_TRUE(model->default_placement.has_value());
  EXPECT_EQ(*model->default_placement, machine::Placement::traced);
  // A local copy between any two memories takes the memcpy channel, a remote one the NIC, both at 1 byte/ns.
  using core::MemoryKind;
  for (MemoryKind src : {MemoryKind::system, MemoryKind::zero_copy, MemoryKind::framebuffer})
    for (MemoryKind dst : {MemoryKind::system, MemoryKind::zero_copy, MemoryKind::framebuffer})
      for (bool remote : {false, true}) {
        const machine::CopyPath* path = model->path(src, dst, remote);
        ASSERT_NE(path, nullptr);
        ASSERT_EQ(path->hops.size(), 1u);
        const machine::Channel& c = model->channels[path->hops[0]];
        EXPECT_EQ(c.name, remote ? "nic" : "memcpy");
        EXPECT_EQ(c.latency_ns, remote ? 777 : m.memcpy_latency_ns);
        EXPECT_EQ(c.lanes, 3u);
        EXPECT_EQ(model->transfer_ns(c, 1000), c.latency_ns + 1000);
      }
}

}  // namespace
}  // namespace rr::gen
