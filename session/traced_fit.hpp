// The traced machine's network latency from the trace's own measurements. A Task Wait on an event the trace
// produces measured how long the real run took from the wait to that event; the replay computes the same span.
// When the replay's spans fall short of the measured ones in all, the time missing is time the records do not
// explain; on a run over several nodes, the one free cost that the waits cross is the time a message takes
// between nodes. This finds the network latency that makes the replayed spans add up to the measured ones.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "machine_models/traced_machine.hpp"
#include "session/session.hpp"

namespace rr::session {

struct TracedNetworkFit {
  bool fitted = false;
  double latency_ns = 0;        // the fitted one-way latency (network.latency_ns and channels.network.latency_ns)
  std::size_t waits = 0;        // Task Waits on produced events
  double measured_ns = 0;       // their measured durations, in all
  double replayed_before_ns = 0;  // their replayed durations with the assumed latency
  double replayed_after_ns = 0;   // ...and with the fitted one
  std::string reason;           // why it was or was not fitted, for reports and the machine file
  std::size_t replays = 0;      // replays of the whole trace it ran
};

// Fits when the trace spans several nodes and its produced waits measure at least 1 ms in all and 5% of the
// replay's estimate; bounded to 100 ms; deterministic (bisection in log space). It replays the whole trace at the
// assumed latency, at 100 ms and at each of 14 steps: at most 16 replays, and a few more when replays run side by
// side and some were guessed ahead wrongly; fewer when a check stops it, none on one node.
// The replays place the trace as traced and follow `rules`, without their noise. `facts` are the traced
// machine's other measured values (traced_facts). With a `network` (a replay over ranks) every rank calls it: each
// replay runs over the ranks, each rank sums the waits whose records it owns, and all agree on the sums, so every
// rank fits the same latency as one process.
TracedNetworkFit fit_traced_network(const LoadedTrace& trace, const replay::ReplayRules& rules,
                                    const machine::TracedFacts& facts = {}, replay::BlockNetwork* network = nullptr);

// What the trace measured for its traced machine, the network latency aside: the median copy size, and on a
// Legion Prof trace the copies' observed bandwidth and latency within and between nodes. A packed trace gives
// the facts it was packed with (it no longer holds the Legion Prof records they are read from).
machine::TracedFacts traced_facts(const LoadedTrace& trace);
// The traced machine's cores per node when --traced-cores gives them (`traced_cores` > 0), as traced_facts and the
// traced machine from parts (traced_part_machine.hpp) both write them.
machine::MeasuredValue traced_cores_fact(std::uint32_t traced_cores);

// The traced machine of a trace (`-m traced`), and what getting it cost.
struct TracedMachineFit {
  std::string toml;         // the machine file (machine::traced_machine_toml), its network latency fitted
  std::size_t replays = 0;  // replays of the whole trace this call ran to fit it: 0 when it was fitted before
};

// The traced machine with its network latency fitted to the trace's measured waits where they allow it
// (traced_facts, then fit_traced_network: its replays). Fitted once per trace, on the first call from any thread;
// later calls and copies of the trace share it, and a trace read from a packed file packed with the fit has it.
// With a `network`, every rank calls it and the fit's replays run over the ranks (fit_traced_network).
TracedMachineFit fit_traced_machine(const LoadedTrace& trace, replay::BlockNetwork* network = nullptr);

// The traced machine's model from its text and the user's --set `overrides`, named in reports as "the traced machine
// of LABEL", whether it was fitted to the whole trace or put together from parts (traced_part_machine.hpp).
core::Expected<machine::MachineModel> traced_machine_model(const std::string& toml, const std::string& label,
                                                           const std::vector<std::string>& overrides);

}  // namespace rr::session
