// Busy-time factors of task functions on processor kinds (realm-replay tune --factors FILE; docs/mapping.md,
// Tuning): how long a function's tasks take on a kind, as a multiple of their traced busy time, which is what a
// move's factor says (--map FUNC=KIND:FACTOR). A factors file describes an application, as a names file does: it
// may name functions that one trace does not run.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/kinds.hpp"
#include "core/result.hpp"

namespace rr::machine {

struct KindFactor {
  core::ProcessorKind kind = core::ProcessorKind::gpu;
  double factor = 1.0;
  std::string source;  // "factors.toml:3"
};

struct FunctionFactors {
  std::string file;
  std::map<std::uint32_t, std::vector<KindFactor>> of_function;  // each function's kinds in the file's order
};

// A factors file: one table per function id, of kind = factor (`[18]` then `gpu = 0.1`, or `18 = { gpu = 0.1 }`).
// Every key and value is checked; errors name the file and line: not TOML, a key that is no function id, a value
// that is no table or an empty one, a kind other than gpu, cpu and utility, a factor that is no number from 1e-6
// to 1e6.
core::Expected<FunctionFactors> load_factors(const std::string& path);

}  // namespace rr::machine
