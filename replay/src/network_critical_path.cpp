#include "replay/src/network_critical_path.hpp"

#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "replay/byte_wire.hpp"
#include "replay/src/network_lower_bound.hpp"
#include "replay/src/network_pump.hpp"
#include "replay/src/part_records.hpp"
#include "replay/src/path_walk.hpp"
#include "replay/src/rank_part.hpp"

namespace rr::replay {

namespace {

using graph::VertexId;

// What a message of the walk (WireKind::path) is: a rank's last operation, the walk handed over, a piece of the
// path for rank 0, the walk's sums from rank 0 once it is over.
enum class PathMessage : std::uint8_t { last_operation, handover, piece, over };

ByteWriter path_message(PathMessage what) {
  ByteWriter w;
  w.put(WireKind::path);
  w.put(what);
  return w;
}

void put_contention(ByteWriter& w, const std::map<PathResource, TimeNs>& contention) {
  w.put<std::uint64_t>(contention.size());
  for (const auto& [res, ns] : contention) {
    w.put(res.type);
    w.put(res.kind);
    w.put_text(res.path);
    w.put(res.src);
    w.put(res.dst);
    w.put<std::uint8_t>(res.remote);
    w.put(res.node);
    w.put(ns);
  }
}

// Adds what a message's contention says to `into`.
void get_contention(ByteReader& in, std::map<PathResource, TimeNs>& into) {
  for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
    PathResource res;
    res.type = in.get<PathResource::Type>();
    res.kind = in.get<core::ProcessorKind>();
    res.path = in.get_text();
    res.src = in.get<core::MemoryKind>();
    res.dst = in.get<core::MemoryKind>();
    res.remote = in.get<std::uint8_t>() != 0;
    res.node = in.get<std::uint32_t>();
    into[res] += in.get<TimeNs>();
  }
}

using FunctionTimes = std::map<std::pair<std::uint32_t, core::ProcessorKind>, TimeNs>;

struct FunctionTime {
  std::uint32_t function;
  core::ProcessorKind kind;
  TimeNs ns;
};

void put_functions(ByteWriter& w, const FunctionTimes& functions) {
  std::vector<FunctionTime> all;
  for (const auto& [key, ns] : functions) all.push_back({key.first, key.second, ns});
  w.put_all<FunctionTime>(all);
}

void get_functions(ByteReader& in, FunctionTimes& into) {
  for (const FunctionTime& f : in.get_all<FunctionTime>()) into[{f.function, f.kind}] += f.ns;
}

// A piece of the path: the steps one rank walked between two hand-overs, in walk order, and their contention.
struct Piece {
  std::vector<PathStep> steps;
  std::map<PathResource, TimeNs> contention;
  FunctionTimes functions;
  bool last = false;
};

std::vector<std::byte> piece_message(std::uint64_t seq, const Piece& piece) {
  ByteWriter w = path_message(PathMessage::piece);
  w.put(seq);
  w.put<std::uint8_t>(piece.last);
  w.put<std::uint64_t>(piece.steps.size());
  for (const PathStep& s : piece.steps) {
    w.put(s.vertex);
    w.put(s.cls);
    w.put_text(s.label);
    w.put(s.begin);
    w.put(s.end);
    w.put(s.event);
  }
  put_contention(w, piece.contention);
  put_functions(w, piece.functions);
  return w.take();
}

Piece read_piece(ByteReader& in) {
  Piece piece;
  piece.last = in.get<std::uint8_t>() != 0;
  for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
    PathStep s;
    s.vertex = in.get<VertexId>();
    s.cls = in.get<PathClass>();
    s.label = in.get_text();
    s.begin = in.get<TimeNs>();
    s.end = in.get<TimeNs>();
    s.event = in.get<core::EventKey>();
    piece.steps.push_back(std::move(s));
  }
  get_contention(in, piece.contention);
  get_functions(in, piece.functions);
  return piece;
}

// The sums every rank gets once the walk is over (no steps).
std::vector<std::byte> over_message(const CriticalPath& cp) {
  ByteWriter w = path_message(PathMessage::over);
  w.put(cp.length_ns);
  w.put(cp.lower_bound_ns);
  w.put(cp.by_class);
  w.put<std::uint64_t>(cp.by_label.size());
  for (const auto& [label, ns] : cp.by_label) {
    w.put_text(label);
    w.put(ns);
  }
  put_contention(w, cp.contention);
  put_functions(w, cp.compute_by_function);
  return w.take();
}

