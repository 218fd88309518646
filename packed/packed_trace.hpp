// realm-replay's own binary trace (`realm-replay pack TRACE -o FILE.rrg`): a trace read, built and fitted once,
// reloaded in a fraction of the time. The file holds the resolved event graph (every array as it lies in
// memory, 64-byte aligned, memory-mapped on load and never copied), the machine records, the per-file counts,
// the `stats` summary, the graph findings and the traced machine. It is versioned, sectioned and checksummed:
// see docs/packed-trace.md for the layout and what a reader checks. The session reads and writes its traces
// through this (session/trace_packing.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.hpp"
#include "core/trace_records.hpp"
#include "graph/event_graph.hpp"
#include "graph/graph_findings.hpp"
#include "machine_models/traced_machine.hpp"
#include "parser/prof_summary.hpp"
#include "parser/trace_summary.hpp"
#include "platform/output_target.hpp"

namespace rr::packed {

// Version 7 keeps the length of each start-up the traced machine measured, in order (TracedFacts); version 6 adds
// the node index (each node's vertices as runs of ids) and checksums the graph's arrays by blocks,
// so that one rank reads its part alone (packed_graph_part.hpp), and puts the findings before the records; version 5
// keeps every count of lines, records and findings in one array of the stats (core/stats.hpp); version 3 dropped
// the graph's reverse CSR (EventGraph builds it on first use); version 2 had 32-bit edge offsets.
inline constexpr std::uint32_t kPackedTraceVersion = 7;

// True when `path` is a regular file that begins with the packed trace's signature (a folder, a pipe, a
// missing file: false; a pipe is never read from here).
bool is_packed_trace(const std::string& path);

// A trace to pack, borrowed from its owner for the write: a trace read and built, and what it measured of the
// machine it ran on.
struct TraceToPack {
  const std::string& label;
  std::uint32_t nodes;                                    // traced nodes
  const core::TraceRecords& records;                      // of them, the file statistics and machine records are kept
  const std::optional<parser::TraceSummary>& summary;     // the summary of its format must be there (`stats`)
  const std::optional<parser::ProfileSummary>& profile_summary;
  const graph::EventGraph& graph;
  const graph::GraphFindings& findings;
  const machine::TracedFacts& traced_facts;
  const std::optional<std::string>& traced_machine;       // the fitted traced machine's TOML, if it is to be kept
};

// A packed trace read back: the same parts, owned. The graph's arrays view the mapped file, which they keep open.
struct PackedTrace {
  std::string label;  // the name of what was packed
  std::uint32_t nodes = 0;
  core::TraceRecords records;
  std::optional<parser::TraceSummary> summary;
  std::optional<parser::ProfileSummary> profile_summary;
  graph::EventGraph graph;
  graph::GraphFindings findings;
  machine::TracedFacts traced_facts;
  std::optional<std::string> traced_machine;
};

struct PackedTraceInfo {
  std::uint64_t bytes = 0;     // the whole file
  std::uint32_t sections = 0;
};

// Writes `trace` to `out`. A trace without the summary of its format is refused: `stats` on the packed file
// reports it.
core::Expected<PackedTraceInfo> write_packed_trace(const TraceToPack& trace, platform::OutputTarget& out);

// Maps and checks a packed trace: its signature, version, byte order, size, every section's checksum and the
// graph's structure. A damaged, truncated or other-version file is an InputError naming the file and what is
// wrong.
core::Expected<PackedTrace> read_packed_trace(const std::string& path);

}  // namespace rr::packed
