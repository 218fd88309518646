// The read -> graph -> machine -> map -> replay pipeline behind replay, critpath and friends.
#include "replay_session.hpp"

#include <iostream>

#include "machine_models/machine_loader.hpp"
#include "parser/trace_reader.hpp"
#include "progress.hpp"

namespace rr::app {

void add_replay_inputs(CLI::App* cmd, ReplayInputs& in) {
  cmd->add_option("trace", in.trace, "trace: folder, log files, globs or tar archives")->required();
  cmd->add_option("-m,--machine", in.machine, "machine description (TOML), e.g. data/machines/titan.toml")->required();
  cmd->add_option("--set", in.overrides, "override a machine value: key=value (repeatable), e.g. processors.gpu.speed=4");
  cmd->add_option("--fold", in.fold, "replay an N-node trace on this many nodes (node n runs on n mod M)");
}

std::unique_ptr<ReplaySession> open_replay(const char* command, const ReplayInputs& in, const CommonOptions& common,
                                           const replay::ReplayOptions& options) {
  auto fail = [&](const core::InputError& e) {
    std::cerr << "realm-replay " << command << ": error: " << e.to_string() << "\n";
    return nullptr;
  };
  auto session = std::make_unique<ReplaySession>();
  auto model = machine::load_machine(in.machine, in.overrides);
  if (!model) return fail(model.error());
  session->model = std::move(*model);
  parser::ReadOptions read;
  read.threads = common.threads;
  auto trace = read_trace_with_progress(in.trace, read);
  if (!trace) return fail(trace.error());
  session->trace = std::move(*trace);
  graph::BuildOptions build;
  build.threads = common.threads;
  session->built = graph::build_event_graph_releasing(session->trace, build);
  auto map = replay::MachineMap::build(session->trace, session->model, in.fold);
  if (!map) return fail(map.error());
  session->map = std::move(*map);
  auto result = replay::run_replay(session->built.graph, *session->map, session->model, options);
  if (!result) return fail(result.error());
  session->result = std::move(*result);
  return session;
}

}  // namespace rr::app
