// What a replay knows of each operation, in one 20-byte record: when it became ready, started and ended, which
// operation released it and why, and (while the replay runs) how many of its inputs are still to come.
//
// The engine's every step on an operation (an input arriving, the operation starting, ending) reads and writes
// these together. Kept in separate arrays they were six cache lines per step, each a miss in a large trace; in one
// record they are one line (two for the one record in five that straddles a line boundary).
//
// The times: one 64-bit slot per operation holds its ready time until it starts, then its start time; the wait
// before the start and the run from start to end are kept in 31 and 32 bits. Both are nearly always far under 2^31
// ns (2.1 s): the rare longer one is kept whole in a side table, as is a count of pending inputs of 65,535 or more
// (a merge of a huge index launch). Until the operation starts, its wait's 32 bits hold that count instead. The
// engine writes the times as the run goes (ready while the inputs come in, then start, then end), which is the only
// order this class supports.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/saturating.hpp"
#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "platform/zeroed_array.hpp"

namespace rr::replay {

using machine::TimeNs;
inline constexpr TimeNs kNever = -1;

// Why an operation started when it did: the predecessor that released it (docs/replay.md, Replay rules: Critical path).
enum class Release : std::uint8_t {
  none,      // ready at t=0
  input,     // the last input event to fire (precondition, merge input, awaited event, arrival, phase order)
  issue,     // its issuing task reached the point where it issues it
  observed,  // it waited on an event no record produces, kept at the time the traced run saw it
};
constexpr const char* release_name(Release r) {
  switch (r) {
    case Release::none: return "none";
    case Release::input: return "input";
    case Release::issue: return "issue";
    case Release::observed: return "observed";
  }
  return "?";
}

class OperationRecords {
 public:
  // n operations, none started, each ready at 0 until its inputs say otherwise, released by nothing, with no
  // pending inputs.
  void reset(std::size_t n) {
    records_.reset(n);
    wide_wait_.clear();
    wide_run_.clear();
    wide_pending_.clear();
  }
  std::size_t size() const { return records_.size(); }

  // Back to an operation not started, ready at 0, released by nothing, with no input pending: a record about to
  // be written again from another process's (a replay over ranks, whose blocks each kept their own records).
  void forget(graph::VertexId v) {
    const Record& r = records_[v];
    const bool wide = r.run == kWideRun || ((r.wait & kStarted) ? (r.wait & ~kStarted) == kWideWait
                                                                 : (r.wait & kPendingMask) == kWidePending);
    records_[v] = Record{};
    if (!wide) return;
    const std::lock_guard lock(wide_mutex());
    wide_wait_.erase(v);
    wide_run_.erase(v);
    wide_pending_.erase(v);
  }

  // ---- times --------------------------------------------------------------------------------------------------

  // kNever when the operation never started (ready: never kNever; 0 when no input came).
  TimeNs ready(graph::VertexId v) const { return started(v) ? slot(v) - wait(v) : slot(v); }
  TimeNs start(graph::VertexId v) const { return started(v) ? slot(v) : kNever; }
  TimeNs end(graph::VertexId v) const {
    if (!ended(v)) return kNever;
    return slot(v) + run(v);
  }
  // end - start of an operation that ended (one load, where end() takes two).
  TimeNs run(graph::VertexId v) const {
    assert(ended(v));
    return records_[v].run == kWideRun ? wide_at(wide_run_, v) : records_[v].run - 1;
  }
  bool started(graph::VertexId v) const { return (records_[v].wait & kStarted) != 0; }
  bool ended(graph::VertexId v) const { return records_[v].run != 0; }
  // Starts loading v's record ahead of a use that would miss the cache.
  void prefetch(graph::VertexId v) const { __builtin_prefetch(&records_[v]); }

