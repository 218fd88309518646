#include "replay/src/network_lower_bound.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/saturating.hpp"
#include "replay/replayed_edges.hpp"
#include "replay/byte_wire.hpp"

namespace rr::replay {

namespace {

using graph::VertexId;

// What an edge to another rank's operation (named by whole id) carries: its source's finish on the longest path,
// and the edge's delay as the replay gave it (when the source ended; the target's owner counts it only if the
// target ran too).
struct FarEdge {
  VertexId to;
  std::int64_t finish;
  std::int64_t delay;
};

// What a message of the bound (WireKind::bound) is: a rank's count of the edges into another's operations, sent
// once; a round.
enum class BoundMessage : std::uint8_t { counts, round };

struct InCount {
  VertexId to;
  std::uint32_t edges;
};

// One round's message: its number, whether its sender sent any edge this round, its longest finish so far.
struct RoundHead {
  std::uint64_t round;
  std::uint8_t sent;
  std::int64_t best;
};

class BoundOverRanks {
 public:
  BoundOverRanks(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                 const ReplayResult& r, const RankPart& part, Inbox& inbox)
      : g_(g), r_(r), part_(part), net_(*part.net), inbox_(inbox), edges_(g, map, model, r),
        start_(g.vertex_count(), 0), pending_(g.vertex_count(), 0) {}

  TimeNs run() {
    count_inputs();
    for (std::uint64_t round = 0;; ++round) {
      std::vector<std::vector<FarEdge>> out(net_.ranks());
      settle_ready(out);
      bool anyone_sent = false;
      for (const auto& edges : out) anyone_sent |= !edges.empty();
      for (std::uint32_t x = 0; x < net_.ranks(); ++x) {
        if (x == net_.rank()) continue;
        ByteWriter w;
        w.put(WireKind::bound);
        w.put(BoundMessage::round);
        w.put(RoundHead{round, static_cast<std::uint8_t>(anyone_sent), best_});
        w.put_all<FarEdge>(out[x]);
        net_.send(x, w.take());
      }
      // Every rank hears every other's round, so all stop at the same one: the first in which nobody sent anything,
      // when nothing is left anywhere (each rank settled all it could before sending).
      if (!hear_round(round) && !anyone_sent) return best_;
    }
  }

 private:
  bool mine(VertexId v) const { return part_.mine(v); }
  // An operation another rank names (by whole id), which is this rank's.
  VertexId local(VertexId whole) const {
    const VertexId v = part_.local_of(whole);
    if (v == graph::kNoVertex || !mine(v))
      throw std::logic_error("lower bound over ranks: told of operation " + std::to_string(whole) +
                             ", which is not this rank's");
    return v;
  }

  // Each of this rank's operations waits for all its inputs: those from its own operations counted here, the
  // others told by their owners.
  void count_inputs() {
    std::vector<std::map<VertexId, std::uint32_t>> far(net_.ranks());
    for (VertexId v = 0; v < g_.vertex_count(); ++v)
      if (mine(v))
        for (VertexId w : g_.successors(v)) {
          if (mine(w)) ++pending_[w];
          else ++far[part_.owner(w)][part_.whole(w)];  // (the map orders by whole id)
        }
    for (std::uint32_t x = 0; x < net_.ranks(); ++x) {
      if (x == net_.rank()) continue;
      std::vector<InCount> counts;
      for (const auto& [w, n] : far[x]) counts.push_back({w, n});
      ByteWriter w;
      w.put(WireKind::bound);
      w.put(BoundMessage::counts);
      w.put_all<InCount>(counts);
      net_.send(x, w.take());
    }
    for (std::uint32_t heard = 1; heard < net_.ranks();) {
      auto m = inbox_.next(WireKind::bound, true);
      ByteReader in(m->bytes);
      in.get<WireKind>();
      // A rank that has heard every count may send its first round before a third rank's count comes.
      if (in.get<BoundMessage>() == BoundMessage::round) {
        early_.push_back(std::move(*m));
        continue;
      }
      for (const InCount& c : in.get_all<InCount>()) pending_[local(c.to)] += c.edges;
      ++heard;
    }
    for (VertexId v = 0; v < g_.vertex_count(); ++v)
      if (mine(v) && pending_[v] == 0) ready_.push_back(v);
  }

