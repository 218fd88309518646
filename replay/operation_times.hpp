// When each operation of a replay became ready, started and ended, in 16 bytes per operation instead of 24.
//
// One 64-bit slot per operation holds its ready time until it starts, then its start time; the wait before the
// start and the run from start to end are kept in 32 bits each. Both are nearly always far under 2^32 ns (4.3 s):
// the rare longer one is kept whole in a side table. The engine writes the times as the run goes (ready while the
// inputs come in, then start, then end), which is the only order this class supports.
#pragma once

#include <cassert>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"

namespace rr::replay {

using machine::TimeNs;
inline constexpr TimeNs kNever = -1;

class OperationTimes {
 public:
  // n operations, none started, each ready at 0 until its inputs say otherwise.
  void reset(std::size_t n) {
    slot_.assign(n, 0);
    wait_.assign(n, kNotYet);
    run_.assign(n, kNotYet);
    wide_wait_.clear();
    wide_run_.clear();
  }
  std::size_t size() const { return slot_.size(); }

  // kNever when the operation never started (ready: never kNever; 0 when no input came).
  TimeNs ready(graph::VertexId v) const { return started(v) ? slot_[v] - wait(v) : slot_[v]; }
  TimeNs start(graph::VertexId v) const { return started(v) ? slot_[v] : kNever; }
  TimeNs end(graph::VertexId v) const {
    if (run_[v] == kNotYet) return kNever;
    return slot_[v] + (run_[v] == kWide ? wide_at(wide_run_, v) : run_[v]);
  }
  // end - start of an operation that ended (one load, where end() takes two).
  TimeNs run(graph::VertexId v) const {
    assert(ended(v));
    return run_[v] == kWide ? wide_at(wide_run_, v) : run_[v];
  }
  bool started(graph::VertexId v) const { return wait_[v] != kNotYet; }
  bool ended(graph::VertexId v) const { return run_[v] != kNotYet; }
  // Starts loading v's slot (its ready time, then its start) ahead of a use that would miss the cache.
  void prefetch(graph::VertexId v) const { __builtin_prefetch(&slot_[v]); }

  // For the engine, in this order. The ready time, while the operation has not started: it is raised as inputs come.
  TimeNs& ready_until_start(graph::VertexId v) {
    assert(!started(v));
    return slot_[v];
  }
  // ready(v) of an operation not started yet, without the load that asks whether it has.
  TimeNs ready_before_start(graph::VertexId v) const {
    assert(!started(v));
    return slot_[v];
  }
  void start_at(graph::VertexId v, TimeNs t) {
    assert(!started(v) && t >= slot_[v]);
    wait_[v] = narrow(t - slot_[v], wide_wait_, v);
    slot_[v] = t;
  }
  // Ends v at t; one that never started starts then too.
  void end_at(graph::VertexId v, TimeNs t) {
    assert(!ended(v));
    if (!started(v)) start_at(v, t);
    assert(t >= slot_[v]);
    run_[v] = narrow(t - slot_[v], wide_run_, v);
  }

  friend bool operator==(const OperationTimes&, const OperationTimes&) = default;

 private:
  static constexpr std::uint32_t kNotYet = ~0u;     // not started (wait_) or not ended (run_)
  static constexpr std::uint32_t kWide = ~0u - 1;   // 2^32 - 2 ns or more (or negative): in the side table
  TimeNs wait(graph::VertexId v) const { return wait_[v] == kWide ? wide_at(wide_wait_, v) : wait_[v]; }
  // The side tables are shared by the threads of one replay, each writing its own operations' times: the rare
  // time that needs them takes a lock.
  static std::mutex& wide_mutex() {
    static std::mutex m;
    return m;
  }
  [[gnu::noinline]] static TimeNs wide_at(const std::unordered_map<graph::VertexId, TimeNs>& wide, graph::VertexId v) {
    const std::lock_guard lock(wide_mutex());
    return wide.at(v);
  }
  // The engine never starts before ready nor ends before start, but a value that does not fit is kept whole
  // rather than wrapped, whatever it is.
  static std::uint32_t narrow(TimeNs d, std::unordered_map<graph::VertexId, TimeNs>& wide, graph::VertexId v) {
    if (d >= 0 && d < static_cast<TimeNs>(kWide)) return static_cast<std::uint32_t>(d);
    return keep_wide(d, wide, v);
  }
  [[gnu::noinline]] static std::uint32_t keep_wide(TimeNs d, std::unordered_map<graph::VertexId, TimeNs>& wide,
                                                  graph::VertexId v) {
    const std::lock_guard lock(wide_mutex());
    wide[v] = d;
    return kWide;
  }

  std::vector<TimeNs> slot_;          // ready until started, then start
  std::vector<std::uint32_t> wait_;   // start - ready
  std::vector<std::uint32_t> run_;    // end - start
  std::unordered_map<graph::VertexId, TimeNs> wide_wait_, wide_run_;
};

}  // namespace rr::replay
