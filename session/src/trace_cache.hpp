// What a LoadedTrace derives once, on first use, from any thread: shared by copies of the trace. A packed
// trace arrives with it already derived (the traced machine is fitted when the trace is packed).
#pragma once

#include <mutex>
#include <optional>
#include <string>

#include "machine_models/traced_machine.hpp"

#include "session/session.hpp"

namespace rr::session {

struct LoadedTrace::Cache {
  std::once_flag traced_once;
  std::string traced_toml;
  // A packed trace's measured facts (session::traced_facts reads records a packed trace no longer holds), when
  // it was packed without the fit: the fit then runs on first use, from these.
  std::optional<machine::TracedFacts> packed_facts;
};

}  // namespace rr::session
