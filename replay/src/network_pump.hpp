// One block's mail and progress carried between its process and the others' in a replay over ranks (docs/scale.md,
// "One replay over MPI ranks"). The block's protocol runs as on threads (BlockLink, block_protocol.hpp), on a
// Blocks whose other blocks stand in for the other ranks: the pump ships what the block flushed to them, one
// packet per rank with its progress, and lays what they send into the stand-ins' queues and progress.
//
// On threads a block reads every other block's progress at once; across processes what it knows of each comes
// by a different road, and may be older for one than for another. What keeps that safe: a message sent is
// counted in its sender's progress until its receiver acknowledges it, and the receiver acknowledges only once
// every third rank has confirmed that it holds the receiver's progress after taking the message in. So whoever
// learns that the sender no longer counts a message already knows what the receiver made of it.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "replay/block_network.hpp"
#include "replay/src/block_mail.hpp"
#include "replay/src/block_protocol.hpp"

namespace rr::replay {

// The first byte of every message of a replay over ranks: a block's start, its packets, the starts of copies whose
// first hop another block ran, its intervals for the owners of their operations, its part of the result for rank
// 0; the critical path's walk and its lower bound; numbers combined over the ranks (network_sums.hpp); the timeline
// streamed to rank 0; the graph's exchanges (part_exchange.hpp), of the part build and of a replay from parts.
enum class WireKind : std::uint8_t {
  start, packet, copy_starts, intervals, result, path, bound, sums, timeline, exchange
};
inline constexpr std::uint8_t kWireKinds = 10;

// Messages that come before the stage that wants them (a fast rank's first packets while this one still waits
// for the start), kept by kind in the order they came (BlockNetwork::kept).
class Inbox {
 public:
  explicit Inbox(BlockNetwork& net) : net_(net) {}
  // The next message of `kind`, waiting for one with `wait`; nothing when none has come.
  std::optional<BlockNetwork::Message> next(WireKind kind, bool wait);

 private:
  BlockNetwork& net_;
};

struct LocalGraph;

class NetworkPump {
 public:
  // `blocks` was made for this rank's block alone (Blocks' `only`); its progress published once. With `local`, the
  // block's engine numbers vertices locally (a replay from parts): mail goes out with whole ids and comes in local.
  NetworkPump(BlockNetwork& net, Inbox& inbox, Blocks& blocks, const LocalGraph* local = nullptr);

  // Lays every packet that has come into the stand-ins, after waiting for one with `wait`. True when any came.
  bool receive(bool wait);
  // Ships what the block flushed and published since the last call, and what is owed: acknowledgements that
  // every third rank has confirmed, and confirmations asked for.
  void send();
  // Nothing is left anywhere: every rank published that it has nothing left, and nothing is owed.
  bool finished() const;
  // Tells every other rank that this one is done, and takes in their last packets until each has said so too.
  void farewell();

 private:
  struct PendingAck {
    std::uint64_t count;  // messages taken in from the sender
    std::uint64_t seq;    // this rank's progress that counts them, which third ranks must confirm first
  };
  void apply(const BlockNetwork::Message& m);
  void release_acks();
  std::uint64_t confirmation_wanted(std::uint32_t rank) const;
  void ship(std::uint32_t to, bool bye, const std::vector<Mail>& mail, std::uint64_t wanted);

  BlockNetwork& net_;
  Inbox& inbox_;
  Blocks& blocks_;
  const LocalGraph* const local_;
  const std::uint32_t me_, ranks_;
  std::uint64_t seq_ = 0;  // this rank's progress, counted each time it moves
  TimeNs sent_next_ = -1, sent_events_ = -1;
  std::vector<std::uint64_t> seq_from_;       // by rank: the last progress of its that this rank applied
  std::vector<std::uint64_t> confirmed_;      // by rank: the last progress of this rank's that it applied
  std::vector<std::uint64_t> asked_;          // by rank: the progress this rank last asked it to confirm
  std::vector<char> owe_confirmation_;        // by rank: it asked
  std::vector<std::uint64_t> ack_seen_;       // by sender: what the block acknowledged, as last seen
  std::vector<std::uint64_t> ack_released_;   // by sender: what may be acknowledged to it
  std::vector<std::uint64_t> ack_sent_;       // by sender: what was
  std::vector<std::deque<PendingAck>> pending_;  // by sender
  std::vector<Mail> outgoing_;
  bool said_bye_ = false;
  std::uint32_t byes_ = 0;
};

}  // namespace rr::replay
