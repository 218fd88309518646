// Builds the EventGraph from the parsed records of every file: joins across files, validation, CSR.
#pragma once

#include <cstddef>

#include "graph/event_graph.hpp"
#include "graph/graph_findings.hpp"
#include "core/timing_tally.hpp"
#include "core/trace_records.hpp"

namespace rr::graph {

struct BuildOptions {
  std::size_t examples_per_finding = 10;  // examples kept for each kind of finding
  // The cores each traced process had (Legion Prof logs): a span measured while more threads ran becomes the
  // work it would have taken alone (graph/prof_span_work.hpp). 0: spans are work.
  std::uint32_t traced_cores = 0;
};

struct BuildResult {
  EventGraph graph;
  GraphFindings findings;
  // Indexed like TraceRecords::files; what parser::summarise needs of the timing records the build frees.
  std::vector<core::FileTimingTally> timing_by_file;
};

// Resolves every event to its producer across all files (docs/realm-log-format.md, Order and Events;
// docs/replay.md, The graph), places each operation in its issuing task's program order, validates, and
// freezes the result. Runs on `threads` worker threads; 0: those of the calling task arena.
BuildResult build_event_graph(const core::TraceRecords& trace, const BuildOptions& options = {}, unsigned threads = 0);

// The same graph and findings, but each batch's graph records are freed (RecordBatch::release) as soon as
// the graph holds what it needs of them, so that the peak memory of reading and building is close to the
// graph's own. Processor, Group and Memory records, record counts and
// file statistics stay. For callers that have no further use for the records, as the CLI commands.
BuildResult build_event_graph_releasing(core::TraceRecords& trace, const BuildOptions& options = {},
                                        unsigned threads = 0);

}  // namespace rr::graph
