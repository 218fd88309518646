// Step 7 of the Legion Prof part build: the observed fire time of every pass-through vertex and phase (the whole
// build's external_delays: a merger fires with its last recorded input, a completion queue with its first, a
// trigger or an arrival when performed and its precondition fired, a phase with its last arrival), worked out in
// rounds over the ranks: each rank fires what it can, then sends the owners of what follows the times they read,
// until a round in which no rank sent anything. Then each operation's measured delay, as the whole build keeps it.
#include <algorithm>
#include <stdexcept>

#include "graph/prof_graph_builder.hpp"
#include "graph/src/part/part_wire.hpp"
#include "graph/src/prof_part/prof_part_builder.hpp"

namespace rr::graph::prof_part {

namespace {

using part_detail::WireReader;
using part_detail::WireWriter;

bool passes_through_or_phase(OpKind k) {
  return k == OpKind::merge || k == OpKind::first_of || k == OpKind::trigger || k == OpKind::barrier_phase ||
         k == OpKind::barrier_arrive;
}

TimeNs rebased(TimeNs t, TimeNs origin) {
  return t == kNoTime || origin == kNoTime ? t : std::max<TimeNs>(0, t - origin);
}

}  // namespace

// over 120 lines because the rounds keep their state (what is known, what waits, what is still to send) in one
// place: the worklist that fires vertices locally is fed both by this rank's own vertices and by the times that come.
void ProfPartBuilder::fire_times() {
  // The observed times, counted from the run's first operation (the whole build's rebase).
  for (VertexNote& v : vertices_)
    for (TimeNs* t : {&v.start, &v.end, &v.ready, &v.issued}) *t = rebased(*t, origin_);
  for (TimeNs& t : wait_ends_) t = rebased(t, origin_);
  for (auto& [node, windows] : silences_)
    for (SilentWindow& s : windows) s = {rebased(s.from, origin_), rebased(s.to, origin_), s.processor};

  const std::size_t n = vertices_.size();
  auto local = [&](VertexId v) {
    auto it = std::lower_bound(vertices_.begin(), vertices_.end(), v, [](const VertexNote& x, VertexId id) { return x.id < id; });
    return it != vertices_.end() && it->id == v ? static_cast<std::size_t>(it - vertices_.begin()) : n;
  };
  // Each vertex's in-edges (a run of in_edges_), and for each source the passing vertices here that read it.
  std::vector<std::size_t> first_in(n + 1, 0);
  for (const EdgeNote& e : in_edges_) ++first_in[local(e.to) + 1];
  for (std::size_t i = 0; i < n; ++i) first_in[i + 1] += first_in[i];
  std::vector<std::pair<VertexId, std::uint32_t>> readers;  // (source, passing vertex here)
  std::vector<std::uint32_t> pending(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    if (passes_through_or_phase(vertices_[i].kind))
      for (std::size_t k = first_in[i]; k < first_in[i + 1]; ++k) {
        readers.emplace_back(in_edges_[k].from, static_cast<std::uint32_t>(i));
        ++pending[i];
      }
  std::sort(readers.begin(), readers.end());
  fired_.assign(n, FireNote{});
  std::vector<char> known(n, 0);
  auto time_of = [&](VertexId v) -> const FireNote& {
    const std::size_t i = local(v);
    return i < n ? fired_[i] : fired_elsewhere_.at(v);
  };
  // own_fire_time of the whole build, from inputs that have all fired.
  auto fire = [&](std::size_t x) {
    const VertexNote& v = vertices_[x];
    FireNote f{v.id, 1, v.external_input, {}, kNoTime};
    if (v.kind != OpKind::first_of) f.time = v.end;  // a trigger's or an arrival's `performed`; none for the others
    for (std::size_t k = first_in[x]; k < first_in[x + 1]; ++k) {
      const FireNote& in = time_of(in_edges_[k].from);
      if (in.passes) f.reaches |= in.reaches;
      if (in.time == kNoTime) continue;
      const bool earlier = v.kind == OpKind::first_of ? in.time < f.time : in.time > f.time;
      if (f.time == kNoTime || earlier) f.time = in.time;
    }
    fired_[x] = f;
  };
  std::vector<std::uint32_t> work;  // vertices here whose time is known and whose readers are not yet told
  auto heard = [&](VertexId source) {
    auto it = std::lower_bound(readers.begin(), readers.end(), std::pair<VertexId, std::uint32_t>{source, 0});
    for (; it != readers.end() && it->first == source; ++it)
      if (--pending[it->second] == 0) {
        fire(it->second);
        known[it->second] = 1;
        work.push_back(it->second);
      }
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (passes_through_or_phase(vertices_[i].kind)) {
      if (pending[i] > 0) continue;
      fire(i);
    } else {
      fired_[i] = {vertices_[i].id, 0, 0, {}, vertices_[i].end};
    }
    known[i] = 1;
    work.push_back(static_cast<std::uint32_t>(i));
  }
  for (;;) {
    ByRank<FireNote> to(ranks());
    while (!work.empty()) {
      const std::uint32_t i = work.back();
      work.pop_back();
      const VertexId v = vertices_[i].id;
      auto it = std::lower_bound(fire_out_.begin(), fire_out_.end(), std::pair<VertexId, std::uint32_t>{v, 0});
      for (; it != fire_out_.end() && it->first == v; ++it) to[it->second].push_back(fired_[i]);
      heard(v);
    }
    bool sent = false;
    for (const auto& notes : to) sent = sent || !notes.empty();
    std::vector<std::vector<std::byte>> to_each(ranks());
    for (std::uint32_t r = 0; r < ranks(); ++r) {
      if (r == rank()) continue;
      WireWriter message;
      message.value(static_cast<std::uint8_t>(sent));
      message.array(to[r]);
      to_each[r] = message.take();
    }
    const auto from_each = channel_.exchange(std::move(to_each));
    bool anyone = sent;
    for (std::uint32_t r = 0; r < ranks(); ++r) {
      if (r == rank()) continue;
      WireReader message(from_each[r]);
      const bool they_sent = message.value<std::uint8_t>() != 0;  // read whatever `anyone` is: the array follows
      anyone = anyone || they_sent;
      for (const FireNote& f : message.array<FireNote>())
        if (fired_elsewhere_.emplace(f.vertex, f).second) heard(f.vertex);
    }
    if (!anyone) break;
  }
  for (std::size_t i = 0; i < n; ++i) stuck_ = stuck_ || !known[i];
}

// An operation's measured delay: the time between its recorded inputs' firing (and its launch) and its readiness,
// kept when it waits on something no record explains or when it is long (the whole build's external_delays).
void ProfPartBuilder::external_delays() {
  const std::size_t n = vertices_.size();
  delay_.assign(n, 0);
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const VertexNote& v = vertices_[i];
    const std::size_t first = k;
    while (k < in_edges_.size() && in_edges_[k].to == v.id) ++k;
    if (passes_through_or_phase(v.kind) || v.ready == kNoTime) continue;
    bool waits_external = v.external_input != 0;
    TimeNs known = v.issued == kNoTime ? 0 : v.issued;
    for (std::size_t e = first; e < k; ++e) {
      const VertexId u = in_edges_[e].from;
      auto it = std::lower_bound(vertices_.begin(), vertices_.end(), u, [](const VertexNote& x, VertexId id) { return x.id < id; });
      const FireNote& in = it != vertices_.end() && it->id == u ? fired_[static_cast<std::size_t>(it - vertices_.begin())]
                                                                 : fired_elsewhere_.at(u);
      if (in.passes) waits_external = waits_external || in.reaches;
      if (in.time != kNoTime) known = std::max(known, in.time);
    }
    TimeNs delay = std::max<TimeNs>(0, v.ready - known);
    // A start-up silence in the delay is the model's processor start-up, not the operation's (work from spans).
    if (auto it = silences_.find(v.node); it != silences_.end() && delay > 0)
      delay = std::max<TimeNs>(0, delay - silent_overlap(it->second, known, v.ready));
    if (!waits_external && delay < kUnexplainedStallNs) continue;
    delay_[i] = delay;
    any_delay_ = any_delay_ || delay > 0;
  }
}

}  // namespace rr::graph::prof_part
