// The machine a trace was taken on, as far as the trace tells: processors of each kind on each node, the
// memories it logged, and its own durations (speed 1). Every other value is an assumption, marked as such. It is
// written as a commented TOML machine file, which the loader reads like any other (`--machine traced`).
#pragma once

#include <string>

#include "core/trace_records.hpp"

namespace rr::machine {

// The name that stands for the traced machine wherever a machine file goes.
inline constexpr const char* kTracedMachine = "traced";

// The TOML text of the traced machine of `trace`; `label` names the trace in its comments.
std::string traced_machine_toml(const core::TraceRecords& trace, const std::string& label);

}  // namespace rr::machine
