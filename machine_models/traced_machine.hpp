// The machine a trace was taken on, as far as the trace tells: processors of each kind on each node, the
// memories it logged, and its own durations (speed 1). Every other value is an assumption, marked as such. It is
// written as a commented TOML machine file, which the loader reads like any other (`--machine traced`).
#pragma once

#include <optional>
#include <string>

#include "core/trace_records.hpp"

namespace rr::machine {

// The name that stands for the traced machine wherever a machine file goes.
inline constexpr const char* kTracedMachine = "traced";

// A network latency derived from the trace's own measurements (session::fit_traced_network), with why.
struct FittedLatency {
  double ns = 0;
  std::string note;
};

// The TOML text of the traced machine of `trace`; `label` names the trace in its comments. With `fitted`, the
// network latency is that one, tagged [F] (fitted to the trace), instead of the assumption.
std::string traced_machine_toml(const core::TraceRecords& trace, const std::string& label,
                                const std::optional<FittedLatency>& fitted = std::nullopt);

}  // namespace rr::machine
