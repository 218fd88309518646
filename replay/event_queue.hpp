// The replay's queue of timed events: a radix heap on the time (the replay never schedules before the
// present), with the events of the present instant in a small binary heap ordered by (vertex, type, aux).
// It pops exactly what a binary heap on (time, vertex, type, aux) would, at a fraction of the cost: a push
// into the future is an append, and an event moves between buckets only as the present approaches it.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"

namespace rr::replay {

// `floor`: an input that is an event no record produces, its measured delay after the other inputs.
enum class EventType : std::uint8_t { fire, segment_end, hop_end, arrival_effect, ready, floor };

// One timed event, packed into a 128-bit key whose order is (time, vertex, type, aux): time in the top 61 bits
// (the engine holds every time in [0, 2^60], core/saturating.hpp), then the vertex, the type in 3 bits, aux.
// Two events compare in one wide comparison, without the branches a field-by-field comparison has the
// processor mispredict in the heap. The order is total, so runs are reproducible.
class QueuedEvent {
 public:
  // A time outside [0, kLatest] is held at the nearer end (a negative one then waits for the present, as any
  // time before it does: EventQueue::push), never wrapped into another time.
  static constexpr machine::TimeNs kLatest = (machine::TimeNs{1} << 61) - 1;
  QueuedEvent(machine::TimeNs time, graph::VertexId vertex, EventType type, std::uint32_t aux = 0)
      : key_(static_cast<Key>(static_cast<std::uint64_t>(std::clamp<machine::TimeNs>(time, 0, kLatest))) << 67 |
             static_cast<Key>(vertex) << 35 | static_cast<Key>(static_cast<std::uint8_t>(type)) << 32 | aux) {}
  machine::TimeNs time() const { return static_cast<machine::TimeNs>(key_ >> 67); }
  graph::VertexId vertex() const { return static_cast<graph::VertexId>(key_ >> 35); }
  EventType type() const { return static_cast<EventType>((key_ >> 32) & 7); }
  std::uint32_t aux() const { return static_cast<std::uint32_t>(key_); }  // processor / channel instance / arrive vertex
  // Earliest time first; ties by vertex id, then type, then aux.
  bool before(const QueuedEvent& o) const { return key_ < o.key_; }
  // The same event at another time.
  QueuedEvent at(machine::TimeNs t) const { return {t, vertex(), type(), aux()}; }

 private:
  __extension__ using Key = unsigned __int128;
  Key key_;
};
static_assert(sizeof(QueuedEvent) == 16);

// Used one instant at a time: begin_instant() makes the earliest time the present; pop() then returns the
// present's events while has_present(), new ones at the present included. Times are non-negative and never
// before the present (push() holds them there).
class EventQueue {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  // The time of the earliest event, now the present. Not empty.
  machine::TimeNs begin_instant() {
    if (present_.empty()) advance();
    return present_time_;
  }
  bool has_present() const { return !present_.empty(); }

  // The time of the earliest event, without making it the present (an event before it may still be pushed:
  // a block of a replay on several threads looks before it knows it may go on). Not empty.
  machine::TimeNs next_time() const {
    if (!present_.empty()) return present_time_;
    if (next_ < 0) {  // found once, then kept until the present moves (put lowers it)
      const std::vector<QueuedEvent>& lowest = buckets_[1 + static_cast<std::size_t>(std::countr_zero(occupied_))];
      next_ = lowest.front().time();
      for (const QueuedEvent& e : lowest) next_ = std::min(next_, e.time());
    }
    return next_;
  }

  void push(QueuedEvent e) {
    if (e.time() < present_time_) e = e.at(present_time_);
    ++size_;
    if (e.time() == present_time_) {
      present_.push_back(e);
      std::push_heap(present_.begin(), present_.end(), later);
    } else {
      put(e);
    }
  }

  // Removes and returns the earliest event of the present. has_present().
  QueuedEvent pop() {
    std::pop_heap(present_.begin(), present_.end(), later);
    QueuedEvent e = present_.back();
    present_.pop_back();
    --size_;
    return e;
  }

 private:
  // Bucket i > 0 holds times whose highest bit differing from the present time is bit i-1; bucket 0 is
  // present_. The lowest non-empty bucket holds the next time, and emptying it moves each of its events to a
  // strictly lower bucket: every event is moved at most 64 times, in practice a few.
  static constexpr std::size_t kBuckets = 65;
  std::size_t bucket_of(machine::TimeNs t) const {
    const auto diff = static_cast<std::uint64_t>(t) ^ static_cast<std::uint64_t>(present_time_);
    return diff == 0 ? 0 : 64 - static_cast<std::size_t>(std::countl_zero(diff));
  }
  static bool later(const QueuedEvent& a, const QueuedEvent& b) { return b.before(a); }

  void put(const QueuedEvent& e) {
    if (next_ >= 0) next_ = std::min(next_, e.time());
    move(e);
  }
  // Into its bucket, without keeping next_ (advance() has just forgotten it).
  void move(const QueuedEvent& e) {
    const std::size_t b = bucket_of(e.time());
    buckets_[b].push_back(e);
    occupied_ |= std::uint64_t{1} << (b - 1);
  }

  // The present instant is over: the earliest remaining time becomes the present. The lowest non-empty
  // bucket is found from a mask, not by a scan (whose exit branch the processor mispredicts at every instant);
  // a bucket of one event (about half of them on S3D traces) is taken without the loops.
  void advance() {
    next_ = -1;
    const std::size_t i = 1 + static_cast<std::size_t>(std::countr_zero(occupied_));
    std::vector<QueuedEvent>& from = buckets_[i];
    occupied_ &= ~(std::uint64_t{1} << (i - 1));
    if (from.size() == 1) {
      present_time_ = from.front().time();
      present_.push_back(from.front());
      from.clear();
      return;
    }
    machine::TimeNs next = from.front().time();
    for (const QueuedEvent& e : from) next = std::min(next, e.time());
    present_time_ = next;
    for (const QueuedEvent& e : from) {
      if (e.time() == next) present_.push_back(e);
      else move(e);  // into a strictly lower bucket, never i again
    }
    from.clear();
    std::make_heap(present_.begin(), present_.end(), later);
  }

  machine::TimeNs present_time_ = 0;
  std::size_t size_ = 0;
  std::vector<QueuedEvent> present_;  // events at present_time_, a heap on (vertex, type, aux)
  std::array<std::vector<QueuedEvent>, kBuckets> buckets_;
  std::uint64_t occupied_ = 0;  // bit i-1: buckets_[i] is not empty
  mutable machine::TimeNs next_ = -1;  // next_time() when the present is empty; -1: not known
};

}  // namespace rr::replay
