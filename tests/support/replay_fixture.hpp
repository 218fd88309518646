// Test helper: replays log lines on a cost-free machine description (costs added per test with --set style overrides).
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "graph/graph_builder.hpp"
#include "parser/trace_reader.hpp"
#include "machine_models/machine_loader.hpp"
#include "replay/replay_engine.hpp"
#include "support/trace_builder.hpp"

namespace rr::testing {

using replay::ReplayResult;
using replay::TimeNs;
using replay::MachineMap;
using replay::run_replay;
using graph::OpKind;
using graph::VertexId;

// A machine with no costs at all: every test adds exactly the costs it is about.
inline const char* kBareMachine = R"(
[machine]
name = "bare"
[processors.gpu]
count = 1
[processors.cpu]
count = 2
[processors.utility]
count = 1
[channels.local]
latency_ns = 0
bandwidth_gbs = 1.0
lanes = 1
[channels.net]
latency_ns = 0
bandwidth_gbs = 1.0
lanes = 1
[[paths]]
src = ["system", "registered", "zero_copy", "framebuffer"]
dst = ["system", "registered", "zero_copy", "framebuffer"]
scope = "local"
hops = ["local"]
[[paths]]
src = ["system", "registered", "zero_copy", "framebuffer"]
dst = ["system", "registered", "zero_copy", "framebuffer"]
scope = "remote"
hops = ["net"]
[network]
latency_ns = 0
[runtime]
)";

inline const std::vector<std::string> kProcs = {"Processor: 80000000 1", "Processor: 80000001 1", "Processor: 80000002 0",
                                         "Processor: 80800000 1", "Memory: 60000000 1", "Memory: 60800000 1"};

struct Replayed {
  graph::BuildResult built;
  machine::MachineModel model;
  std::optional<MachineMap> map;
  ReplayResult result;
  TimeNs end_of(OpKind kind, std::uint64_t id, std::uint32_t gen) const {
    for (VertexId v = 0; v < built.graph.vertex_count(); ++v)
      if (built.graph.kind(v) == kind && built.graph.event(v) == core::EventKey::make(id, gen)) return result.end[v];
    ADD_FAILURE() << "no such operation";
    return -2;
  }
  TimeNs ready_of(OpKind kind, std::uint64_t id, std::uint32_t gen) const {
    for (VertexId v = 0; v < built.graph.vertex_count(); ++v)
      if (built.graph.kind(v) == kind && built.graph.event(v) == core::EventKey::make(id, gen)) return result.ready[v];
    ADD_FAILURE() << "no such operation";
    return -2;
  }
};

inline Replayed replay_lines(std::vector<std::string> node0, std::vector<std::string> overrides = {},
                      std::vector<std::string> node1 = {}, std::uint32_t fold = 0) {
  std::vector<std::string> lines0 = kProcs;
  lines0.insert(lines0.end(), node0.begin(), node0.end());
  std::vector<NodeLog> logs{{0, lines0}};
  if (!node1.empty()) logs.push_back({1, node1});
  auto trace = make_trace(logs);
  auto model = machine::parse_machine(kBareMachine, "bare.toml", overrides);
  EXPECT_TRUE(model.ok()) << (model.ok() ? "" : model.error().to_string());
  auto built = graph::build_event_graph(trace);
  auto map = MachineMap::build(trace, *model, fold);
  EXPECT_TRUE(map.ok()) << (map.ok() ? "" : map.error().to_string());
  auto result = run_replay(built.graph, *map, *model);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().to_string());
  return {std::move(built), *model, std::move(*map), std::move(*result)};
}

inline std::string task(std::uint32_t func, const char* proc, const char* finish, const char* pre = "(0,0)",
                 const char* encl = "(0,0)", int prio = 0) {
  return "Task Request: " + std::to_string(func) + " " + proc + " " + finish + " " + pre + " " + encl + " " +
         std::to_string(prio) + " (nil) 0";
}


// A real bundled trace replayed on Titan.
struct RealReplay {
  graph::BuildResult built;
  machine::MachineModel model;
  std::optional<MachineMap> map;
  ReplayResult result;
};
inline RealReplay replay_real(const std::string& name) {
  auto trace = parser::read_trace({std::string(RR_SOURCE_DIR "/data/traces/real/") + name}, {});
  EXPECT_TRUE(trace.ok()) << name;
  auto built = graph::build_event_graph(*trace);
  auto model = machine::load_machine(RR_SOURCE_DIR "/data/machines/titan.toml");
  EXPECT_TRUE(model.ok());
  auto map = MachineMap::build(*trace, *model, 0);
  EXPECT_TRUE(map.ok());
  auto result = run_replay(built.graph, *map, *model);
  EXPECT_TRUE(result.ok());
  return {std::move(built), *model, std::move(*map), std::move(*result)};
}

}  // namespace rr::testing
