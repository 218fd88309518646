// The traced machine's values a Legion Prof log measures on its observed timeline: the overhead of a task
// segment per processor kind, and the latency and bandwidth of copies within a node (docs/legion-prof.md).
#pragma once

#include "core/trace_records.hpp"
#include "machine_models/traced_machine.hpp"

namespace rr::machine {

// Adds what it measures to `facts`; nothing on other formats, or where too few operations measure it.
void add_prof_facts(const core::TraceRecords& trace, TracedFacts& facts);

}  // namespace rr::machine
