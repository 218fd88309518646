// What reading a trace counted, over all its files, and what --strict makes of it.
#pragma once

#include <optional>

#include "stats.hpp"
#include "trace_records.hpp"

namespace rr::core {

// The stats of reading a trace: every file's counts (its parser's or its reader's) and the unreadable files
// skipped. The graph builder's stats are the graph's own (graph::GraphFindings::counts).
StatCounts read_stats(const TraceRecords& trace);

// What --strict refuses, or nothing: the first stat of the list that is refused under --strict and counted, named
// with where it was first met: the file and line (or byte offset) of its first message, else its first file.
std::optional<InputError> strict_problem(const TraceRecords& trace);

}  // namespace rr::core
