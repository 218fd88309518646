// Test helper: replays log lines on a cost-free machine description (costs added per test with --set style overrides).
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "machine_models/machine_loader.hpp"
#include "session/session.hpp"
#include "support/trace_builder.hpp"

namespace rr::testing {

using replay::ReplayResult;
using replay::TimeNs;
using graph::OpKind;
using graph::VertexId;

// A machine with no costs at all: every test adds exactly the costs it is about. Tasks run on their traced
// processors unless a test chooses another placement.
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
placement = "traced"
)";

inline const std::vector<std::string> kProcs = {"Processor: 80000000 1", "Processor: 80000001 1", "Processor: 80000002 0",
                                         "Processor: 80800000 1", "Memory: 60000000 1", "Memory: 60800000 1"};

// A trace replayed through the session, the one pipeline: the trace and its run, and lookups by event.
struct Replayed {
  session::LoadedTrace trace;
  session::ReplayRun run;
  const graph::EventGraph& graph() const { return trace.graph(); }
  const ReplayResult& result() const { return run.result; }
  VertexId vertex_of(OpKind kind, std::uint64_t id, std::uint32_t gen) const {
    for (VertexId v = 0; v < graph().vertex_count(); ++v)
      if (graph().kind(v) == kind && graph().event(v) == core::EventKey::make(id, gen)) return v;
    ADD_FAILURE() << "no such operation";
    return graph::kNoVertex;
  }
  TimeNs end_of(OpKind kind, std::uint64_t id, std::uint32_t gen) const {
    const VertexId v = vertex_of(kind, id, gen);
    return v == graph::kNoVertex ? -2 : result().end(v);
  }
  TimeNs ready_of(OpKind kind, std::uint64_t id, std::uint32_t gen) const {
    const VertexId v = vertex_of(kind, id, gen);
    return v == graph::kNoVertex ? -2 : result().ready(v);
  }
};

// Records in memory replayed on a model in memory.
inline Replayed replay_records(core::TraceRecords records, machine::MachineModel model, std::uint32_t fold = 0) {
  auto trace = session::load_records(std::move(records), "test", {});
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().to_string());
  session::ReplaySettings settings;
  settings.mapping.fold = fold;
  auto run = session::replay_on(*trace, std::move(model), settings);
  EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().to_string());
  return {std::move(*trace), std::move(*run)};
}

// A trace on disk replayed on a machine file.
inline Replayed replay_path(const std::string& trace_path, const std::string& machine_path,
                            std::vector<std::string> overrides = {}, std::uint32_t fold = 0) {
  auto trace = session::load_trace({trace_path}, {});
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().to_string());
  session::ReplaySettings settings;
  settings.mapping.fold = fold;
  auto run = session::replay_trace(*trace, {machine_path, std::move(overrides)}, settings);
  EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().to_string());
  return {std::move(*trace), std::move(*run)};
}

inline Replayed replay_lines(std::vector<std::string> node0, std::vector<std::string> overrides = {},
                      std::vector<std::string> node1 = {}, std::uint32_t fold = 0) {
  std::vector<std::string> lines0 = kProcs;
  lines0.insert(lines0.end(), node0.begin(), node0.end());
  std::vector<NodeLog> logs{{0, lines0}};
  if (!node1.empty()) logs.push_back({1, node1});
  auto model = machine::parse_machine(kBareMachine, "bare.toml", overrides);
  EXPECT_TRUE(model.ok()) << (model.ok() ? "" : model.error().to_string());
  return replay_records(make_trace(logs), std::move(*model), fold);
}

inline std::string task(std::uint32_t func, const char* proc, const char* finish, const char* pre = "(0,0)",
                 const char* encl = "(0,0)", int prio = 0) {
  return "Task Request: " + std::to_string(func) + " " + proc + " " + finish + " " + pre + " " + encl + " " +
         std::to_string(prio) + " (nil) 0";
}


// A real bundled trace replayed on Titan.
inline Replayed replay_real(const std::string& name) {
  return replay_path(std::string(RR_SOURCE_DIR "/data/traces/real/") + name, RR_SOURCE_DIR "/data/machines/titan.toml");
}

}  // namespace rr::testing
