// "Bounded by" at the top of replay and critpath: what the critical path spent its time on, each what-if's
// estimate, and the command that reproduces it (session/bounds.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "session/bounds.hpp"
#include "trace_inputs.hpp"

namespace rr::app {

// --no-what-ifs on a command that reports what bounds the run.
void add_what_if_flag(CLI::App* cmd, bool& no_what_ifs);

// The bounds of a replay, with their what-ifs run unless `no_what_ifs`.
std::vector<session::RunBound> bounds_of(const OpenedReplay& opened, bool no_what_ifs, unsigned threads);

// The command line that reproduces a bound's what-if: `command` on the same inputs, with its flags, under pool
// placement and with the bound's --set values.
std::string what_if_command(const char* command, const ReplayInputs& in, const session::RunBound& bound);

// The placement a replay ran under.
machine::Placement placement_of(const OpenedReplay& opened);

// "Bounded by ..." lines, one per bound and one with its command; empty when there are none. `placement` is the
// run's: a what-if under another is said to be.
std::string bounds_text(const char* command, const ReplayInputs& in, const std::vector<session::RunBound>& bounds,
                        replay::TimeNs estimate_ns, bool no_what_ifs, machine::Placement placement);
nlohmann::ordered_json bounds_json(const char* command, const ReplayInputs& in,
                                   const std::vector<session::RunBound>& bounds, replay::TimeNs estimate_ns);

}  // namespace rr::app
