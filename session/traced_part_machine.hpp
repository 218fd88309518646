// The traced machine (`--machine traced`) of a trace read in parts (trace_part.hpp; docs/scale.md, "The traced
// machine from parts"): one process's (traced_fit.hpp), put together over the ranks without any rank reading the
// whole trace. The machine records of every rank's files go to rank 0 and the whole machine back to every rank; the
// median copy size is found by a bisection on counts (replay::median_over_ranks); the network latency is fitted by
// the one bisection of the whole trace's fit, each of its replays one from parts, each rank summing its own waits.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "graph/rank_exchange.hpp"
#include "machine_models/machine_model.hpp"
#include "machine_models/mapping.hpp"
#include "replay/part_replay.hpp"
#include "session/trace_part.hpp"

namespace rr::session {

// The traced machine as far as it is known before any file is read: no processor yet, and with --traced-cores
// (`traced_cores` > 0) that many cores per node, the user's `--set` overrides over it: what a plan to replay from
// parts asks of a model before the files are read. An error is the overrides'.
core::Expected<machine::MachineModel> traced_machine_outline(std::uint32_t traced_cores,
                                                             const std::vector<std::string>& overrides);

// What every rank of the machine's shared records holds once they are put together.
struct SharedMachine {
  machine::TracedMachineSource source;  // every rank's files' machine records, as the whole trace's would give them
  std::uint32_t nodes = 1;              // traced nodes: LoadedTrace::nodes of the whole trace
};
// Every rank calls it at once: a packed trace's ranks hold every file's records and exchange nothing.
SharedMachine share_machine_records(const TracePart& trace, graph::RankExchange& exchange);

struct TracedPartMachine {
  std::string toml;  // the traced machine: one process's fit_traced_machine(trace).toml, byte for byte
  // The rank's part prepared for the replays (replay::prepare_part): the fit's, and any traced model whose copies
  // take the same routes.
  std::shared_ptr<const replay::PreparedPart> prepared;
};

// Every rank calls it at once, with the part it read (load_trace_part or load_packed_part): shares the machine
// records, finds the median copy size, prepares the part (which it uses up) and fits the network latency as one
// process does on a trace of several nodes, each replay run_part_over_network with `options` (its network the
// exchange's). A packed trace gives the facts it was packed with, and the machine itself when it was packed fitted.
// The fit replays the trace on its own nodes; when the parts were split by a fold (TracePart::ranks), the part is
// prepared for the run's map too, which folds as `mapping` asks.
// An error, every rank's alike, when the part or the fit's replays do not run from parts: the whole trace serves it.
core::Expected<TracedPartMachine> traced_machine_of_part(TracePart& trace, graph::RankExchange& exchange,
                                                         const replay::ReplayOptions& options,
                                                         const machine::MappingSpec& mapping = {});

}  // namespace rr::session
