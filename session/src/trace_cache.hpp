// What a LoadedTrace derives once, on first use, from any thread: shared by copies of the trace. A packed
// trace arrives with it already derived (the traced machine is fitted when the trace is packed).
#pragma once

#include <mutex>
#include <string>

#include "session/session.hpp"

namespace rr::session {

struct LoadedTrace::Cache {
  std::once_flag traced_once;
  std::string traced_toml;
};

}  // namespace rr::session
