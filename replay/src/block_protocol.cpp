#include "replay/src/block_protocol.hpp"

#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <optional>
#include <thread>
#include <utility>

#include "core/saturating.hpp"
#include "replay/src/engine.hpp"

namespace rr::replay {

Blocks::Blocks(Partition p, std::optional<std::uint32_t> only)
    : partition(std::move(p)), progress(std::make_unique<BlockProgress[]>(partition.count)) {
  const std::uint32_t n = partition.count;
  mail.resize(std::size_t{n} * n);
  for (std::uint32_t from = 0; from < n; ++from)
    for (std::uint32_t to = 0; to < n; ++to)
      if (!only || from == *only || to == *only) mail[std::size_t{from} * n + to] = std::make_unique<MailQueue>();
  versioned = !only && n > 2;
}

BlockLink::BlockLink(Blocks& blocks, std::uint32_t me)
    : blocks_(blocks), me_(me), of_vertex_(blocks.partition.of_vertex.data()), unacked_(blocks.count()),
      acked_seen_(blocks.count(), 0), versions_(blocks.count(), 0) {}

bool BlockLink::step(Engine& e) {
  // No other block has anything left before its published time (publish), and none has yet to act on mail
  // this block sent it before that mail's time; so nothing can reach this one before horizon + lookahead, but
  // the requests of shared instances, which wait for the horizon itself. (A block's published time counts the
  // mail it sent that is not taken in yet: what that mail makes its receiver do may reach a third block.)
  bool did = false;
  for (int look = 0; look < 8; ++look) {
    if (look_around(e)) did = true;
    else if (look > 0) break;  // nothing new since the last look
    did |= run_deferred(e, request_horizon_);
    did |= run_rounds(e);
  }
  publish(e);
  return did;
}

// Reads how far the other blocks got and takes in their mail. True when there was mail or the horizon moved.
bool BlockLink::look_around(Engine& e) {
  Blocks& b = blocks_;
  const TimeNs before = horizon_, requests_before = request_horizon_;
  read_progress();
  bool any = horizon_ != before || request_horizon_ != requests_before;
  for (std::uint32_t other = 0; other < b.count(); ++other)
    if (other != me_ && b.queue(other, me_).drain([&](const Mail& m) { take(e, m); })) any = unacknowledged_ = true;
  return any;
}

// The horizons from the other blocks' progress and the acknowledgements of this block's mail, as they all were at
// one moment. Read one block after another they could be of different moments, and with three blocks or more that
// breaks the protocol: a block that reads a receiver's progress from before it took in a message, then (after a
// pause) the sender's from after the receiver acknowledged it, sees the message counted nowhere, and may replay
// past where what the receiver makes of it reaches it, or give out a shared instance's lanes at an instant a
// request can still come for. So each block counts its version up around what it stores (publish), and the reads
// stand only when no version moved between the looks before and after them: every value then held at once. When
// they did move, the horizons stay as they were (those of an earlier moment, still safe: what this block sent
// since lowered them) and a later look reads again. Two blocks read one other, with nothing to mix.
bool BlockLink::read_progress() {
  Blocks& b = blocks_;
  auto read = [&] {
    TimeNs horizon = kNoTime, requests = kNoTime;
    for (std::uint32_t other = 0; other < b.count(); ++other) {
      if (other == me_) continue;
      const TimeNs unacked = unacked_time(other, true);
      horizon = std::min({horizon, unacked, b.progress[other].next.load(std::memory_order_acquire)});
      requests = std::min({requests, unacked, b.progress[other].events.load(std::memory_order_acquire)});
      if (b.between_reads) b.between_reads(me_, other);
    }
    return std::pair{horizon, requests};
  };
  if (!b.versioned) {
    std::tie(horizon_, request_horizon_) = read();
    return true;
  }
  constexpr int kTries = 4;  // each a few loads; a block publishes at most once a round
  for (int attempt = 0; attempt < kTries; ++attempt) {
    bool busy = false;
    for (std::uint32_t other = 0; other < b.count(); ++other)
      if (other != me_) busy |= ((versions_[other] = b.progress[other].version.load(std::memory_order_acquire)) & 1) != 0;
    if (busy) continue;
    const auto [horizon, requests] = read();
    std::atomic_thread_fence(std::memory_order_acquire);
    bool same = true;
    for (std::uint32_t other = 0; other < b.count(); ++other)
      if (other != me_) same &= b.progress[other].version.load(std::memory_order_relaxed) == versions_[other];
    if (same) {
      horizon_ = horizon;
      request_horizon_ = requests;
      return true;
    }
  }
  return false;
}

// The rounds this block may replay now, each published as it ends. True when there was one.
bool BlockLink::run_rounds(Engine& e) {
  const Partition& p = blocks_.partition;
  bool did = false;
  while (e.has_events()) {
    const TimeNs t = e.next_event_time();
    // (Mail this block sends lowers the horizon as it goes: its receiver may answer it.)
    if (t >= core::saturating_add(horizon_, p.lookahead)) break;
    // A lane given out late starts a hop then, which ends at least least_hop later: not before it is given.
    if (!deferred_.empty() && t >= core::saturating_add(deferred_.top().time, p.least_hop)) break;
    e.run_round();
    did = true;
    run_deferred(e, request_horizon_);
    publish(e);  // at every round: another block may be waiting for it (publishing only when that would unblock
                 // one was slower: the others then went on by the smallest steps)
  }
  return did;
}

void BlockLink::publish(Engine& e) {
  Blocks& b = blocks_;
  // (At every round, so the loops over the other blocks run only when there is something to flush or acknowledge.)
  if (unflushed_)
    for (std::uint32_t other = 0; other < b.count(); ++other)
      if (other != me_) b.queue(me_, other).flush();
  unflushed_ = false;
  TimeNs events = e.next_event_time();
  for (std::uint32_t other = 0; other < b.count(); ++other)
    if (other != me_) events = std::min(events, unacked_time(other, false));
  TimeNs next = events;
  if (!deferred_.empty()) {
    next = std::min(next, deferred_.top().time);
    // A lane given out late sends nothing before its hop ends, and asks for none.
    events = std::min(events, core::saturating_add(deferred_.top().time, b.partition.least_hop));
  }
  // Stored only when they move: a store takes the line back from the blocks that read it. The version is odd
  // while they and the acknowledgements change, so that no block reads them half done (read_progress).
  std::atomic<std::uint64_t>& version = b.progress[me_].version;
  const bool versioned = b.versioned && (events != published_events_ || next != published_next_ || unacknowledged_);
  const std::uint64_t v = versioned ? version.load(std::memory_order_relaxed) : 0;
  if (versioned) {
    version.store(v + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
  }
  if (events != published_events_) b.progress[me_].events.store(published_events_ = events, std::memory_order_release);
  if (next != published_next_) b.progress[me_].next.store(published_next_ = next, std::memory_order_release);
  if (unacknowledged_)
    for (std::uint32_t other = 0; other < b.count(); ++other)
      if (other != me_) b.queue(other, me_).acknowledge();
  unacknowledged_ = false;
  if (versioned) version.store(v + 2, std::memory_order_release);
}

void BlockLink::take(Engine& e, const Mail& m) {
  // The protocol's promise: mail never takes effect at an instant this block has done. A request may come for
  // an earlier instant (it has no lookahead), but not for one whose hop would already have ended.
  assert(!e.began() ||
         (m.kind == Mail::Kind::request ? m.time + blocks_.partition.least_hop > e.now() : m.time > e.now()));
  switch (m.kind) {
    case Mail::Kind::contribute: e.contribute(m.a, m.time, m.b, static_cast<Release>(m.c)); break;
    case Mail::Kind::event: e.push(m.time, m.a, static_cast<EventType>(m.b), m.c); break;
    case Mail::Kind::request: {
      const auto nodes = static_cast<std::uint32_t>(blocks_.partition.of_node.size());
      defer({m.time, m.c, e.instance(m.b / nodes, m.b % nodes), m.a});
      break;
    }
  }
}

// The earliest time of the mail this block sent `other` that it has not taken in yet, as of the last look at
// its acknowledgement (look_around: rereading it at every round would move its cache line back and forth).
TimeNs BlockLink::unacked_time(std::uint32_t other, bool look) {
  UnackedTimes& u = unacked_[other];
  if (u.empty()) return kNoTime;
  if (look) acked_seen_[other] = blocks_.queue(me_, other).acknowledged();
  return u.earliest(acked_seen_[other]);
}

// Gives out the lanes of shared instances at every (instant, round) before both the horizon (no other block
// can still ask for them then) and this block's own next round (it cannot either).
bool BlockLink::run_deferred(Engine& e, TimeNs horizon) {
  bool did = false;
  while (!deferred_.empty()) {
    const Deferred top = deferred_.top();
    if (top.time >= horizon) break;
    if (!e.before_next_round(top.time, top.round)) break;
    touched_.clear();
    while (!deferred_.empty() && deferred_.top().time == top.time && deferred_.top().round == top.round) {
      const Deferred d = deferred_.top();
      deferred_.pop();
      e.change_lanes(d);
      if (touched_.empty() || touched_.back() != d.inst) touched_.push_back(d.inst);
    }
    for (const std::uint32_t inst : touched_) e.give_lanes(inst, top.time);
    did = true;
  }
  return did;
}

namespace {

// One block: its link to the others and its engine, which sends through the link.
struct Block {
  Block(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
        const ReplayOptions& options, SharedState& shared, Blocks& blocks, std::uint32_t me)
      : link(blocks, me), engine(make_engine(g, map, model, options, shared, &link)) {}
  bool step() { return link.step(*engine); }

  BlockLink link;
  std::unique_ptr<Engine> engine;
};

// A moment's wait in a spin loop, easier on the core than nothing.
inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// The replay is over when no block has anything left and every message was taken in. Acknowledgements are read
// first, progress next, what was sent last: each count only grows and no queue acknowledges more than was sent,
// so equal totals mean every message sent by the last read was taken in by the first, when no block had
// anything left (a block publishes its progress before it acknowledges).
bool all_done(Blocks& b) {
  std::uint64_t acknowledged = 0, written = 0;
  for (const auto& q : b.mail) acknowledged += q->acknowledged();
  for (std::uint32_t i = 0; i < b.count(); ++i)
    if (b.progress[i].next.load(std::memory_order_acquire) != kNoTime) return false;
  for (const auto& q : b.mail) written += q->written();
  return acknowledged == written;
}

// Runs the blocks on `threads` oneTBB workers. Block i is worker i mod threads' own; a worker that has long found
// nothing of its own to do steps any other block no worker holds, so the replay goes on at any number of threads.
void run_blocks(std::vector<std::unique_ptr<Block>>& blocks, Blocks& b, std::uint32_t threads) {
  constexpr std::uint32_t kStealAfter = 256;  // idle looks (each a short spin) before a worker steps others' blocks
  std::atomic<bool> finished{false};
  const std::unique_ptr<std::atomic<bool>[]> held(new std::atomic<bool>[b.count()]);
  for (std::uint32_t i = 0; i < b.count(); ++i) held[i].store(false);
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto step = [&](std::uint32_t i) {
    if (held[i].exchange(true, std::memory_order_acquire)) return false;
    bool did = false;
    try {
      did = blocks[i]->step();
    } catch (...) {
      if (!failed.exchange(true)) failure = std::current_exception();
      finished.store(true, std::memory_order_release);
    }
    held[i].store(false, std::memory_order_release);
    return did;
  };
  // Each worker steps its own blocks (i mod threads), so that a block's state stays in one core's caches; it steps
  // the others only once it has waited a while with nothing of its own to do, in case their worker is not running
  // (more workers than cores, or a worker the system descheduled): the replay goes on at any number of threads.
  auto work = [&](std::uint32_t worker) {
    std::uint32_t idle = 0;
    while (!finished.load(std::memory_order_acquire)) {
      bool did = false;
      for (std::uint32_t i = worker; i < b.count(); i += threads) did |= step(i);
      if (!did && idle >= kStealAfter)
        for (std::uint32_t k = 1; k < b.count(); ++k) {
          const std::uint32_t i = (worker + k) % b.count();
          if (i % threads != worker) did |= step(i);
        }
      if (did) {
        idle = 0;
      } else if (all_done(b)) {
        finished.store(true, std::memory_order_release);
      } else if (++idle < 4096) {  // another worker is about to publish: wait briefly, without the kernel
        for (int spin = 0; spin < 16; ++spin) pause();
      } else {
        std::this_thread::yield();  // fewer cores than workers, or a long wait
      }
    }
  };
  Handoff handoff;
  handoff.give();
  oneapi::tbb::task_arena arena(static_cast<int>(threads));
  arena.execute([&] {
    oneapi::tbb::parallel_for(std::uint32_t{0}, threads, [&](std::uint32_t worker) {
      handoff.take();
      work(worker);
      handoff.give();
    }, oneapi::tbb::simple_partitioner{});
  });
  handoff.take();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

core::Expected<std::vector<BlockOutput>> run_split(const graph::EventGraph& g, const MachineMap& map,
                                                   const machine::MachineModel& model, const ReplayOptions& options,
                                                   SharedState& shared, Partition partition) {
  Blocks b(std::move(partition));
  std::vector<std::unique_ptr<Block>> blocks;
  for (std::uint32_t i = 0; i < b.count(); ++i)
    blocks.push_back(std::make_unique<Block>(g, map, model, options, shared, b, i));
  std::vector<std::optional<std::pair<graph::VertexId, core::InputError>>> errors(b.count());
  Handoff handoff;
  handoff.give();
  oneapi::tbb::parallel_for(std::uint32_t{0}, b.count(), [&](std::uint32_t i) {
    handoff.take();
    errors[i] = blocks[i]->engine->init_block();
    handoff.give();
  });
  handoff.take();
  std::optional<std::pair<graph::VertexId, core::InputError>> error;
  for (auto& e : errors)
    if (e && (!error || e->first < error->first)) error = std::move(e);
  if (error) return error->second;  // the lowest task's, as on one engine
  for (auto& block : blocks) block->link.publish(*block->engine);
  // No more workers than the machine has (oneTBB would not give them, and say so): a worker steps any free block.
  const auto cores = static_cast<std::uint32_t>(std::max(1, oneapi::tbb::info::default_concurrency()));
  run_blocks(blocks, b, std::min(options.execution.threads ? options.execution.threads : b.count(), cores));
  std::vector<BlockOutput> outputs;
  for (auto& block : blocks) outputs.push_back(block->engine->take_output());
  return outputs;
}

}  // namespace rr::replay
