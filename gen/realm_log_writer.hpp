// Writes a generated program as one Realm event-graph log per node, in the line format of the 2014–2015 runtime
// (docs/realm-log-format.md), with the quirks of real logs on demand.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "compressed_output.hpp"
#include "log_writer.hpp"
#include "program_events.hpp"
#include "random.hpp"

namespace rr::gen {

class RealmLogWriter {
 public:
  // `result` receives the record and quirk counts of every node written.
  RealmLogWriter(const Program& program, const Truth& truth, ProgramEvents& events, const Quirks& quirks,
                 WriteResult& result);

  // Nodes must be written in order 0, 1, ...: the quirks draw from one random stream and fresh events take the
  // next free index, so the bytes of a seed depend on that order.
  void write_node(std::uint32_t node, const std::filesystem::path& path, Compression compression);

 private:
  class NodeLog;

  const Program& program_;
  const Truth& truth_;
  ProgramEvents& events_;
  const Quirks& quirks_;
  WriteResult& result_;
  SplitMix quirk_rng_;
  std::map<std::string_view, std::uint64_t> counts_;  // record kind -> lines written
  std::vector<std::int64_t> waited_us_;                // per task: the waits its Task Time includes
  std::vector<char> waits_;                            // per op: a task that waits (logs its time at its end)
  std::vector<std::vector<std::uint32_t>> ops_of_;     // per node: the ops its file logs, in program order
  std::vector<std::vector<std::uint32_t>> waits_of_;   // per node: its tasks' waits, in program order
};

}  // namespace rr::gen
