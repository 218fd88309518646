// Writes a generated program as Realm E2c event-graph logs (one node_N.log per node, optionally compressed),
// with truth.json and the machine description the truth was scheduled on.
#pragma once

#include <map>
#include <string>

#include "compressed_output.hpp"
#include "program.hpp"

namespace rr::gen {

// The quirks of docs/realm-log-format.md (Quirks) on demand: rates are per opportunity (0 = never); none
// changes the timing, so the truth stays valid. Off by default.
struct Quirks {
  double nil_args = 0;                // Task Request args printed "(nil)" (else a 0x... pointer)
  double spaced_preconditions = 0;    // "(id, gen)" in an Event Precondition's input, as 6-input merges print
  double orphan_copy_sizes = 0;       // after a copy, an extra "Copy Size: (e,g) 0" with no request (reductions)
  double external_preconditions = 0;  // a task without inputs waits on an event nothing produces (fired at t=0)
  double other_categories = 0;        // a "{2}{task}" line of another logger category before a line
  bool pending_dump = false;          // the "PRINTING ALL PENDING EVENTS ... DONE" block at the end of each file
  bool truncate_last_line = false;    // node 0's last line cut in half, without its newline
};

struct WriteResult {
  std::map<std::string, std::uint64_t> records;  // per record kind name ("Task Request"), all files, whole lines
  std::map<std::string, std::uint64_t> injected; // per quirk, how many were written
  std::uint64_t text_bytes = 0;
};

// Writes node_<N>.log[.gz|.xz|.zst], truth.json, machine.toml and, for a program that names its functions,
// names.toml into `dir` (created if needed). Every file is written whole or not at all. Throws std::runtime_error naming the file on failure.
WriteResult write_trace(const Program& program, const Truth& truth, const TruthMachine& machine,
                        const std::string& dir, Compression compression, const Quirks& quirks = {});

}  // namespace rr::gen
