// One step of the search (docs/mapping.md, Tuning): the mappings next to the current best, each one change away,
// in a fixed order that the seed then shuffles.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/event_graph.hpp"
#include "machine_models/mapping.hpp"
#include "tuning/search_space.hpp"

namespace rr::tuning {

enum class ChangeKind : std::uint8_t { move, count, placement, node_map };

struct Candidate {
  machine::MappingSpec mapping;
  ChangeKind kind = ChangeKind::move;
  std::string change;  // what it changes, and on what grounds: "function 18 to GPU (busy time x 0.1, f.toml:3)"
};

// Every mapping one change from `current`, in this order: each move the space allows that `current` does not
// make (a function to another kind; when the placement is not eft, also the same move under eft, where each task
// goes to whichever kind finishes it first), each move undone (the function back on its traced kind); each count of the space's kinds one
// more or one less, and one more of a kind for one less of another, within the budget; each other placement (eft
// only with a move, as without one it places as pool does); the other node map rule where the trace is folded.
// `names` names the functions in the changes' text.
std::vector<Candidate> neighbours(const SearchSpace& space, const machine::MappingSpec& current,
                                  const graph::EventGraph& names);

// The candidates in an order drawn from (seed, round), the same on every platform (splitmix64, Fisher-Yates).
void shuffle(std::vector<Candidate>& candidates, std::uint64_t seed, std::uint32_t round);

}  // namespace rr::tuning
