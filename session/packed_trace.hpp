// realm-replay's own binary trace (`realm-replay pack TRACE -o FILE.rrg`): a trace read, built and fitted once,
// reloaded in a fraction of the time. The file holds the resolved event graph (every array as it lies in
// memory, 64-byte aligned, memory-mapped on load and never copied), the machine records, the per-file counts,
// the `stats` summary, the graph findings and the traced machine. It is versioned, sectioned and checksummed:
// see docs/packed-trace.md for the layout and what a reader checks.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.hpp"
#include "platform/output_target.hpp"
#include "session/session.hpp"

namespace rr::session {

// Version 5 keeps every count of lines, records and findings in one array of the stats (core/stats.hpp); version 3
// dropped the graph's reverse CSR (EventGraph builds it on first use); version 2 had 32-bit edge offsets.
inline constexpr std::uint32_t kPackedTraceVersion = 5;

// True when `path` is a regular file that begins with the packed trace's signature (a folder, a pipe, a
// missing file: false; a pipe is never read from here).
bool is_packed_trace(const std::string& path);

struct PackedTraceInfo {
  std::uint64_t bytes = 0;     // the whole file
  std::uint32_t sections = 0;
};

// Writes `trace` to `out`. The trace must hold its summary (read with ReadingOptions::summarise): `stats` on
// the packed file reports it. The traced machine's measured facts are always stored; with `fit`, the traced
// machine itself too, fitted (session::fit_traced_network, about 14 replays) if it was not yet, so that no
// command on the packed file fits it again. Without, each command that uses `-m traced` fits it on first use.
core::Expected<PackedTraceInfo> write_packed_trace(const LoadedTrace& trace, platform::OutputTarget& out, bool fit = true);

// Maps and checks a packed trace: its signature, version, byte order, size, every section's checksum and the
// graph's structure. A damaged, truncated or other-version file is an InputError naming the file and what is
// wrong. The trace's `inputs` are {path}; its label is the packed trace's (the name of what was packed).
core::Expected<LoadedTrace> read_packed_trace(const std::string& path);

}  // namespace rr::session
