// Mail of a replay from parts on the wire (docs/scale.md, "The replay from parts"): each rank's engine names
// vertices by its own local numbering (local_graph.hpp), so what crosses ranks names them by their whole-graph ids,
// translated as a packet is shipped and as it is laid in.
#pragma once

#include <stdexcept>
#include <string>

#include "replay/event_queue.hpp"
#include "replay/src/block_mail.hpp"
#include "replay/src/local_graph.hpp"

namespace rr::replay {

// Applies `to` to every vertex a message names: its subject, the input's source, an arrival's arrive.
template <typename To>
void rename_mail_vertices(Mail& m, To&& to) {
  m.a = to(m.a);
  if (m.kind == Mail::Kind::contribute && m.b != graph::kNoVertex) m.b = to(m.b);
  if (m.kind == Mail::Kind::event && m.b == static_cast<std::uint32_t>(EventType::arrival_effect)) m.c = to(m.c);
}

inline void mail_to_whole(Mail& m, const LocalGraph& local) {
  rename_mail_vertices(m, [&](graph::VertexId v) { return local.whole(v); });
}

inline void mail_to_local(Mail& m, const LocalGraph& local) {
  rename_mail_vertices(m, [&](graph::VertexId w) {
    const graph::VertexId v = local.local(w);
    if (v == graph::kNoVertex)
      throw std::logic_error("replay from parts: mail names operation " + std::to_string(w) +
                             ", which this rank's view lacks");
    return v;
  });
}

}  // namespace rr::replay
