#include "replay/timeline_stream.hpp"

#include <deque>
#include <queue>
#include <stdexcept>
#include <unordered_set>
#include <utility>
#include <vector>

#include "replay/replay_engine.hpp"
#include "replay/byte_wire.hpp"
#include "replay/network_sums.hpp"
#include "replay/src/network_pump.hpp"
#include "replay/src/rank_part.hpp"
#include "replay/timeline_order.hpp"

namespace rr::replay {

namespace {

using graph::VertexId;

// A batch is sent once its events' text reaches this size (the last one sooner), and a rank sends at most this
// many batches ahead of those rank 0 has taken: rank 0 holds at most about 2 MB of each rank's stream (and a copy of
// the batch it takes in), against some 100 MB of timeline on the 32-node S3D trace. A batch is a few thousand
// events, so the round trips it costs are few.
constexpr std::size_t kBatchBytes = std::size_t{1} << 20;
constexpr std::uint32_t kBatchesAhead = 2;

// What a WireKind::timeline message is: rank 0 asks a rank for its stream (naming the vertices whose first
// intervals it wants), the rank answers with those it holds, then its batches; rank 0 asks for each batch more.
enum class TimelinePart : std::uint8_t { ask, found, batch, more };

ByteWriter message(TimelinePart part) {
  ByteWriter w;
  w.put(WireKind::timeline);
  w.put(part);
  return w;
}

// The next timeline message, of the part expected (anything else is a broken protocol).
std::pair<BlockNetwork::Message, TimelinePart> next_message(Inbox& inbox) {
  auto m = inbox.next(WireKind::timeline, true);
  if (m->bytes.size() < 2) throw std::logic_error("replay over ranks: a timeline message ends too soon");
  return {std::move(*m), static_cast<TimelinePart>(m->bytes[1])};
}

std::unordered_map<VertexId, Interval> first_intervals(std::span<const Interval> intervals,
                                                       std::span<const VertexId> wanted) {
  std::unordered_map<VertexId, Interval> first;
  if (wanted.empty()) return first;
  const std::unordered_set<VertexId> want(wanted.begin(), wanted.end());
  for (const Interval& in : intervals)
    if (want.count(in.vertex)) first.emplace(in.vertex, in);  // (the first in order stays)
  return first;
}

// Rendered events as they travel: their keys, their texts one after another, and, in a rank's last batch, the
// tracks its events used.
struct Batch {
  std::vector<TimelineKey> keys;
  std::vector<std::uint32_t> lengths;
  std::vector<char> texts;
  bool last = false;
  std::vector<std::uint32_t> used_tracks;
};

std::vector<std::byte> pack(const Batch& b) {
  ByteWriter w = message(TimelinePart::batch);
  w.put<std::uint8_t>(b.last);
  w.put_all<TimelineKey>(b.keys);
  w.put_all<std::uint32_t>(b.lengths);
  w.put_all<char>(b.texts);
  w.put_all<std::uint32_t>(b.used_tracks);
  return w.take();
}

Batch unpack(ByteReader& in) {
  Batch b;
  b.last = in.get<std::uint8_t>() != 0;
  b.keys = in.get_all<TimelineKey>();
  b.lengths = in.get_all<std::uint32_t>();
  b.texts = in.get_all<char>();
  b.used_tracks = in.get_all<std::uint32_t>();
  if (b.lengths.size() != b.keys.size() || !in.done())
    throw std::logic_error("replay over ranks: a timeline batch does not add up");
  return b;
}

// A rank other than 0: answers rank 0's ask, then streams its events.
void serve(const ReplayResult& r, BlockNetwork& net, Inbox& inbox, const RenderInterval& render) {
  auto [ask, part] = next_message(inbox);
  if (part != TimelinePart::ask) throw std::logic_error("replay over ranks: a timeline stream not asked for");
  ByteReader in(ask.bytes);
  in.get<WireKind>();
  in.get<TimelinePart>();
  const std::vector<VertexId> wanted = in.get_all<VertexId>();
  std::vector<Interval> found;
  for (const auto& [v, interval] : first_intervals(r.intervals, wanted)) found.push_back(interval);
  ByteWriter answer = message(TimelinePart::found);
  answer.put_all<Interval>(found);
  net.send(0, answer.take());
  // Rank 0 asks for one more batch each time it has taken one that is not the last: as many asks as batches sent
  // but one, all taken in before this stream ends, so that none is left over for the next.
  std::uint64_t sent = 0, asked = 0;
  auto take_ask = [&] {
    if (next_message(inbox).second != TimelinePart::more)
      throw std::logic_error("replay over ranks: a timeline stream asked for twice");
    ++asked;
  };
  auto ship = [&](const Batch& b) {
    while (sent >= asked + kBatchesAhead) take_ask();
    net.send(0, pack(b));
    ++sent;
  };
  Batch batch;
  std::set<std::uint32_t> used;
  for (const Interval& interval : r.intervals) {
    std::optional<std::string> text = render(interval);
    if (!text) continue;
    batch.keys.push_back(timeline_key(interval));
    batch.lengths.push_back(static_cast<std::uint32_t>(text->size()));
    batch.texts.insert(batch.texts.end(), text->begin(), text->end());
    used.insert(interval.track);
    if (batch.texts.size() >= kBatchBytes) {
      ship(batch);
      batch = {};
    }
  }
  batch.last = true;
  batch.used_tracks.assign(used.begin(), used.end());
  ship(batch);
  while (asked + 1 < sent) take_ask();
}

// Rank 0: another rank's stream, a batch at a time.
struct RemoteStream {
  std::deque<Batch> batches;
  std::size_t at = 0, offset = 0;  // the next event of the front batch, and where its text starts
};

// Rank 0: the ranks' streams and its own merged by key (ties, which the owners of the operations make impossible
// across ranks, to the lower rank).
class Merge {
 public:
  Merge(const ReplayResult& r, BlockNetwork& net, Inbox& inbox, const RenderInterval& render, ReplayedEvents& out)
      : r_(r), net_(net), inbox_(inbox), render_(render), out_(out), remote_(net.ranks()) {}

