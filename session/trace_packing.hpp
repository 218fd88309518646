// A loaded trace to and from the packed trace format (packed/packed_trace.hpp): what the pipeline adds to the
// format is the traced machine, fitted before the trace is written, and a trace to replay when it is read back.
#pragma once

#include <string>

#include "core/result.hpp"
#include "packed/packed_trace.hpp"
#include "platform/output_target.hpp"
#include "session/session.hpp"

namespace rr::session {

// Writes `trace` as a packed trace to `out`. The trace must hold its summary (read with ReadingOptions::summarise):
// `stats` on the packed file reports it. The traced machine's measured facts are always stored; with `fit`, the
// traced machine itself too, fitted (fit_traced_machine, up to 16 replays) if it was not yet, so that no command
// on the packed file fits it again. Without, each command that uses `-m traced` fits it on first use.
core::Expected<packed::PackedTraceInfo> write_packed_trace(const LoadedTrace& trace, platform::OutputTarget& out,
                                                           bool fit = true);

// Reads a packed trace (packed::read_packed_trace checks it) as a loaded trace. Its `inputs` are {path}; its label
// is the packed trace's (the name of what was packed); the traced machine comes with it when it was packed fitted.
core::Expected<LoadedTrace> read_packed_trace(const std::string& path);

}  // namespace rr::session
