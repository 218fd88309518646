// The hill climb (tuning.hpp): rounds of neighbours replayed side by side against the best so far.
#include "tuning/tuning.hpp"

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <chrono>

#include "tuning/neighbours.hpp"
#include "tuning/src/evaluate.hpp"
#include "platform/usable_threads.hpp"

namespace rr::tuning {

namespace {

// Every candidate of a round replayed, on `threads` workers; outcomes in candidate order.
std::vector<Outcome> evaluate_round(const session::LoadedTrace& trace, const machine::MachineModel& model,
                                    const session::ReplaySettings& base, const std::vector<Candidate>& candidates,
                                    replay::TimeNs limit_ns, unsigned threads) {
  std::vector<Outcome> outcomes(candidates.size());
  oneapi::tbb::task_arena arena(static_cast<int>(threads));
  arena.execute([&] {
    oneapi::tbb::parallel_for(std::size_t{0}, candidates.size(), [&](std::size_t i) {
      outcomes[i] = evaluate(trace, model, base, candidates[i].mapping, limit_ns);
    });
  });
  return outcomes;
}

// The index of the round's best candidate that beats `best_ns`, the earliest of equals; or none.
std::optional<std::size_t> round_winner(const std::vector<Outcome>& outcomes, replay::TimeNs best_ns,
                                        std::uint64_t start_stuck, TuneResult& r) {
  std::optional<std::size_t> winner;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const Outcome& o = outcomes[i];
    ++r.candidates;
    if (o.error || o.stuck > start_stuck) {
      ++r.failed;
      if (!r.first_failure)
        r.first_failure = o.error ? *o.error
                                  : std::to_string(o.stuck) + " operation(s) never complete, against " +
                                        std::to_string(start_stuck) + " in the starting replay";
      continue;
    }
    if (o.cut_off) {
      ++r.cut_off;
      continue;
    }
    if (o.makespan_ns < best_ns && (!winner || o.makespan_ns < outcomes[*winner].makespan_ns)) winner = i;
  }
  return winner;
}

}  // namespace

core::Expected<TuneResult> tune(const session::LoadedTrace& trace, const machine::MachineModel& model,
                                const session::ReplaySettings& start, const TuneOptions& options) {
  TuneResult r;
  r.start = start.mapping;
  if (!r.start.placement) r.start.placement = model.default_placement.value_or(machine::Placement::pool);
  auto space = search_space(trace, model, r.start, options.space);
  if (!space) return space.error();
  r.space = std::move(*space);
  const unsigned threads = platform::threads_or_all(options.threads);

  // The start, replayed as `replay` would: split over the threads where that pays, the same result.
  session::ReplaySettings first = start;
  first.mapping = r.start;
  first.critical_path = false;
  first.engine.detail = {false, 0};
  first.engine.execution.blocks = threads;
  auto run = session::replay_on(trace, model, first);
  if (!run) return run.error();
  r.start_ns = r.best_ns = run->result.makespan_ns;
  r.best = r.start;
  const std::uint64_t start_stuck = run->result.stuck;
  bool early_stop = options.early_stop;
  if (early_stop && start_stuck > 0) {
    // A stopped replay cannot tell an operation that is late from one that never completes.
    early_stop = false;
    r.notes.push_back(std::to_string(start_stuck) + " operation(s) never complete in the starting replay: every "
                      "candidate is replayed to its end");
  }

  const auto began = std::chrono::steady_clock::now();
  r.stopped = "no neighbour of the best mapping is faster";
  for (std::uint32_t round = 1;; ++round) {
    if (round > options.rounds) {
      r.stopped = "the limit of " + std::to_string(options.rounds) + " round(s)";
      break;
    }
    std::vector<Candidate> candidates = neighbours(r.space, r.best, trace.graph());
    if (candidates.empty()) {
      r.stopped = "the best mapping has no neighbour";
      break;
    }
    shuffle(candidates, options.seed, round);
    const std::uint64_t left = options.budget - std::min(options.budget, r.candidates);
    const bool cut = candidates.size() > left;
    if (cut) candidates.resize(left);
    if (candidates.empty()) {
      r.stopped = "the budget of " + std::to_string(options.budget) + " candidate(s)";
      break;
    }
    r.rounds = round;
    const auto outcomes = evaluate_round(trace, model, start, candidates, early_stop ? r.best_ns : replay::kNoStop, threads);
    const auto winner = round_winner(outcomes, r.best_ns, start_stuck, r);
    if (!winner) {
      if (cut) r.stopped = "the budget of " + std::to_string(options.budget) + " candidate(s)";
      break;
    }
    r.path.push_back({round, candidates[*winner].change, r.best_ns, outcomes[*winner].makespan_ns, candidates.size()});
    r.best = std::move(candidates[*winner].mapping);
    r.best_ns = outcomes[*winner].makespan_ns;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return r;
}

}  // namespace rr::tuning