  // As the one-process bound (critical_path.cpp): a phase, an operation outside the estimate or one that never
  // ended weighs nothing, and so do the edges into them.
  std::int64_t weight(VertexId u) const {
    if (!r_.ops.ended(u) || g_.kind(u) == graph::OpKind::barrier_phase || !r_.counts(u)) return 0;
    return r_.ops.run(u);
  }

  void reach(VertexId w, std::int64_t t) {
    start_[w] = std::max(start_[w], t);
    if (--pending_[w] == 0) ready_.push_back(w);
  }

  void settle_ready(std::vector<std::vector<FarEdge>>& out) {
    while (!ready_.empty()) {
      const VertexId v = ready_.back();
      ready_.pop_back();
      const std::int64_t finish = core::saturating_add(start_[v], weight(v));
      best_ = std::max(best_, finish);
      const auto succ = g_.successors(v);
      const auto kinds = g_.successor_kinds(v);
      for (std::size_t i = 0; i < succ.size(); ++i) {
        const VertexId w = succ[i];
        const bool ended = r_.ops.ended(v);
        if (!mine(w)) {
          out[part_.owner(w)].push_back({part_.whole(w), finish, ended ? edges_.delay(v, w, kinds[i]) : 0});
          continue;
        }
        const bool counted = ended && r_.ops.ended(w) && r_.counts(w);
        reach(w, core::saturating_add(finish, counted ? edges_.delay(v, w, kinds[i]) : 0));
      }
    }
  }

  // Takes in the messages of the rounds up to `round` from every other rank (a later round's that come first are
  // taken in too: the longest path's maximum does not mind the order); whether anyone sent an edge in `round`.
  bool hear_round(std::uint64_t round) {
    while (heard_[round] < net_.ranks() - 1) {
      BlockNetwork::Message m;
      if (early_.empty()) {
        m = std::move(*inbox_.next(WireKind::bound, true));
      } else {
        m = std::move(early_.front());
        early_.pop_front();
      }
      ByteReader in(m.bytes);
      in.get<WireKind>();
      if (in.get<BoundMessage>() != BoundMessage::round)
        throw std::logic_error("lower bound over ranks: a count came after the rounds began");
      const auto head = in.get<RoundHead>();
      if (head.round < round) throw std::logic_error("lower bound over ranks: a round's message came twice");
      ++heard_[head.round];
      if (head.sent) sent_in_.insert(head.round);
      best_ = std::max(best_, head.best);
      for (const FarEdge& e : in.get_all<FarEdge>()) {
        const VertexId to = local(e.to);
        const bool counted = r_.ops.ended(to) && r_.counts(to);
        reach(to, core::saturating_add(e.finish, counted ? e.delay : 0));
      }
    }
    heard_.erase(round);
    return sent_in_.erase(round) > 0;
  }

  const graph::EventGraph& g_;
  const ReplayResult& r_;
  const RankPart& part_;
  BlockNetwork& net_;
  Inbox& inbox_;
  ReplayedEdges edges_;
  std::vector<std::int64_t> start_;     // this rank's operations: the heaviest path in, before their own weight
  std::vector<std::uint32_t> pending_;  // ... and their inputs not yet taken
  std::vector<VertexId> ready_;
  std::int64_t best_ = 0;
  std::map<std::uint64_t, std::uint32_t> heard_;  // by round: other ranks heard
  std::set<std::uint64_t> sent_in_;               // rounds in which another rank sent an edge
  std::deque<BlockNetwork::Message> early_;       // rounds that came while counts were awaited
};

}  // namespace

TimeNs lower_bound_over_ranks(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                              const ReplayResult& r, const RankPart& part, Inbox& inbox) {
  return BoundOverRanks(g, map, model, r, part, inbox).run();
}

}  // namespace rr::replay
