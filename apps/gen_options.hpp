// The generators' options and the program they ask for, shared by `realm-replay gen` (which writes it) and
// `realm-replay study --gen` (which generates it at each node count of a study).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gen/log_writer.hpp"
#include "gen/program.hpp"

namespace rr::app {

struct GenOptions {
  std::string kind;  // the generator: s3d, chain, fork-join, stencil, random-dag
  std::string out;
  std::uint32_t nodes = 2;
  std::uint32_t cpus = 2;
  std::uint64_t seed = 1;
  std::uint32_t ops = 1000;
  std::uint32_t length = 100;
  std::uint32_t width = 8;
  std::uint32_t stages = 10;
  std::string compress = "none";
  std::string mechanism = "dme";
  std::string mapping = "all";  // --strategy
  std::string old_mapping;      // --mapping, the old name of --strategy
  std::uint32_t steps = 1;
  std::uint32_t points = 48;
  std::uint32_t dims = 1;
  bool inject_cycle = false;
  gen::Quirks quirks;
  std::uint32_t utility = 2;
  double cpu_speed = 1.0;
  std::uint64_t host_copy_bytes = 0;
  std::vector<std::string> slow;
  std::int64_t network_latency_ns = gen::TruthMachine{}.network_latency_ns;
  const CLI::App* s3d = nullptr;  // the s3d generator's options, once added (is --strategy given?)
};

// Adds each generator as a subcommand of `cmd`, with its own options and the shared ones, so that its --help lists
// only what applies to it. `standalone` (gen): -o/--out (required) and --nodes; without (study --gen), neither: the
// study gives the node counts and writes to a folder of its own.
void add_generators(CLI::App* cmd, GenOptions& opts, bool standalone);

// A generated program, the machine its truth is scheduled on, and that truth.
struct Generated {
  gen::Program program;
  gen::TruthMachine machine;
  gen::Truth truth;
  gen::Compression compression = gen::Compression::none;  // of the logs, when written
  gen::Quirks quirks;                                     // written into the logs
};

// The program `opts` asks for, its planted changes applied and its truth scheduled; nothing after a message
// ("realm-replay <command>: error: ...") when an option cannot be applied (a usage error).
std::optional<Generated> generate(const GenOptions& opts, const char* command);

}  // namespace rr::app
