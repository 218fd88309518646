// The one bisection of the traced machine's network latency (traced_fit.cpp), shared by the fit on the whole trace
// and the fit on a trace read in parts (traced_part_machine.cpp): each gives it the replay at a latency.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "core/result.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/block_network.hpp"
#include "session/traced_fit.hpp"

namespace rr::session {

// One replay's outcome: the replayed spans of the produced waits (-1 if the replay failed) and the estimate.
struct Replayed {
  double waits_ns = -1;
  double estimate_ns = 0;
};

// The replay at a network latency in whole ns (what the machine file gets).
using ReplayAtLatency = std::function<Replayed(long long latency_ns)>;

// Fits `fit`, whose waits and measured time are counted, on a trace of `nodes` traced nodes: one node has nothing
// to fit; else the checks and the bisection, with up to `side_by_side` replays at once.
void fit_network_latency(std::uint32_t nodes, const ReplayAtLatency& replay, std::size_t side_by_side,
                         TracedNetworkFit& fit);

// The traced machine `toml` with its network latency (both network.latency_ns and channels.network.latency_ns) set.
core::Expected<machine::MachineModel> traced_model_at(const std::string& toml, long long latency_ns);

// A replay's outcome from this rank's sum of its own waits' spans (whole ns, so that the sums over ranks are one
// process's in any order) and its estimate; over a `network`, every rank's sum and the largest estimate.
Replayed replayed_over_ranks(std::int64_t waits_ns, std::int64_t estimate_ns, replay::BlockNetwork* network);

// The fitted latency as a measured fact of the traced machine, when it was fitted.
void add_fitted_latency(const TracedNetworkFit& fit, machine::TracedFacts& facts);

}  // namespace rr::session
