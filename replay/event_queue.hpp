// The replay's queue of timed events: a calendar of time windows (the replay never schedules before the present).
// It pops exactly what a binary heap on (time, vertex, type, aux) would, at a fraction of the cost: a push into
// the future is a list insertion, and an event is moved once, when its window comes.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"

namespace rr::replay {

// `floor`: an input that is an event no record produces, its measured delay after the other inputs.
// core_due: a node's shared cores reach the first point due (replay/core_share.hpp); its aux is the node.
enum class EventType : std::uint8_t { fire, segment_end, hop_end, arrival_effect, ready, floor, core_due };

// One timed event, packed into a 128-bit key whose order is (time, vertex, type, aux): time in the top 61 bits
// (the engine holds every time in [0, 2^60], core/saturating.hpp), then the vertex, the type in 3 bits, aux.
// Two events compare in one wide comparison, without the branches a field-by-field comparison has the
// processor mispredict in the heap. The order is total, so runs are reproducible.
class QueuedEvent {
 public:
  // A time outside [0, kLatest] is held at the nearer end (a negative one then waits for the present, as any
  // time before it does: EventQueue::push), never wrapped into another time.
  static constexpr machine::TimeNs kLatest = (machine::TimeNs{1} << 61) - 1;
  QueuedEvent() = default;  // time 0, vertex 0, fire, aux 0
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
  Key key_ = 0;
};
static_assert(sizeof(QueuedEvent) == 16);

// Which windows of a ring hold events: one bit per window and one per 64 windows, so that the next occupied
// window after any other is found in a few word operations, without a scan of empty windows.
class RingOccupancy {
 public:
  static constexpr std::size_t kSize = std::size_t{1} << 14;
  static constexpr std::size_t kNone = kSize;
  void set(std::size_t i) {
    bits_[i >> 6] |= std::uint64_t{1} << (i & 63);
    words_[i >> 12] |= std::uint64_t{1} << ((i >> 6) & 63);
  }
  void clear(std::size_t i) {
    bits_[i >> 6] &= ~(std::uint64_t{1} << (i & 63));
    if (bits_[i >> 6] == 0) words_[i >> 12] &= ~(std::uint64_t{1} << ((i >> 6) & 63));
  }
  // The first occupied window at or after `from` going round the ring (from itself last, for the bits below it),
  // or kNone.
  std::size_t first_from(std::size_t from) const {
    const std::size_t word = from >> 6;
    if (const std::uint64_t here = bits_[word] & (~std::uint64_t{0} << (from & 63)))
      return (word << 6) + static_cast<std::size_t>(std::countr_zero(here));
    // The next word that has a bit, round the ring, this one last (its bits below `from`).
    const std::size_t next = (word + 1) & (kWords - 1);
    for (std::size_t k = 0; k <= kSummaries; ++k) {
      const std::size_t s = ((next >> 6) + k) & (kSummaries - 1);
      std::uint64_t candidates = words_[s];
      if (k == 0) candidates &= ~std::uint64_t{0} << (next & 63);
      if (candidates) {
        const std::size_t w = (s << 6) + static_cast<std::size_t>(std::countr_zero(candidates));
        return (w << 6) + static_cast<std::size_t>(std::countr_zero(bits_[w]));
      }
    }
    return kNone;
  }

 private:
  static constexpr std::size_t kWords = kSize / 64;
  static constexpr std::size_t kSummaries = kWords / 64;
  std::array<std::uint64_t, kWords> bits_{};
  std::array<std::uint64_t, kSummaries> words_{};  // bit w: bits_[w] is not 0
};

// Used one instant at a time: begin_instant() makes the earliest time the present; pop() then returns the
// present's events while has_present(), new ones at the present included. Times are non-negative and never
// before the present (push() holds them there).
//
// A calendar of time windows of 2^10 ns: the events of the current window (and of any earlier one, pushed after
// the calendar moved on) are in current_, ordered on the whole key, which pops them in order; each of the next
// 2^14 windows (16.7 ms) keeps its events in a list, unordered, until it becomes the current window; later events
// wait in a heap of their own. Nearly every event is pushed into a list once, moved into current_ once, and
// popped: no event is moved twice, whatever the spread of times (a radix heap moved each event about four times
// on S3D traces).
class EventQueue {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  // The time of the earliest event, now the present. Not empty.
  machine::TimeNs begin_instant() {
    if (current_.empty()) next_window();
    present_time_ = earliest().time();
    return present_time_;
  }
  bool has_present() const { return !current_.empty() && earliest().time() == present_time_; }

  // The time of the earliest event, without making it the present (an event before it may still be pushed:
  // a block of a replay on several threads looks before it knows it may go on). Not empty.
  machine::TimeNs next_time() {
    if (current_.empty()) next_window();
    return earliest().time();
  }

