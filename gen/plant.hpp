// Planted changes: one program generated twice with the same seed, the second with a change of known effect,
// gives a pair of traces whose difference is known (`realm-replay explain`, docs/explain.md). Every change
// keeps the program's structure: the same operations, the same dependences, the same random draws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "program.hpp"

namespace rr::gen {

// Every task of function `function` on node `node` runs `factor` times as long (its busy time, rounded to whole
// microseconds, at least 1).
struct SlowFunction {
  std::uint32_t function = 0;
  std::uint32_t node = 0;
  double factor = 1.0;
};

// Reads "FUNC@NODE=FACTOR" (`5@0=1.3`); an error message naming the value when it is not one.
std::optional<SlowFunction> parse_slow_function(const std::string& text, std::string& error);

// Applies the change to `program`: returns how many tasks it changed.
std::uint64_t plant_slow_function(Program& program, const SlowFunction& slow);

}  // namespace rr::gen