  // For the engine, in this order. The ready time, while the operation has not started: it is raised as inputs come.
  void set_ready(graph::VertexId v, TimeNs t) {
    assert(!started(v));
    set_slot(v, t);
  }
  // ready(v) of an operation not started yet, without the test whether it has.
  TimeNs ready_before_start(graph::VertexId v) const {
    assert(!started(v));
    return slot(v);
  }
  void start_at(graph::VertexId v, TimeNs t) {
    assert(!started(v) && t >= slot(v));
    records_[v].wait = kStarted | narrow(t - slot(v), kWideWait, wide_wait_, v);
    set_slot(v, t);
  }
  // Ends v at t; one that never started starts then too.
  void end_at(graph::VertexId v, TimeNs t) {
    assert(!ended(v));
    if (!started(v)) start_at(v, t);
    assert(t >= slot(v));
    records_[v].run = narrow(t - slot(v), kWideRun - 1, wide_run_, v) + 1;
  }

  // ---- what released it ---------------------------------------------------------------------------------------

  // The operation whose input (or issue, or resource) released v, kNoVertex for none; and why.
  graph::VertexId released_by(graph::VertexId v) const { return records_[v].released_by - 1; }
  Release release(graph::VertexId v) const { return static_cast<Release>(records_[v].word() >> kTimeBits); }
  void set_release(graph::VertexId v, graph::VertexId by, Release why) {
    Record& r = records_[v];
    r.released_by = by + 1;
    r.set_word((r.word() & kTimeMask) | std::uint64_t{static_cast<std::uint8_t>(why)} << kTimeBits);
  }
  // An input from `from` that makes v ready at `t`: the latest input releases v, among equal times the lowest
  // vertex id (for determinism), so the order inputs come in does not matter. While v has not started.
  void raise_ready(graph::VertexId v, TimeNs t, graph::VertexId from, Release why) {
    Record& r = records_[v];
    assert(!started(v));
    const TimeNs ready = static_cast<TimeNs>(r.word() & kTimeMask);
    const graph::VertexId by = r.released_by - 1;
    if (by == graph::kNoVertex || t > ready || (t == ready && from < by)) {
      r.released_by = from + 1;
      r.set_word(static_cast<std::uint64_t>(std::max(ready, held(t))) |
                 std::uint64_t{static_cast<std::uint8_t>(why)} << kTimeBits);
    }
  }

  // ---- inputs still to come, while the operation has not started (0 once it has) ------------------------------

  std::uint32_t pending(graph::VertexId v) const {
    const std::uint32_t w = records_[v].wait;
    if (!(w & kStarted)) return (w & kPendingMask) != kWidePending ? w & kPendingMask : wide_pending(v);
    return 0;
  }
  void set_pending(graph::VertexId v, std::uint32_t count) {
    std::uint32_t& w = records_[v].wait;
    assert(!(w & kStarted));
    if ((w & kPendingMask) == kWidePending || count >= kWidePending) return set_pending_wide(v, count);
    w = (w & ~kPendingMask) | count;
  }
  void add_pending(graph::VertexId v) {
    std::uint32_t& w = records_[v].wait;
    assert(!(w & kStarted));
    if ((w & kPendingMask) < kWidePending - 1) ++w;
    else set_pending(v, pending(v) + 1);
  }
  // One less for v (whose count is not 0): the count left.
  std::uint32_t take_pending(graph::VertexId v) {
    std::uint32_t& w = records_[v].wait;
    assert(!(w & kStarted));
    if ((w & kPendingMask) != kWidePending) return --w & kPendingMask;
    const std::uint32_t left = pending(v) - 1;
    set_pending(v, left);
    return left;
  }
  // v waits on an event no record produces whose delay is not scheduled yet (the engine's flag, before it starts).
  bool waits_unrecorded(graph::VertexId v) const { return (records_[v].wait & (kStarted | kUnrecorded)) == kUnrecorded; }
  void set_waits_unrecorded(graph::VertexId v, bool waits) {
    std::uint32_t& w = records_[v].wait;
    assert(!(w & kStarted));
    w = waits ? w | kUnrecorded : w & ~kUnrecorded;
  }

  // The same times and releases (the engine's own counts and flags aside).
  friend bool operator==(const OperationRecords& a, const OperationRecords& b) {
    if (a.size() != b.size()) return false;
    for (graph::VertexId v = 0; v < a.size(); ++v)
      if (a.ready(v) != b.ready(v) || a.start(v) != b.start(v) || a.end(v) != b.end(v) ||
          a.released_by(v) != b.released_by(v) || a.release(v) != b.release(v))
        return false;
    return true;
  }

