// What the blocks of one replay on several threads tell each other (docs/replay.md, "One replay on many
// threads"): a queue of mail from one block to another, and what a sender needs to know how far the receiver
// can still be affected by what it sent.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>

#include "machine_models/machine_model.hpp"

namespace rr::replay {

inline constexpr machine::TimeNs kNoTime = std::numeric_limits<machine::TimeNs>::max();

// One message, 24 bytes. Its time is when it takes effect in the receiving block.
struct Mail {
  enum class Kind : std::uint8_t {
    contribute,  // a = vertex, b = from, c = Release: an input of a vertex the receiver owns
    event,       // a = vertex, b = EventType, c = aux: an event for the receiver's queue
    request,     // a = copy, b = channel instance key (channel * model nodes + node), c = round: a hop's request
  };
  machine::TimeNs time;
  std::uint32_t a, b, c;
  Kind kind;
};

// The hand-over of a replay's state between the thread that sets it up and oneTBB's workers, said in atomics
// of our own. oneTBB already orders a task's start after its spawn and a wait after the tasks it waits for, but
// inside its library, where ThreadSanitizer does not see: without this every field written before a parallel
// region and read inside it (or the other way round) would be reported as a race, and real ones would drown.
// Costs one atomic per task.
class Handoff {
 public:
  void give() { seq_.fetch_add(1, std::memory_order_release); }  // before tasks start; at a task's end
  void take() const { (void)seq_.load(std::memory_order_acquire); }  // at a task's start; after the wait
 private:
  std::atomic<std::uint64_t> seq_{0};
};

// Mail from one block to one other: one writer, one reader, unbounded (a chain of chunks, so that neither side
// ever waits for the other to make room). The writer makes what it sent visible with flush(); the reader says
// how much it has taken in with acknowledge().
class MailQueue {
 public:
  MailQueue() : write_chunk_(new Chunk), read_chunk_(write_chunk_) {}
  ~MailQueue() {
    while (read_chunk_) {
      Chunk* next = read_chunk_->next.load(std::memory_order_relaxed);
      delete read_chunk_;
      read_chunk_ = next;
    }
  }
  MailQueue(const MailQueue&) = delete;
  MailQueue& operator=(const MailQueue&) = delete;

  // Writer.
  void send(const Mail& m) {
    if (write_pos_ == Chunk::kSize) {
      auto* fresh = new Chunk;
      write_chunk_->next.store(fresh, std::memory_order_relaxed);  // published by flush()
      write_chunk_ = fresh;
      write_pos_ = 0;
    }
    write_chunk_->items[write_pos_++] = m;
    ++sent_;
  }
  void flush() {
    if (sent_ != flushed_) {
      flushed_ = sent_;
      written_.store(sent_, std::memory_order_release);
    }
  }
  std::uint64_t sent() const { return sent_; }  // writer's count, flushed or not
  std::uint64_t acknowledged() const { return acknowledged_.load(std::memory_order_acquire); }

  // Reader: applies f to every message flushed so far, in the order sent.
  template <typename F>
  bool drain(F&& f) {
    const std::uint64_t available = written_.load(std::memory_order_acquire);
    const bool any = read_ < available;
    while (read_ < available) {
      if (read_pos_ == Chunk::kSize) {
        Chunk* next = read_chunk_->next.load(std::memory_order_relaxed);
        delete read_chunk_;
        read_chunk_ = next;
        read_pos_ = 0;
      }
      f(read_chunk_->items[read_pos_++]);
      ++read_;
    }
    return any;
  }
  // Everything drained so far has been taken into the reader's own state (its queue, its published time).
  void acknowledge() {
    if (read_ != acked_) {
      acked_ = read_;
      acknowledged_.store(read_, std::memory_order_release);
    }
  }
  // For a reader that passes the mail on to another process (replay over ranks): the final receiver took in
  // `count` messages. Never less than before.
  void acknowledge_count(std::uint64_t count) {
    acked_ = count;
    acknowledged_.store(count, std::memory_order_release);
  }
  std::uint64_t written() const { return written_.load(std::memory_order_acquire); }
  std::uint64_t taken() const { return read_; }

 private:
  struct Chunk {
    static constexpr std::size_t kSize = 1024;
    Mail items[kSize];
    std::atomic<Chunk*> next{nullptr};
  };
  // writer's side
  Chunk* write_chunk_;
  std::size_t write_pos_ = 0;
  std::uint64_t sent_ = 0, flushed_ = 0;
  alignas(64) std::atomic<std::uint64_t> written_{0};
  // reader's side
  alignas(64) Chunk* read_chunk_;
  std::size_t read_pos_ = 0;
  std::uint64_t read_ = 0, acked_ = 0;
  alignas(64) std::atomic<std::uint64_t> acknowledged_{0};
};

// The earliest effect time among the messages a block sent to one other that the other has not yet taken in:
// a monotonic queue of (sequence number, time), so the minimum is at the front.
class UnackedTimes {
 public:
  void sent(std::uint64_t seq, machine::TimeNs t) {
    while (!items_.empty() && items_.back().time >= t) items_.pop_back();
    items_.push_back({seq, t});
  }
  // The receiver has taken in every message before sequence number `acked`.
  bool empty() const { return items_.empty(); }
  machine::TimeNs earliest(std::uint64_t acked) {
    while (!items_.empty() && items_.front().seq < acked) items_.pop_front();
    return items_.empty() ? kNoTime : items_.front().time;
  }

 private:
  struct Item {
    std::uint64_t seq;
    machine::TimeNs time;
  };
  std::deque<Item> items_;
};

// How far one block has got, for the others: no event it has yet to handle, and no message it has yet to send,
// is before `next` (kNoTime: it has nothing left, unless mail comes).
struct alignas(64) BlockProgress {
  std::atomic<machine::TimeNs> next{0};
  // Likewise for what can ask another block for a lane at once: an event, or mail that makes one. (A lane the
  // block owes counts from when its hop could first end.) Stored just before `next`.
  std::atomic<machine::TimeNs> events{0};
  // On threads with three blocks or more: odd while the block stores the two above and acknowledges the mail it
  // took in, counted up by two each time, so that another block can tell that it read them all at one moment
  // (BlockLink::look_around). A replay over ranks leaves it at 0: its pump stores the stand-ins on the reader's
  // own thread.
  std::atomic<std::uint64_t> version{0};
};

}  // namespace rr::replay
