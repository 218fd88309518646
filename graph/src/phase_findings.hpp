// What the whole build and the part build say of a barrier phase that cannot complete, in the same words.
#pragma once

#include <cstdint>
#include <string>

namespace rr::graph {

// Why the phase of generation `gen` cannot fire: the arrivals it needs and gets, and when it stands for a run of
// `stands_for` generations no record mentions, which ones.
inline std::string incomplete_phase_why(std::uint64_t required, std::uint64_t arrived, std::uint64_t gen,
                                        std::uint64_t stands_for) {
  std::string why = "needs " + std::to_string(required) + " arrivals, gets " + std::to_string(arrived);
  if (stands_for > 1)
    why += " (stands for the " + std::to_string(stands_for) + " generations " + std::to_string(gen) + ".." +
           std::to_string(gen + stands_for - 1) + " that no record mentions)";
  return why;
}

}  // namespace rr::graph
