#include "replay/src/part_records.hpp"

#include <stdexcept>

#include "replay/part_replay.hpp"

namespace rr::replay {

using graph::VertexId;
using graph::kNoVertex;

ReplayResult records_by_local_vertex(const RankPart& part, const ReplayResult& r) {
  const VertexId n = part.local->g.vertex_count();
  ReplayResult out;
  out.makespan_ns = r.makespan_ns;
  out.last_end_ns = r.last_end_ns;
  out.noise = r.noise;
  out.start_ups = r.start_ups;
  out.issued_at = r.issued_at;  // (by local vertex already: keep_own leaves it so)
  out.cut_off = r.cut_off;
  out.blocks = r.blocks;
  out.over_ranks = r.over_ranks;
  out.ops.reset(n);
  out.processor_of.assign(n, ~0u);
  if (!r.outside_estimate.empty()) out.outside_estimate.assign(n, 0);
  for (VertexId i = 0; i < part.own_vertices.size(); ++i) {
    const VertexId v = part.own_vertices[i];
    out.ops.set_ready(v, r.ops.ready(i));
    if (r.ops.started(i)) out.ops.start_at(v, r.ops.start(i));
    if (r.ops.ended(i)) out.ops.end_at(v, r.ops.end(i));
    const VertexId by = r.ops.released_by(i);
    out.ops.set_release(v, part.local_of(by), r.ops.release(i));
    out.processor_of[v] = r.processor_of[i];
    if (!out.outside_estimate.empty()) out.outside_estimate[v] = r.outside_estimate[i];
  }
  return out;
}

bool from_parts(const ReplayResult& r) { return r.over_ranks && r.over_ranks->from_parts; }

const graph::EventGraph& graph_of_part(const ReplayResult& r) {
  if (!from_parts(r)) throw std::logic_error("graph_of_part: the result is not a replay from parts");
  return r.over_ranks->local->g;
}

OperationPlace place_of(const ReplayResult& r, VertexId whole) {
  if (!from_parts(r)) return {whole, whole};
  const RankPart& part = *r.over_ranks;
  const VertexId v = part.local_of(whole);
  return {v, v != kNoVertex && part.mine(v) ? part.record_of(v) : kNoVertex};
}

}  // namespace rr::replay