 private:
  // `word`: the time in its low 61 bits (the engine's times are in [0, 2^60], core/saturating.hpp), why it was
  // released in the top 3.
  static constexpr int kTimeBits = 61;
  static constexpr std::uint64_t kTimeMask = (std::uint64_t{1} << kTimeBits) - 1;
  // `wait` before the start: the count of pending inputs in the low 16 bits (kWidePending: in the side table) and
  // the unrecorded-event flag; from the start on, kStarted and start - ready (kWideWait: in the side table).
  static constexpr std::uint32_t kStarted = 1u << 31;
  static constexpr std::uint32_t kUnrecorded = 1u << 16;
  static constexpr std::uint32_t kPendingMask = 0xFFFF;
  static constexpr std::uint32_t kWidePending = 0xFFFF;
  static constexpr std::uint32_t kWideWait = kStarted - 1;  // 2^31 - 1 ns (2.1 s) or more
  // `run`: 0 before the end, then end - start + 1 (kWideRun: in the side table).
  static constexpr std::uint32_t kWideRun = ~0u;  // 2^32 - 2 ns (4.3 s) or more

  // 20 bytes, 4-aligned (`word` in two halves): a record every 20 bytes, so that fewer straddle a cache line than
  // at 24. All zero bytes is an operation not started, ready at 0, released by nothing, with no input pending
  // (`released_by` holds the vertex + 1): a fresh array is the kernel's zeroed pages, with no pass to fill it.
  struct Record {
    std::uint32_t word_low, word_high;
    std::uint32_t wait;
    std::uint32_t run;
    graph::VertexId released_by;
    std::uint64_t word() const { return std::uint64_t{word_high} << 32 | word_low; }
    void set_word(std::uint64_t w) {
      word_low = static_cast<std::uint32_t>(w);
      word_high = static_cast<std::uint32_t>(w >> 32);
    }
  };
  static_assert(sizeof(Record) == 20);

  static TimeNs held(TimeNs t) { return std::clamp<TimeNs>(t, 0, core::kTimeCeilingNs); }
  TimeNs slot(graph::VertexId v) const { return static_cast<TimeNs>(records_[v].word() & kTimeMask); }
  void set_slot(graph::VertexId v, TimeNs t) {
    records_[v].set_word((records_[v].word() & ~kTimeMask) | static_cast<std::uint64_t>(held(t)));
  }
  TimeNs wait(graph::VertexId v) const {
    const std::uint32_t w = records_[v].wait & ~kStarted;
    return w == kWideWait ? wide_at(wide_wait_, v) : w;
  }
  // The side tables are shared by the threads of one replay, each writing its own operations' records: the rare
  // value that needs them takes a lock.
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
  static std::uint32_t narrow(TimeNs d, std::uint32_t wide_mark, std::unordered_map<graph::VertexId, TimeNs>& wide,
                              graph::VertexId v) {
    if (d >= 0 && d < static_cast<TimeNs>(wide_mark)) return static_cast<std::uint32_t>(d);
    return keep_wide(d, wide_mark, wide, v);
  }
  [[gnu::noinline]] static std::uint32_t keep_wide(TimeNs d, std::uint32_t wide_mark,
                                                  std::unordered_map<graph::VertexId, TimeNs>& wide, graph::VertexId v) {
    const std::lock_guard lock(wide_mutex());
    wide[v] = d;
    return wide_mark;
  }
  [[gnu::noinline]] std::uint32_t wide_pending(graph::VertexId v) const {
    const std::lock_guard lock(wide_mutex());
    return wide_pending_.at(v);
  }
  [[gnu::noinline]] void set_pending_wide(graph::VertexId v, std::uint32_t count) {
    std::uint32_t& w = records_[v].wait;
    const std::lock_guard lock(wide_mutex());
    if (count < kWidePending) {
      wide_pending_.erase(v);
      w = (w & ~kPendingMask) | count;
    } else {
      wide_pending_[v] = count;
      w = (w & ~kPendingMask) | kWidePending;
    }
  }

  platform::ZeroedArray<Record> records_;
  std::unordered_map<graph::VertexId, TimeNs> wide_wait_, wide_run_;
  std::unordered_map<graph::VertexId, std::uint32_t> wide_pending_;
};

}  // namespace rr::replay