  void push(QueuedEvent e) {
    if (e.time() < present_time_) e = e.at(present_time_);
    ++size_;
    const std::uint64_t w = window_of(e.time());
    if (w <= window_) {
      add_current(e);
    } else if (w - window_ < RingOccupancy::kSize) {
      const std::size_t slot = w & (RingOccupancy::kSize - 1);
      std::uint32_t node = free_;
      if (node != kNil) {
        free_ = nodes_[node].next;
      } else {
        node = static_cast<std::uint32_t>(nodes_.size());
        nodes_.emplace_back();
      }
      nodes_[node].set(e, heads_[slot]);
      if (heads_[slot] == kNil) occupied_.set(slot);
      heads_[slot] = node;
    } else {
      far_.push_back(e);
      std::push_heap(far_.begin(), far_.end(), later);
    }
  }

  // Removes and returns the earliest event of the present. has_present().
  QueuedEvent pop() {
    if (heap_) std::pop_heap(current_.begin(), current_.end(), later);
    QueuedEvent e = current_.back();
    current_.pop_back();
    heap_ = heap_ && !current_.empty();
    --size_;
    return e;
  }

 private:
  static constexpr int kWindowBits = 10;
  static constexpr std::uint32_t kNil = ~0u;
  static std::uint64_t window_of(machine::TimeNs t) { return static_cast<std::uint64_t>(t) >> kWindowBits; }
  static bool later(const QueuedEvent& a, const QueuedEvent& b) { return b.before(a); }

  // The current window's events are all popped (current_ is empty, the queue is not): the next window that has
  // events becomes the current one, and its events, from the ring and from far_, go into current_.
  void next_window() {
    const std::size_t from = (window_ + 1) & (RingOccupancy::kSize - 1);
    const std::size_t slot = occupied_.first_from(from);
    const std::uint64_t ring_window = slot == RingOccupancy::kNone
                                          ? ~std::uint64_t{0}
                                          : window_ + 1 + ((slot - from) & (RingOccupancy::kSize - 1));
    const std::uint64_t w = far_.empty() ? ring_window : std::min(ring_window, window_of(far_.front().time()));
    window_ = w;
    if (ring_window == w) {
      for (std::uint32_t node = heads_[slot]; node != kNil;) {
        add_current(nodes_[node].event());
        const std::uint32_t next = nodes_[node].next;
        nodes_[node].next = free_;
        free_ = node;
        node = next;
      }
      heads_[slot] = kNil;
      occupied_.clear(slot);
    }
    while (!far_.empty() && window_of(far_.front().time()) == w) {
      add_current(far_.front());
      std::pop_heap(far_.begin(), far_.end(), later);
      far_.pop_back();
    }
  }

  // current_ holds a window's few events (two on average on S3D traces) sorted latest first, so the earliest is
  // popped from the back and a new one slides in from there; past kSortedAtMost events it becomes a binary heap
  // until it is empty again (the start of a run readies thousands of operations at once).
  static constexpr std::size_t kSortedAtMost = 32;
  const QueuedEvent& earliest() const { return heap_ ? current_.front() : current_.back(); }
  [[gnu::always_inline]] void add_current(const QueuedEvent& e) {
    if (heap_ || current_.size() == kSortedAtMost) return add_to_heap(e);
    current_.push_back(e);
    auto at = current_.end() - 1;
    for (; at != current_.begin() && (at - 1)->before(e); --at) *at = *(at - 1);
    *at = e;
  }
  [[gnu::noinline]] void add_to_heap(const QueuedEvent& e) {
    if (!heap_) std::make_heap(current_.begin(), current_.end(), later);
    heap_ = true;
    current_.push_back(e);
    std::push_heap(current_.begin(), current_.end(), later);
  }

  // 20 bytes, not the 32 a QueuedEvent's 16-byte alignment would round it to: a large trace has millions of
  // events in the ring at once (4.3 M on 1,024 S3D nodes).
  struct Node {
    std::uint32_t words[4];  // the event's bytes
    std::uint32_t next;
    QueuedEvent event() const {
      QueuedEvent e;
      std::memcpy(&e, words, sizeof e);
      return e;
    }
    void set(const QueuedEvent& e, std::uint32_t after) {
      std::memcpy(words, &e, sizeof e);
      next = after;
    }
  };
  static_assert(sizeof(Node) == 20 && sizeof(QueuedEvent) == 16 && std::is_trivially_copyable_v<QueuedEvent>);

  machine::TimeNs present_time_ = 0;
  std::size_t size_ = 0;
  std::uint64_t window_ = 0;           // the current window: its events, and any before it, are in current_
  std::vector<QueuedEvent> current_;   // sorted latest first, or a heap on the whole key (heap_)
  bool heap_ = false;
  std::vector<std::uint32_t> heads_ = std::vector<std::uint32_t>(RingOccupancy::kSize, kNil);  // by window mod size
  RingOccupancy occupied_;
  std::vector<Node> nodes_;            // the lists' nodes; free ones chained from free_
  std::uint32_t free_ = kNil;
  std::vector<QueuedEvent> far_;       // a heap of the events past the ring
};

}  // namespace rr::replay
