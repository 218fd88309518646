// The machine a Legion Prof trace read in parts describes (docs/scale.md, "The graph built in parts"): each
// process's log describes only its own processors and memories (ProcDesc, MemDesc), where every 2015 Realm log lists
// the whole machine, so a rank that reads only its own logs would map fewer processors than the whole trace. Every
// rank sends every other the machine descriptions of its own logs, small beside the graph (one entry per processor
// and memory), and each holds every file with those alone, in the whole trace's file order: core::machine_records and
// replay::MachineMap::build give on it what they give on the whole trace.
#pragma once

#include <cstdint>
#include <vector>

#include "core/trace_records.hpp"
#include "graph/rank_exchange.hpp"

namespace rr::session {

// Every rank calls it at once (one exchange), `own` its files' records and `file_index` each one's place in the
// whole trace's `total_files`. The result: every file's path, node, MachineDesc, processors, memories and
// processor-memory affinities (which the traced machine lists), nothing else (no record counted, no statistic), its
// width the one the Legion Prof build reads ids by.
core::TraceRecords every_file_machine(const core::TraceRecords& own, const std::vector<std::uint32_t>& file_index,
                                      std::uint32_t total_files, graph::RankExchange& exchange);

}  // namespace rr::session
