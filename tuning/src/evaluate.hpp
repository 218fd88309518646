// One candidate's replay: its estimate, or that it passed the round's best, or why it failed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "machine_models/machine_model.hpp"
#include "machine_models/mapping.hpp"
#include "replay/replay_engine.hpp"
#include "session/session.hpp"

namespace rr::tuning {

struct Outcome {
  replay::TimeNs makespan_ns = 0;
  bool cut_off = false;   // stopped past the limit: the estimate is more than it
  std::uint64_t stuck = 0;
  std::optional<std::string> error;
};

// Replays `mapping` with the rules of `base` on one engine, stopped once past `limit_ns` (replay::kNoStop: never).
// The same replay as `realm-replay replay` with that mapping, which gives the same estimate when it is not cut off.
Outcome evaluate(const session::LoadedTrace& trace, const machine::MachineModel& model,
                 const session::ReplaySettings& base, const machine::MappingSpec& mapping, replay::TimeNs limit_ns);

}  // namespace rr::tuning
