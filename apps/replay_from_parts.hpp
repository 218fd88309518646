// `realm-replay-mpi replay` from parts (docs/scale.md, "One replay over MPI ranks"): each rank reads only its own
// nodes' files, builds its part of the graph with the others, and replays it; rank 0 gets the whole run's sums, the
// critical path walked across the ranks, and the timeline streamed rank by rank. When the replay cannot run from
// parts (below), every rank reads the whole trace, as before, and the output is the same.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "commands.hpp"
#include "replay/part_exchange.hpp"
#include "replay/part_replay.hpp"
#include "session/trace_part.hpp"
#include "trace_inputs.hpp"

namespace rr::app {

// What every rank has agreed on before any of them reads a file.
struct PartsPlan {
  session::TraceFilesByNode files;  // the logs by node; or
  std::string packed;               // a packed trace, each rank reading its part of it
  machine::MachineModel model;  // with the mapping's processor counts; the traced machine's outline until it is fitted
  session::ReplaySettings settings;
  bool traced = false;  // the traced machine, put together from the parts (session/traced_part_machine.hpp)
  core::NodeFold fold;  // the mapping's fold the parts are split by; empty: none (each node its own)
};

// The plan when the replay runs from parts: over MPI ranks, on a machine file or the traced machine, of 2015 Realm
// logs named by node or one packed trace of them, under any placement, fold or node map (each rank then reads the
// files of the traced nodes whose model node is in its range, and every rank reads some) without function moves, on
// any model (its nodes' cores shared or not, its processors starting up or not; --traced-cores gives the traced
// machine's nodes shared cores). Every rank calls it, and all decide alike (one exchange): should any rank not run from
// parts, none does.
std::optional<PartsPlan> plan_from_parts(const ReplayInputs& in, const CommonOptions& common);

struct OpenedParts {
  session::TracePart trace;
  session::ReplaySettings settings;
  session::ReplayRun run;  // its result's sums the whole run's on rank 0 (replay::gather_part_sums)
  std::shared_ptr<const replay::PreparedPart> prepared;    // the run and its what-ifs replay on it (trace.part is gone)
  std::unique_ptr<replay::NetworkRankExchange> exchange;  // the what-ifs replay again over it
};

// What opening a replay from parts came to: the replay, or a failure it printed, or neither: the replay from parts
// refused what the replay over the whole graph serves (a split it cannot make, which one process, or rank 0 alone,
// replays), and every rank reads the whole trace instead.
struct PartsOutcome {
  std::unique_ptr<OpenedParts> opened;
  bool failed = false;
};

// Reads this rank's files, builds its part and replays it with `detail`, then walks the critical path across the
// ranks when the settings ask for it; prints the reading summary (rank 0) unless --quiet. A failure every rank
// shares (a rank that could not read its files, named, included) ends each rank's part first
// (BlockNetwork::part_done), so the run ends with rank 0's message.
PartsOutcome open_replay_from_parts(const char* command, const ReplayInputs& in, const CommonOptions& common,
                                    PartsPlan plan, const replay::ResultDetail& detail);

}  // namespace rr::app
