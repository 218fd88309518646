// What the whole build and the part build share of a barrier's phases: the order they come in, gaps filled, and
// what they say of a phase that cannot complete, in the same words.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rr::graph {

// Missing generations between two that records mention are filled one phase each up to this many
// (docs/limits.md); a longer gap is one stand-in phase.
inline constexpr std::uint64_t kMaxFilledGenerations = 64;

// Calls add(gen, stands_for) for each phase of a barrier in order, from the generations its records mention
// (`sorted`, ascending, not empty). The first phase is the smallest generation mentioned; a missing generation in
// between still has to fire before the next one can. A phase takes no time of its own, so a run of missing
// generations behaves as one: a gap longer than kMaxFilledGenerations gets one stand-in phase (stands_for > 1), not
// a vertex per generation (an Arrive naming generation 2^32-1 would otherwise make four billion).
template <typename Add>
void for_each_phase_in_order(const std::vector<std::uint32_t>& sorted, Add&& add) {
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (i > 0) {
      const std::uint64_t gap = std::uint64_t{sorted[i]} - sorted[i - 1] - 1;
      if (gap > kMaxFilledGenerations)
        add(sorted[i - 1] + 1, gap);
      else
        for (std::uint32_t gen = sorted[i - 1] + 1; gen < sorted[i]; ++gen) add(gen, 1);
    }
    add(sorted[i], 1);
  }
}

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