void read_over(ByteReader& in, CriticalPath& cp) {
  cp.length_ns = in.get<TimeNs>();
  cp.lower_bound_ns = in.get<TimeNs>();
  cp.by_class = in.get<decltype(cp.by_class)>();
  for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
    std::string label = in.get_text();
    cp.by_label[std::move(label)] = in.get<TimeNs>();
  }
  get_contention(in, cp.contention);
  get_functions(in, cp.compute_by_function);
}

// The run's last operation among those the estimate counts (ties to the lowest whole id), agreed by every rank from
// each one's own: its whole id, kNoVertex when none ended.
VertexId last_operation(const graph::EventGraph& g, const ReplayResult& r, const RankPart& part, Inbox& inbox) {
  BlockNetwork& net = *part.net;
  VertexId best = graph::kNoVertex;
  TimeNs best_end = 0;
  // (The owners of the graph's vertices; the records are this rank's. Vertices run in ascending whole id.)
  for (VertexId u = 0; u < g.vertex_count(); ++u)
    if (part.mine(u) && r.end(u) != kNever && r.counts(u) && (best == graph::kNoVertex || r.end(u) > best_end)) {
      best = u;
      best_end = r.end(u);
    }
  best = part.whole(best);
  ByteWriter w = path_message(PathMessage::last_operation);
  w.put(best);
  w.put(best_end);
  const std::vector<std::byte> mine = w.take();
  for (std::uint32_t x = 0; x < net.ranks(); ++x)
    if (x != net.rank()) net.send(x, mine);
  for (std::uint32_t heard = 1; heard < net.ranks(); ++heard) {
    const auto m = inbox.next(WireKind::path, true);
    ByteReader in(m->bytes);
    in.get<WireKind>();
    if (in.get<PathMessage>() != PathMessage::last_operation)
      throw std::logic_error("critical path over ranks: a message of the walk came before every rank's last operation");
    const auto u = in.get<VertexId>();
    const auto end = in.get<TimeNs>();
    if (u != graph::kNoVertex && (best == graph::kNoVertex || end > best_end || (end == best_end && u < best))) {
      best = u;
      best_end = end;
    }
  }
  return best;
}

// A hand-over as it crosses ranks: its vertices by whole id.
PathHandover by_whole_id(const RankPart& part, PathHandover h) {
  h.from = part.whole(h.from);
  h.next = part.whole(h.next);
  h.issuer = part.whole(h.issuer);
  return h;
}

// A hand-over received, its vertices in this rank's graph. `from` and `next` are in it (an edge joins them, and
// `next` is this rank's); an issuer this rank's view lacks is no task of `next`'s, which is all the walk asks of it.
PathHandover by_local_vertex(const RankPart& part, PathHandover h) {
  h.from = part.local_of(h.from);
  h.next = part.local_of(h.next);
  h.issuer = part.local_of(h.issuer);
  return h;
}

// One rank's part of the walk: the pieces it walks, sent on (rank 0 keeps its own), until the walk is over.
class RankWalk {
 public:
  RankWalk(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
           const ReplayResult& r, const RankPart& part, Inbox& inbox)
      : part_(part), net_(*part.net), inbox_(inbox),
        walk_(g, map, model, r, [&part](VertexId v) { return part.mine(v); }, part.whole_vertices) {}

