// Task segments waiting for a processor, served highest priority first, then earliest `order` (the ready time,
// or the observed start), then lowest vertex id. Segments mostly arrive already in that order (one priority,
// ready times that only grow, and within an instant the engine readies vertices by increasing id), so those
// go to a FIFO and only the others to a binary heap: the queue pops exactly what one heap would, without a
// heap's cache misses on the long queues of a large trace.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"

namespace rr::replay {

struct WaitingSegment {
  std::int32_t priority;
  std::uint32_t task_payload;  // EventGraph::payload of the segment's task: where its attributes are
  machine::TimeNs order;
  graph::VertexId vertex;
  // Served before o.
  bool before(const WaitingSegment& o) const {
    if (priority != o.priority) return priority > o.priority;
    if (order != o.order) return order < o.order;
    return vertex < o.vertex;
  }
};

class SegmentQueue {
 public:
  bool empty() const { return head_ == fifo_.size() && heap_.empty(); }
  std::size_t size() const { return fifo_.size() - head_ + heap_.size(); }

  // The segment to serve first. Not empty.
  const WaitingSegment& top() const { return from_fifo() ? fifo_[head_] : heap_.front(); }

  void push(const WaitingSegment& s) {
    if (head_ == fifo_.size() || !s.before(back_)) {
      fifo_.push_back(s);
      back_ = s;
    } else {
      heap_.push_back(s);
      std::push_heap(heap_.begin(), heap_.end(), served_later);
    }
  }

  void pop() {
    if (from_fifo()) {
      ++head_;
      // The served front is reclaimed once it is most of the array: amortised O(1), contiguous memory.
      if (head_ == fifo_.size()) {
        fifo_.clear();
        head_ = 0;
      } else if (head_ >= 1024 && head_ * 2 >= fifo_.size()) {
        fifo_.erase(fifo_.begin(), fifo_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
      }
    } else {
      std::pop_heap(heap_.begin(), heap_.end(), served_later);
      heap_.pop_back();
    }
  }

 private:
  static bool served_later(const WaitingSegment& a, const WaitingSegment& b) { return b.before(a); }
  bool from_fifo() const {
    if (head_ == fifo_.size()) return false;
    return heap_.empty() || fifo_[head_].before(heap_.front());
  }

  std::vector<WaitingSegment> fifo_;  // [head_, end) in serving order
  std::size_t head_ = 0;
  // The FIFO's last segment, kept here too: a push compares with it, and the FIFO's end is another cache line
  // than the queue, a miss in a large trace's thousands of queues.
  WaitingSegment back_{};
  std::vector<WaitingSegment> heap_;  // the segments that arrived out of order
};

}  // namespace rr::replay
