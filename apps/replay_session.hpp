// Shared set-up of the commands that replay a trace: read it, build the graph, load the machine, map, replay.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "graph/graph_builder.hpp"
#include "core/trace_records.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_engine.hpp"

namespace rr::app {

struct ReplayInputs {
  std::vector<std::string> trace;
  std::string machine;
  std::vector<std::string> overrides;
  std::uint32_t fold = 0;
};

struct ReplaySession {
  core::TraceRecords trace;
  graph::BuildResult built;
  machine::MachineModel model;
  std::optional<replay::MachineMap> map;
  replay::ReplayResult result;
};

// Adds the trace, --machine, --set and --fold options to a subcommand.
void add_replay_inputs(CLI::App* cmd, ReplayInputs& in);

// Runs the pipeline; on failure prints "realm-replay <command>: error: ..." and returns nullptr.
std::unique_ptr<ReplaySession> open_replay(const char* command, const ReplayInputs& in, const CommonOptions& common,
                                           const replay::ReplayOptions& options);

}  // namespace rr::app
