#include "replay/src/network_pump.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "replay/byte_wire.hpp"
#include "replay/src/part_mail.hpp"

namespace rr::replay {

namespace {

// What a packet says besides its mail.
struct PacketHead {
  std::uint64_t seq;       // the sender's progress, counted
  TimeNs next, events;     // ... and what it is (BlockProgress)
  std::uint64_t acked;     // the receiver's messages the sender has taken in
  std::uint64_t confirms;  // the receiver's progress the sender has applied
  std::uint8_t wants_confirmation;
  std::uint8_t bye;        // the sender is done: nothing follows from it in this replay
};

WireKind kind_of(const BlockNetwork::Message& m) {
  if (m.bytes.empty() || std::to_integer<std::uint8_t>(m.bytes[0]) >= kWireKinds)
    throw std::logic_error("replay over ranks: a message of no known kind from rank " + std::to_string(m.from));
  return static_cast<WireKind>(m.bytes[0]);
}

}  // namespace

std::optional<BlockNetwork::Message> Inbox::next(WireKind kind, bool wait) {
  static_assert(kWireKinds <= std::tuple_size_v<decltype(BlockNetwork::kept)>);
  auto& kept = net_.kept[static_cast<std::size_t>(kind)];
  if (!kept.empty()) {
    BlockNetwork::Message m = std::move(kept.front());
    kept.pop_front();
    return m;
  }
  while (auto m = net_.receive(wait)) {
    const WireKind k = kind_of(*m);
    if (k == kind) return m;
    net_.kept[static_cast<std::size_t>(k)].push_back(std::move(*m));
  }
  return std::nullopt;
}

NetworkPump::NetworkPump(BlockNetwork& net, Inbox& inbox, Blocks& blocks, const LocalGraph* local)
    : net_(net), inbox_(inbox), blocks_(blocks), local_(local), me_(net.rank()), ranks_(net.ranks()), seq_from_(ranks_, 0),
      confirmed_(ranks_, 0), asked_(ranks_, 0), owe_confirmation_(ranks_, 0), ack_seen_(ranks_, 0),
      ack_released_(ranks_, 0), ack_sent_(ranks_, 0), pending_(ranks_) {}

bool NetworkPump::receive(bool wait) {
  bool any = false;
  while (auto m = inbox_.next(WireKind::packet, wait && !any)) {
    apply(*m);
    any = true;
  }
  return any;
}

void NetworkPump::apply(const BlockNetwork::Message& m) {
  ByteReader in(m.bytes);
  in.get<WireKind>();
  const auto head = in.get<PacketHead>();
  const auto mail = in.get_all<Mail>();
  const std::uint32_t from = m.from;
  if (said_bye_ && (!mail.empty() || head.wants_confirmation))
    throw std::logic_error("replay over ranks: rank " + std::to_string(from) + " still needs rank " +
                           std::to_string(me_) + ", which had finished");
  if (!mail.empty()) {
    MailQueue& q = blocks_.queue(from, me_);
    for (Mail x : mail) {
      if (local_) mail_to_local(x, *local_);
      q.send(x);
    }
    q.flush();
  }
  if (head.seq > seq_from_[from]) {
    seq_from_[from] = head.seq;
    blocks_.progress[from].events.store(head.events, std::memory_order_release);
    blocks_.progress[from].next.store(head.next, std::memory_order_release);
  }
  MailQueue& mine = blocks_.queue(me_, from);
  if (head.acked > mine.acknowledged()) mine.acknowledge_count(head.acked);
  confirmed_[from] = std::max(confirmed_[from], head.confirms);
  if (head.wants_confirmation) owe_confirmation_[from] = 1;
  if (head.bye) ++byes_;
}

// An acknowledgement to a sender goes once every rank but the two has confirmed the progress that counts what the
// acknowledged messages made this rank do.
void NetworkPump::release_acks() {
  for (std::uint32_t s = 0; s < ranks_; ++s)
    while (!pending_[s].empty()) {
      const PendingAck& a = pending_[s].front();
      bool confirmed = true;
      for (std::uint32_t y = 0; y < ranks_ && confirmed; ++y)
        if (y != me_ && y != s && confirmed_[y] < a.seq) confirmed = false;
      if (!confirmed) break;
      ack_released_[s] = a.count;
      pending_[s].pop_front();
    }
}

// The latest progress of this rank's that `rank` must confirm before an acknowledgement to another can go.
std::uint64_t NetworkPump::confirmation_wanted(std::uint32_t rank) const {
  std::uint64_t wanted = 0;
  for (std::uint32_t s = 0; s < ranks_; ++s)
    if (s != me_ && s != rank && !pending_[s].empty()) wanted = std::max(wanted, pending_[s].back().seq);
  return wanted;
}

void NetworkPump::send() {
  const TimeNs next = blocks_.progress[me_].next.load(std::memory_order_acquire);
  const TimeNs events = blocks_.progress[me_].events.load(std::memory_order_acquire);
  bool took_more = false;
  for (std::uint32_t s = 0; s < ranks_ && !took_more; ++s)
    took_more = s != me_ && blocks_.queue(s, me_).acknowledged() > ack_seen_[s];
  // Mail taken in gets a progress of its own, shipped to every rank, even when the numbers did not move. They may
  // stay put while the block has already acted on the mail below them (a round before its published time, whose
  // mail to a third rank counts at its own, later time): a third rank's confirmation of the old progress would not
  // say that it holds that mail, and once the sender heard the acknowledgement, nothing it knows would count it.
  const bool moved = took_more || next != sent_next_ || events != sent_events_;
  if (moved) {
    ++seq_;
    sent_next_ = next;
    sent_events_ = events;
  }
  // The block acknowledges after it publishes (BlockLink::publish): the progress just read counts what it took in,
  // and the packets below carry it with all the mail the block sent, which a confirmation of it therefore covers.
  for (std::uint32_t s = 0; s < ranks_; ++s)
    if (s != me_)
      if (const std::uint64_t a = blocks_.queue(s, me_).acknowledged(); a > ack_seen_[s]) {
        pending_[s].push_back({a, seq_});
        ack_seen_[s] = a;
      }
  release_acks();
  for (std::uint32_t x = 0; x < ranks_; ++x) {
    if (x == me_) continue;
    outgoing_.clear();
    blocks_.queue(me_, x).drain([&](const Mail& m) {
      outgoing_.push_back(m);
      if (local_) mail_to_whole(outgoing_.back(), *local_);
    });
    std::uint64_t wanted = confirmation_wanted(x);
    if (wanted <= confirmed_[x] || wanted <= asked_[x]) wanted = 0;  // confirmed, or asked already
    if (!moved && outgoing_.empty() && ack_released_[x] == ack_sent_[x] && !owe_confirmation_[x] && !wanted) continue;
    ship(x, false, outgoing_, wanted);
  }
}

void NetworkPump::ship(std::uint32_t to, bool bye, const std::vector<Mail>& mail, std::uint64_t wanted) {
  ByteWriter out;
  out.put(WireKind::packet);
  out.put(PacketHead{seq_, sent_next_, sent_events_, ack_released_[to], seq_from_[to],
                     static_cast<std::uint8_t>(wanted > 0), static_cast<std::uint8_t>(bye)});
  out.put_all<Mail>(mail);
  net_.send(to, out.take());
  ack_sent_[to] = ack_released_[to];
  owe_confirmation_[to] = 0;
  if (wanted) asked_[to] = wanted;
}

bool NetworkPump::finished() const {
  if (blocks_.progress[me_].next.load(std::memory_order_acquire) != kNoTime) return false;
  for (std::uint32_t x = 0; x < ranks_; ++x) {
    if (x == me_) continue;
    if (blocks_.progress[x].next.load(std::memory_order_acquire) != kNoTime) return false;
    if (!pending_[x].empty() || owe_confirmation_[x] || ack_released_[x] != ack_sent_[x]) return false;
  }
  return true;
}

void NetworkPump::farewell() {
  said_bye_ = true;
  for (std::uint32_t x = 0; x < ranks_; ++x)
    if (x != me_) ship(x, true, {}, 0);
  while (byes_ + 1 < ranks_) receive(true);
}

}  // namespace rr::replay
