// Writes a generated program as Realm E2c event-graph logs (one node_N.log per node, optionally compressed),
// with truth.json and the machine description the truth was scheduled on.
#pragma once

#include <map>
#include <string>

#include "program.hpp"

namespace rr::gen {

enum class Compression { none, gzip, xz, zstd };

struct WriteResult {
  std::map<std::string, std::uint64_t> records;  // per record kind name ("Task Request"), all files
  std::uint64_t text_bytes = 0;
};

// Writes node_<N>.log[.gz|.xz|.zst], truth.json and machine.toml into `dir` (created if needed). Every file
// is written whole or not at all. Throws std::runtime_error naming the file on failure.
WriteResult write_trace(const Program& program, const Truth& truth, const TruthMachine& machine,
                        const std::string& dir, Compression compression);

}  // namespace rr::gen
