#include "program_events.hpp"

namespace rr::gen {

ProgramEvents::ProgramEvents(const Program& p)
    : program_(p), ids_(p.nodes), next_index_(p.nodes, 1), event_id_(p.ops.size()), barrier_id_(p.barriers.size()) {
  for (std::size_t i = 0; i < p.ops.size(); ++i)
    if (p.ops[i].kind != GenKind::phase) event_id_[i] = fresh(p.ops[i].node);
  for (std::size_t b = 0; b < p.barriers.size(); ++b) barrier_id_[b] = fresh(p.barriers[b].node);
  for (std::size_t i = 0; i < p.ops.size(); ++i)
    if (p.ops[i].kind == GenKind::phase) event_id_[i] = barrier_id_[p.ops[i].barrier];
}

}  // namespace rr::gen
