// A generated program as a test's trace: scheduled on a truth machine, written as logs (with its truth and machine
// files) to a folder, and read back through the session as every command reads a trace.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "gen/program.hpp"
#include "gen/s3d.hpp"
#include "gen/truth_files.hpp"
#include "machine_models/machine_writer.hpp"
#include "session/session.hpp"

namespace rr::testing {

// `program` scheduled on `machine` and written to `dir` as logs, with the log quirks asked for.
inline void write_program(const std::filesystem::path& dir, const gen::Program& program,
                          const gen::TruthMachine& machine = {}, const gen::Quirks& quirks = {}) {
  gen::write_trace(program, gen::schedule(program, machine), machine, dir.string(), gen::Compression::none, quirks);
}

inline session::LoadedTrace write_and_load(const std::filesystem::path& dir, const gen::Program& program,
                                           const gen::TruthMachine& machine = {}) {
  write_program(dir, program, machine);
  auto trace = session::load_trace({dir.string()}, {});
  if (!trace) ADD_FAILURE() << trace.error().to_string();
  return std::move(*trace);
}

// An S3D-like program of `nodes` nodes, mixed mapping (CPU and GPU tasks, host-device copies).
inline gen::S3dOptions mixed_s3d_options(std::uint32_t nodes) {
  gen::S3dOptions o;
  o.nodes = nodes;
  o.mapping = "mixed";
  return o;
}

// That program written to `dir` and read back.
inline session::LoadedTrace mixed_s3d(const std::filesystem::path& dir, std::uint32_t nodes) {
  return write_and_load(dir, gen::make_s3d(mixed_s3d_options(nodes)));
}

// Every generator family as the tests of graph parts run it at 1 to 4 ranks (the part build, a packed trace's parts,
// the replay from parts): small programs on four nodes, a 3-D stencil and an all-CPU heptane S3D on eight, a mixed
// S3D on four.
inline std::vector<std::pair<const char*, gen::Program>> part_test_families() {
  const gen::SmallOptions four{4, 2, 3};
  gen::S3dOptions all;
  all.nodes = 8;
  all.mechanism = "heptane";
  std::vector<std::pair<const char*, gen::Program>> families;
  families.emplace_back("chain", gen::make_chain(80, four));
  families.emplace_back("fork-join", gen::make_fork_join(9, 5, four));
  families.emplace_back("random-dag", gen::make_random_dag(2500, four));
  families.emplace_back("stencil 1-D", gen::make_stencil(1, 4, four));
  families.emplace_back("stencil 3-D", gen::make_stencil(3, 3, {8, 2, 5}));
  families.emplace_back("s3d mixed", gen::make_s3d(mixed_s3d_options(4)));
  families.emplace_back("s3d all, 8 nodes", gen::make_s3d(all));
  return families;
}

// The generators' truth machine for `program` with the NIC on the destination's side and a second hop back on the
// source, written to `file`: a remote copy's first hop is on the far node's channel instance (a request without
// lookahead, whatever splits the replay), its second hop back on its own node's. Call it under
// ASSERT_NO_FATAL_FAILURE: it stops the test when channel 1 is not the NIC.
inline void write_far_nic_machine(const std::filesystem::path& file, const gen::Program& program) {
  machine::MachineModel model = gen::truth_machine_model(program, gen::TruthMachine{});
  ASSERT_EQ(model.channels[1].name, "nic");
  model.channels[1].destination_side = true;
  for (machine::CopyPath& path : model.paths)
    if (path.remote) path.hops = {1, 0};  // the NIC, then the memcpy engine back on the source's side
  std::ofstream(file) << machine::to_toml(model, "The generators' machine with the NIC on the far side");
}

// The trace of the tests of a copy whose first hop runs on another block's or rank's channel instance: a random DAG
// on 8 nodes written into `dir`, with the machine above as `machine`, a file beside it.
struct FarNicTrace {
  session::LoadedTrace trace;
  std::string machine;
};
inline constexpr const char* kFarNicLabel = "random-dag, NIC on the far side";
inline void write_far_nic_trace(const std::filesystem::path& dir, FarNicTrace& out) {
  const gen::Program program = gen::make_random_dag(6000, {8, 2, 7});
  out.trace = write_and_load(dir, program);
  out.machine = (dir / "far_nic.toml").string();
  ASSERT_NO_FATAL_FAILURE(write_far_nic_machine(out.machine, program));
}

// `program` written to `dir` with every `every`-th Task Time line of its logs left out, and read back: tasks still
// pending when the traced run ended, left out of the estimate with everything that waits on them.
inline session::LoadedTrace write_without_some_task_times(const std::filesystem::path& dir, const gen::Program& program,
                                                          std::uint32_t every) {
  write_program(dir, program);
  std::uint32_t seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".log") continue;
    std::ifstream in(entry.path());
    std::string kept, line;
    while (std::getline(in, line))
      if (line.find("Task Time:") == std::string::npos || ++seen % every != 0) kept += line + '\n';
    in.close();
    std::ofstream(entry.path(), std::ios::trunc) << kept;
  }
  auto trace = session::load_trace({dir.string()}, {});
  if (!trace) ADD_FAILURE() << trace.error().to_string();
  return std::move(*trace);
}

}  // namespace rr::testing
