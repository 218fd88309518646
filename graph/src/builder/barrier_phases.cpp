// Barrier phases: one vertex per (barrier, generation), arrivals into them, phase order and completeness.
#include <algorithm>
#include <map>
#include <string>

#include "graph/src/builder/graph_builder_impl.hpp"
#include "graph/src/barrier_phase_order.hpp"

namespace rr::graph::build_detail {

// A phase's node (the barrier's owner) is placed with every other vertex's (place_nodes).
VertexId GraphBuilder::phase_vertex(const core::EventKey& phase) {
  VertexId v = phases_.find(phase);
  if (v != EventTable::kMissing) return v;
  v = v_.append(OpKind::barrier_phase, phase, static_cast<std::uint32_t>(v_.phases.size()));
  v_.phases.push_back({});
  phases_.insert(phase, v);
  phase_list_.push_back(v);
  return v;
}

// Barrier creations, and one vertex per (barrier, generation) that Alter/Arrive name, after every
// record's vertex; arrivals become edges into their phase.
void GraphBuilder::collect_barriers() {
  for (const BatchWork& w : work_) {
    const core::RecordBatch& b = *w.batch;
    for (const auto& r : b.barrier_creations) barriers_.try_emplace(r.id.value(), r.expected_arrivals);
    for (std::uint32_t i = 0; i < b.barrier_alters.size(); ++i) {
      const auto& r = b.barrier_alters[i];
      VertexId p = phase_vertex(r.phase);
      v_.phases[v_.payload[p]].required += r.delta;
      barrier_edges_.push_back({w.first_alter + i, p, EdgeKind::arrival});
    }
    for (std::uint32_t i = 0; i < b.barrier_arrives.size(); ++i) {
      const auto& r = b.barrier_arrives[i];
      VertexId p = phase_vertex(r.phase);
      v_.phases[v_.payload[p]].arrived += r.count;
      barrier_edges_.push_back({w.first_arrive + i, p, EdgeKind::arrival});
    }
  }
}

// Barrier phases: expected arrivals from the creation, order between phases, gaps filled,
// and phases whose arrivals can never reach the required count (docs/realm-log-format.md, Barriers).
void GraphBuilder::complete_barriers() {
  std::map<std::uint64_t, std::vector<std::uint32_t>> gens;  // barrier id -> phase gens (ordered by id)
  for (VertexId p : phase_list_) gens[v_.event[p].id()].push_back(v_.event[p].gen);
  for (auto& entry : gens) {
    const std::uint64_t id = entry.first;  // not a structured binding: the lambda below captures it (C++20 allows
    auto& list = entry.second;             // that, clang 14 does not)
    std::sort(list.begin(), list.end());
    first_phase_.emplace(id, list.front());
    auto created = barriers_.find(id);
    std::int64_t expected = 0;
    if (created == barriers_.end())
      log_.note(core::Stat::barrier_without_creation, core::EventKey::make(id, list.front()));
    else
      expected = created->second;
    VertexId previous = kNoVertex;
    // One phase in order after the previous: `stands_for` > 1 for the stand-in of a long gap.
    auto add = [&](std::uint32_t gen, std::uint64_t stands_for) {
      core::EventKey key = core::EventKey::make(id, gen);
      VertexId p = phase_vertex(key);
      BarrierPhaseInfo& info = v_.phases[v_.payload[p]];
      info.required += expected;
      info.first = previous == kNoVertex;
      if (previous != kNoVertex) barrier_edges_.push_back({previous, p, EdgeKind::phase_order});
      if (info.arrived < info.required)
        log_.note(core::Stat::barrier_phase_incomplete, key,
                  [&] { return incomplete_phase_why(info.required, info.arrived, gen, stands_for); });
      previous = p;
    };
    for_each_phase_in_order(list, add);
  }
}

}  // namespace rr::graph::build_detail
