// What Legion Prof logs measured of the traced machine (machine_models/prof_facts.hpp: the overhead of a task segment
// per processor kind, the latency and bandwidth of copies within a node), for a trace read in parts: each rank takes
// the samples of its own logs (a processor's work and its process's copies are in its process's log), and the ranks
// find their counts, upper medians (replay::median_over_ranks, a bisection on counts) and integer sums together, so
// that every value, and every note, is the whole trace's; no rank sends another its samples.
#pragma once

#include "machine_models/traced_machine.hpp"
#include "replay/block_network.hpp"
#include "session/trace_part.hpp"

namespace rr::session {

// Every rank calls it at once, with its part of Legion Prof logs (TracePart::machine_files set): adds to `facts`
// what machine::add_prof_facts adds of the whole trace.
void add_prof_facts_over_ranks(const TracePart& trace, replay::BlockNetwork& net, machine::TracedFacts& facts);

}  // namespace rr::session
