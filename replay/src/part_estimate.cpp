#include "replay/src/part_estimate.hpp"

#include <vector>

#include "replay/byte_wire.hpp"
#include "replay/src/shared_state.hpp"

namespace rr::replay {

namespace {

using graph::EdgeKind;
using graph::OpKind;
using graph::VertexId;

// Marks v and what waits on it within the view (what it issued is not after it).
void mark_from(const graph::EventGraph& g, std::vector<char>& marked, VertexId v) {
  std::vector<VertexId> todo{v};
  marked[v] = 1;
  while (!todo.empty()) {
    const VertexId u = todo.back();
    todo.pop_back();
    const auto succ = g.successors(u);
    const auto kinds = g.successor_kinds(u);
    for (std::size_t i = 0; i < succ.size(); ++i)
      if (kinds[i] != EdgeKind::issue && !marked[succ[i]]) {
        marked[succ[i]] = 1;
        todo.push_back(succ[i]);
      }
  }
}

}  // namespace

void spread_outside_estimate(const LocalGraph& local, ReplayResult& r, PartRounds& rounds) {
  const graph::EventGraph& g = local.g;
  const VertexId n = g.vertex_count();
  const std::uint32_t me = rounds.rank(), ranks = rounds.ranks();
  r.tasks_without_time = 0;
  for (VertexId v = 0; v < n; ++v)
    if (local.owner[v] == me && g.kind(v) == OpKind::task && g.task(v).time_ns == graph::kNoTime) ++r.tasks_without_time;
  std::vector<char> marked = r.outside_estimate.empty() ? std::vector<char>(n, 0) : r.outside_estimate;
  std::vector<char> told(n, 0);  // ghosts whose owner has been told
  for (;;) {
    // Each round opens with whether the sender tells anyone anything, so that every rank knows when all are done.
    std::vector<std::vector<VertexId>> tell(ranks);
    for (VertexId v = 0; v < n; ++v)
      if (marked[v] && !told[v] && local.owner[v] != me) {
        told[v] = 1;
        tell[local.owner[v]].push_back(local.whole(v));
      }
    std::uint8_t telling = 0;
    for (const auto& t : tell) telling |= !t.empty();
    std::vector<std::vector<std::byte>> to_each(ranks);
    for (std::uint32_t x = 0; x < ranks; ++x) {
      if (x == me) continue;
      ByteWriter w;
      w.put(telling);
      w.put_all<VertexId>(tell[x]);
      to_each[x] = w.take();
    }
    const auto heard = rounds.exchange(std::move(to_each));
    bool anyone = telling != 0;
    for (std::uint32_t x = 0; x < ranks; ++x) {
      if (x == me) continue;
      ByteReader in(heard[x]);
      anyone |= in.get<std::uint8_t>() != 0;
      for (const VertexId w : in.get_all<VertexId>())
        if (const VertexId v = local.local(w); v != graph::kNoVertex && !marked[v]) mark_from(g, marked, v);
    }
    if (!anyone) break;
  }
  bool any = false;
  for (VertexId v = 0; v < n && !any; ++v) any = marked[v] != 0;
  r.after_untimed = any ? count_after_untimed(g, marked, [&](VertexId v) { return local.owner[v] == me; }) : 0;
  if (any) r.outside_estimate = std::move(marked);
  else r.outside_estimate.clear();
}

}  // namespace rr::replay
