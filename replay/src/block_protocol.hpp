// The protocol of one replay split into blocks by model node (docs/replay.md, "One replay on many threads"): each
// block's engine replays its instants up to where no other block can still reach it, sends what crosses to
// another block as mail (block_mail.hpp), and publishes how far it got. Every message takes effect at least the
// partition's lookahead after the sender's present, except a copy's request for its first hop on another block's
// channel instance, which takes effect at once: such an instance is shared, and its block gives out its lanes at
// an instant only once every other block has gone past it.
#pragma once

#include <cassert>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "core/result.hpp"
#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/machine_map.hpp"
#include "replay/replay_engine.hpp"
#include "replay/src/assemble_result.hpp"
#include "replay/src/block_mail.hpp"
#include "replay/src/partition.hpp"
#include "replay/src/serve_queue.hpp"
#include "replay/src/shared_state.hpp"

namespace rr::replay {

class Engine;

// What the blocks of one replay share: the partition, how far each block got, and the mail between every two.
struct Blocks {
  // With `only`, just the queues to and from that block: a process of a replay over ranks runs one block, and the
  // queues of a full set grow with the square of the blocks.
  explicit Blocks(Partition p, std::optional<std::uint32_t> only = std::nullopt);
  std::uint32_t count() const { return partition.count; }
  MailQueue& queue(std::uint32_t from, std::uint32_t to) { return *mail[from * partition.count + to]; }

  Partition partition;
  // Whether a block reads the others' progress through their versions (BlockProgress::version): on threads, with
  // at least two others to read.
  bool versioned = false;
  // For tests: called as a block has read one other's progress and before it reads the next, where a block the
  // system preempted would stop.
  std::function<void(std::uint32_t reader, std::uint32_t other)> between_reads;
  std::unique_ptr<BlockProgress[]> progress;
  std::vector<std::unique_ptr<MailQueue>> mail;  // from * count + to (null where `only` left one out)
};

// A channel instance's change that waits until every block has gone past its instant: a lane freed (copy ==
// kNoVertex) or a hop requested, in the order (time, round, instance, copy).
struct Deferred {
  TimeNs time;
  std::uint32_t round;
  std::uint32_t inst;
  graph::VertexId copy;
  bool operator<(const Deferred& o) const {
    return std::tie(time, round, inst, copy) < std::tie(o.time, o.round, o.inst, o.copy);
  }
};

// One block's side of the protocol: how far it knows the others got, the mail it sent them that they have not
// taken in, and the changes of its shared instances that wait for them. Its engine sends through it; it steps its
// engine.
class BlockLink {
 public:
  BlockLink(Blocks& blocks, std::uint32_t me);

  std::uint32_t me() const { return me_; }
  std::uint32_t owner(graph::VertexId v) const { return of_vertex_[v]; }
  std::uint32_t block_of_node(std::uint32_t node) const { return blocks_.partition.of_node[node]; }
  bool shared_instance(std::size_t key) const { return blocks_.partition.shared_instance[key] != 0; }

  // Sends mail, made at `sent` (the present, or the instant a late lane was given out at).
  void send(std::uint32_t to, const Mail& m, [[maybe_unused]] TimeNs sent) {
    horizon_ = std::min(horizon_, m.time);
    request_horizon_ = std::min(request_horizon_, m.time);
    assert(m.kind == Mail::Kind::request ? m.time == sent : m.time >= sent + blocks_.partition.lookahead);
    MailQueue& q = blocks_.queue(me_, to);
    unacked_[to].sent(q.sent(), m.time);
    q.send(m);
    unflushed_ = true;
  }

  // A change of a shared instance, made when every other block has gone past its instant (run_deferred).
  void defer(const Deferred& d) { deferred_.push(d); }

  // Does what this block can without waiting: takes in its mail, gives out the lanes of shared instances at
  // instants every other block has gone past, and replays its instants up to where another block could still
  // reach it. Then says how far it got. False when it could do nothing.
  bool step(Engine& e);

  // What this block has left, for the others: its next event, a lane it has yet to give out, or a message it sent
  // that its receiver has not taken in (which may yet make the receiver, or through it a third block, act then).
  // Then that the mail it took in is accounted for: after the time that includes what that mail queued.
  void publish(Engine& e);

 private:
  bool look_around(Engine& e);
  bool read_progress();
  bool run_rounds(Engine& e);
  bool run_deferred(Engine& e, TimeNs horizon);
  void take(Engine& e, const Mail& m);
  TimeNs unacked_time(std::uint32_t other, bool look);

  Blocks& blocks_;
  const std::uint32_t me_;
  const std::uint8_t* const of_vertex_;  // the partition's, read on every input an operation sends
  std::vector<UnackedTimes> unacked_;     // by receiving block
  std::vector<std::uint64_t> acked_seen_;  // by receiving block: its acknowledgement at the last look_around
  std::vector<std::uint64_t> versions_;    // by block: its version before read_progress read it
  TimeNs horizon_ = 0;  // step: no other block has anything left before it
  // ... nor any event, which alone can ask for a lane (a lane it gives out late asks for none): lanes of shared
  // instances are given out before it. Blocks that both owe lanes at one instant do not wait for each other.
  TimeNs request_horizon_ = 0;
  TimeNs published_next_ = -1, published_events_ = -1;  // what publish() last stored
  bool unflushed_ = false;        // mail was sent since publish() last flushed
  bool unacknowledged_ = false;   // mail was taken in since publish() last acknowledged
  ServeQueue<Deferred> deferred_;
  std::vector<std::uint32_t> touched_;  // run_deferred's instances at one (instant, round)
};

// Replays g on the partition's blocks, one engine each, on oneTBB workers (ReplayOptions::threads). Their outputs
// in block order, or the error of the lowest task whose processor kind the model lacks, as on one engine.
core::Expected<std::vector<BlockOutput>> run_split(const graph::EventGraph& g, const MachineMap& map,
                                                   const machine::MachineModel& model, const ReplayOptions& options,
                                                   SharedState& shared, Partition partition);

}  // namespace rr::replay
