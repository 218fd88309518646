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

struct QueuedEvent {
  machine::TimeNs time;
  graph::VertexId vertex;
  EventType type;
  std::uint32_t aux;  // processor / channel instance / arrive vertex
  // Earliest time first; ties by vertex id, then type: a total order, so runs are reproducible.
  bool before(const QueuedEvent& o) const {
    if (time != o.time) return time < o.time;
    if (vertex != o.vertex) return vertex < o.vertex;
    if (type != o.type) return type < o.type;
    return aux < o.aux;
  }
};

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

  void push(QueuedEvent e) {
    e.time = std::max(e.time, present_time_);
    ++size_;
    if (e.time == present_time_) {
      present_.push_back(e);
      std::push_heap(present_.begin(), present_.end(), later);
    } else {
      buckets_[bucket_of(e.time)].push_back(e);
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

  // The present instant is over: the earliest remaining time becomes the present.
  void advance() {
    std::size_t i = 1;
    while (buckets_[i].empty()) ++i;
    std::vector<QueuedEvent>& from = buckets_[i];
    machine::TimeNs next = from.front().time;
    for (const QueuedEvent& e : from) next = std::min(next, e.time);
    present_time_ = next;
    for (const QueuedEvent& e : from) {
      if (e.time == next) present_.push_back(e);
      else buckets_[bucket_of(e.time)].push_back(e);
    }
    from.clear();
    std::make_heap(present_.begin(), present_.end(), later);
  }

  machine::TimeNs present_time_ = 0;
  std::size_t size_ = 0;
  std::vector<QueuedEvent> present_;  // events at present_time_, a heap on (vertex, type, aux)
  std::array<std::vector<QueuedEvent>, kBuckets> buckets_;
};

}  // namespace rr::replay
