// The "Bounded by" what-ifs (bounds.hpp) of a replay over ranks in which each rank holds only its part of the graph
// (graph/graph_part.hpp): each what-if is one replay from parts (replay/part_replay.hpp) on the bound's changed
// machine, run by every rank in turn, and its estimate is the latest end over the ranks (docs/scale.md, "The replay
// from parts").
#pragma once

#include <memory>
#include <vector>

#include "core/trace_records.hpp"
#include "graph/graph_part.hpp"
#include "graph/rank_exchange.hpp"
#include "replay/part_replay.hpp"
#include "session/bounds.hpp"
#include "session/session.hpp"
#include "session/trace_part.hpp"

namespace rr::session {

// Runs on every rank at once, each with the part it built, `ranks` the split the parts were built with, `exchange`
// over settings.engine.execution.network (which must be set), `machine_records` this rank's trace records (its files
// list every processor and memory, so they give the traced machine each what-if maps onto; only those records are
// read), and the same bounds on every rank (find_bounds of the run). Each bound with a change is replayed from the
// parts on bound.changed with `settings`, under pool placement where bound.pool, one after another. Every rank's
// bounds get what_if_ns, the one run_what_ifs gives in one process; a what-if that a rank cannot map, that the replay
// from parts refuses (function moves, a node map, other copy routes: run_part_over_network) or that fails
// keeps an error on every rank, and the next ones still run.
void run_what_ifs_from_part(const graph::GraphPart& part, const graph::NodeRanks& ranks, graph::RankExchange& exchange,
                            const core::TraceRecords& machine_records, const ReplaySettings& settings,
                            std::vector<RunBound>& bounds);
// The same on a part prepared once (replay::prepare_part), which every what-if replays on: the part need not stay.
void run_what_ifs_from_part(const std::shared_ptr<const replay::PreparedPart>& prepared, const graph::NodeRanks& ranks,
                            graph::RankExchange& exchange, const core::TraceRecords& machine_records,
                            const ReplaySettings& settings, std::vector<RunBound>& bounds);
// The same for a part read rank by rank (load_trace_part): its part, its split and its records.
void run_what_ifs_from_part(const TracePart& part, graph::RankExchange& exchange, const ReplaySettings& settings,
                            std::vector<RunBound>& bounds);

}  // namespace rr::session