  void run(const EmitEvent& emit) {
    using Head = std::pair<TimelineKey, std::uint32_t>;  // (key, rank)
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    if (advance_own()) heads.push({own_key_, 0});
    for (std::uint32_t k = 1; k < net_.ranks(); ++k)
      if (auto key = head_of(k)) heads.push({*key, k});
    while (!heads.empty()) {
      const std::uint32_t k = heads.top().second;
      heads.pop();
      if (k == 0) {
        emit(own_text_);
        if (advance_own()) heads.push({own_key_, 0});
        continue;
      }
      RemoteStream& s = remote_[k];
      const Batch& b = s.batches.front();
      emit(std::string_view(b.texts.data() + s.offset, b.lengths[s.at]));
      s.offset += b.lengths[s.at++];
      if (auto key = head_of(k)) heads.push({*key, k});
    }
    for (std::uint32_t k = 1; k < net_.ranks(); ++k)
      out_.used_tracks.insert(remote_[k].batches.front().used_tracks.begin(), remote_[k].batches.front().used_tracks.end());
    while (found_from_ + 1 < net_.ranks()) take();
  }

 private:
  // Rank 0's own next event shown; false when there is none.
  bool advance_own() {
    while (own_at_ < r_.intervals.size()) {
      const Interval& in = r_.intervals[own_at_++];
      if (std::optional<std::string> text = render_(in)) {
        own_text_ = std::move(*text);
        own_key_ = timeline_key(in);
        out_.used_tracks.insert(in.track);
        return true;
      }
    }
    return false;
  }

  // The key of rank k's next event, once it has come; nothing when its stream has ended. A batch taken whole is
  // dropped, and the rank asked for one more.
  std::optional<TimelineKey> head_of(std::uint32_t k) {
    RemoteStream& s = remote_[k];
    for (;;) {
      while (s.batches.empty()) take();
      const Batch& b = s.batches.front();
      if (s.at < b.keys.size()) return b.keys[s.at];
      if (b.last) return std::nullopt;
      s.batches.pop_front();
      s.at = s.offset = 0;
      net_.send(k, message(TimelinePart::more).take());
    }
  }

  // One message from any rank: its first intervals, or a batch of its stream.
  void take() {
    auto [m, part] = next_message(inbox_);
    ByteReader in(m.bytes);
    in.get<WireKind>();
    in.get<TimelinePart>();
    if (part == TimelinePart::found) {
      for (const Interval& interval : in.get_all<Interval>()) out_.first_interval.emplace(interval.vertex, interval);
      ++found_from_;
    } else if (part == TimelinePart::batch) {
      remote_[m.from].batches.push_back(unpack(in));
    } else {
      throw std::logic_error("replay over ranks: rank 0 was sent a timeline message meant for another rank");
    }
  }

  const ReplayResult& r_;
  BlockNetwork& net_;
  Inbox& inbox_;
  const RenderInterval& render_;
  ReplayedEvents& out_;
  std::vector<RemoteStream> remote_;
  std::size_t own_at_ = 0;
  std::string own_text_;
  TimelineKey own_key_;
  std::uint32_t found_from_ = 0;
};

}  // namespace

ReplayedEvents render_intervals(const ReplayResult& r, std::span<const VertexId> wanted, const RenderInterval& render,
                                const EmitEvent& emit) {
  ReplayedEvents out;
  out.first_interval = first_intervals(r.intervals, wanted);
  for (const Interval& in : r.intervals) {
    const std::optional<std::string> text = render(in);
    if (!text) continue;
    emit(*text);
    out.used_tracks.insert(in.track);
  }
  return out;
}

bool writes_timeline(const ReplayResult& r) { return !split_over_ranks(r) || r.over_ranks->net->rank() == 0; }

ReplayedEvents stream_timeline(const ReplayResult& r, std::span<const VertexId> wanted, const RenderInterval& render,
                               const EmitEvent& emit) {
  BlockNetwork& net = *r.over_ranks->net;
  Inbox inbox(net);
  ReplayedEvents out;
  if (net.rank() != 0) {
    serve(r, net, inbox, render);
    return out;
  }
  for (std::uint32_t k = 1; k < net.ranks(); ++k) {
    ByteWriter ask = message(TimelinePart::ask);
    ask.put_all<VertexId>(wanted);
    net.send(k, ask.take());
  }
  out.first_interval = first_intervals(r.intervals, wanted);
  Merge(r, net, inbox, render, out).run(emit);
  return out;
}

std::vector<std::vector<std::byte>> gather_from_parts(const ReplayResult& r, std::vector<std::byte> mine) {
  if (!r.over_ranks || !r.over_ranks->from_parts)
    throw std::logic_error("gather_from_parts: the result is not a replay from parts");
  return gather_on_first_rank(*r.over_ranks->net, std::move(mine));
}

}  // namespace rr::replay
