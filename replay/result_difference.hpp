// Where two replay results differ, if they do: the check that a replay split into blocks (ReplayExecution::blocks)
// gives what one engine gives, field by field, every operation's times included.
#pragma once

#include <optional>
#include <string>

#include "replay/replay_result.hpp"

namespace rr::replay {

// The first field (and operation, for per-operation fields) where a and b differ; nullopt when they are equal.
std::optional<std::string> first_difference(const ReplayResult& a, const ReplayResult& b);

}  // namespace rr::replay
