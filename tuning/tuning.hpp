// `realm-replay tune`: a search for a better mapping of one trace on one machine (docs/mapping.md, Tuning). A
// hill climb in rounds from the starting mapping: each round replays every neighbour of the best mapping so far
// (neighbours.hpp) side by side on oneTBB, each stopped once its time passes that best, and takes the fastest;
// ties go to the earlier candidate of the round's seeded order. The best of a round is fixed while it runs, so
// the search is the same at any thread count.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "machine_models/machine_model.hpp"
#include "machine_models/mapping.hpp"
#include "replay/replay_engine.hpp"
#include "session/session.hpp"
#include "tuning/search_space.hpp"

namespace rr::tuning {

struct TuneOptions {
  SpaceInputs space;
  std::uint64_t budget = 400;  // candidates replayed at most
  std::uint32_t rounds = 100;  // rounds at most
  std::uint64_t seed = 1;      // orders each round's candidates (neighbours.hpp, shuffle)
  unsigned threads = 0;        // candidates replayed at once; 0: every hardware thread
  bool early_stop = true;      // stop a candidate once its time passes the best so far
};

// One improvement: the round's best candidate, better than the best before it.
struct Improvement {
  std::uint32_t round = 0;
  std::string change;               // Candidate::change
  replay::TimeNs before_ns = 0;
  replay::TimeNs after_ns = 0;
  std::uint64_t round_candidates = 0;  // candidates replayed in its round
};

struct TuneResult {
  SearchSpace space;
  machine::MappingSpec start;  // the starting mapping, its placement made explicit
  machine::MappingSpec best;
  replay::TimeNs start_ns = 0;
  replay::TimeNs best_ns = 0;
  std::vector<Improvement> path;
  std::uint32_t rounds = 0;
  std::uint64_t candidates = 0;  // replayed
  std::uint64_t cut_off = 0;     // of them, stopped once past the best so far
  std::uint64_t failed = 0;      // of them, refused by the replay or leaving more operations stuck than the start
  std::optional<std::string> first_failure;  // the first refusal, for the report
  std::string stopped;           // why the search ended
  std::vector<std::string> notes;
  double seconds = 0;            // the rounds' wall time (the starting replay not included)
};

// Searches from `start` (its mapping and replay rules). Fails when the starting replay fails.
core::Expected<TuneResult> tune(const session::LoadedTrace& trace, const machine::MachineModel& model,
                                const session::ReplaySettings& start, const TuneOptions& options);

}  // namespace rr::tuning