  // Walks from the run's last operation (`last`, by whole id, this rank's or not) until the walk is over; rank 0
  // gets the steps, every rank the sums.
  CriticalPath run(VertexId last, const ReplayResult& r, TimeNs lower_bound) {
    CriticalPath cp;
    const VertexId at = part_.local_of(last);
    if (at != graph::kNoVertex && part_.mine(at)) finish_piece(0, walk_.from_last(at));
    if (net_.rank() == 0) {
      while (last != graph::kNoVertex && !complete()) take(*inbox_.next(WireKind::path, true));
      std::vector<PathStep> reversed;
      for (auto& [seq, piece] : pieces_) {
        for (PathStep& s : piece.steps) reversed.push_back(std::move(s));
        for (const auto& [res, ns] : piece.contention) cp.contention[res] += ns;
        for (const auto& [key, ns] : piece.functions) cp.compute_by_function[key] += ns;
      }
      lay_steps(std::move(reversed), cp);
      cp.length_ns = r.makespan_ns;
      cp.lower_bound_ns = lower_bound;
      const std::vector<std::byte> over = over_message(cp);
      for (std::uint32_t x = 1; x < net_.ranks(); ++x) net_.send(x, over);
      return cp;
    }
    for (bool over = false; !over;) {
      const auto m = inbox_.next(WireKind::path, true);
      ByteReader in(m->bytes);
      in.get<WireKind>();
      const auto what = in.get<PathMessage>();
      if (what == PathMessage::over) {
        read_over(in, cp);
        over = true;
      } else if (what == PathMessage::handover) {
        const auto seq = in.get<std::uint64_t>();
        finish_piece(seq, walk_.from(by_local_vertex(part_, in.get<PathHandover>())));
      } else {
        throw std::logic_error("critical path over ranks: rank " + std::to_string(net_.rank()) +
                               " was sent a message of the walk that only rank 0 takes");
      }
    }
    return cp;
  }

 private:
  // What was walked since the last hand-over goes to rank 0 as piece `seq`; the walk to the next operation's owner.
  void finish_piece(std::uint64_t seq, const std::optional<PathHandover>& h) {
    Piece piece{std::exchange(walk_.walked_steps(), {}), std::exchange(walk_.contention(), {}),
                std::exchange(walk_.compute_by_function(), {}), !h};
    if (net_.rank() == 0) {
      keep(seq, std::move(piece));
    } else {
      net_.send(0, piece_message(seq, piece));
    }
    if (!h) return;
    ByteWriter w = path_message(PathMessage::handover);
    w.put(seq + 1);
    w.put(by_whole_id(part_, *h));
    net_.send(part_.owner(h->next), w.take());
  }

  // Rank 0: a message of the walk: a hand-over to walk on from, or another rank's piece.
  void take(const BlockNetwork::Message& m) {
    ByteReader in(m.bytes);
    in.get<WireKind>();
    const auto what = in.get<PathMessage>();
    const auto seq = in.get<std::uint64_t>();
    if (what == PathMessage::handover) {
      finish_piece(seq, walk_.from(by_local_vertex(part_, in.get<PathHandover>())));
    } else if (what == PathMessage::piece) {
      keep(seq, read_piece(in));
    } else {
      throw std::logic_error("critical path over ranks: rank 0 was sent a message it does not take");
    }
  }

  void keep(std::uint64_t seq, Piece piece) {
    if (piece.last) last_seq_ = seq;
    if (!pieces_.emplace(seq, std::move(piece)).second)
      throw std::logic_error("critical path over ranks: piece " + std::to_string(seq) + " of the walk came twice");
  }
  bool complete() const { return last_seq_ && pieces_.size() == *last_seq_ + 1; }

  const RankPart& part_;
  BlockNetwork& net_;
  Inbox& inbox_;
  PathWalk walk_;
  std::map<std::uint64_t, Piece> pieces_;  // rank 0: by their place along the walk
  std::optional<std::uint64_t> last_seq_;
};

CriticalPath walk_over_ranks(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                             const ReplayResult& r, const RankPart& part) {
  Inbox inbox(*part.net);
  const VertexId last = last_operation(g, r, part, inbox);
  const TimeNs lower_bound = lower_bound_over_ranks(g, map, model, r, part, inbox);
  return RankWalk(g, map, model, r, part, inbox).run(last, r, lower_bound);
}

}  // namespace

CriticalPath critical_path_over_ranks(const graph::EventGraph& g, const MachineMap& map,
                                      const machine::MachineModel& model, const ReplayResult& r) {
  const RankPart& part = *r.over_ranks;
  if (part.holds_nothing) return {};  // rank 0 replayed alone, and walks alone
  if (part.from_parts) {
    // The walks read records by vertex of the graph they walk: this rank's view.
    const ReplayResult records = records_by_local_vertex(part, r);
    return walk_over_ranks(part.local->g, map, model, records, part);
  }
  return walk_over_ranks(g, map, model, r, part);
}

}  // namespace rr::replay
