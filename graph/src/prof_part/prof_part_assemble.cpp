// Step 8 of the Legion Prof part build, and its entry point: the part's arrays from the vertex notes, the phases and
// the resumes in ascending id, its out-edges in the whole graph's order, and what it found. Rank 0 carries the notes
// on the trace as a whole (a log without its event graph, the logs of missing processes).
#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "graph/src/part/part_wire.hpp"
#include "graph/src/prof_part/prof_part_builder.hpp"

namespace rr::graph::prof_part {

GraphPart ProfPartBuilder::build() {
  try {
    if (ranks() >= (std::uint32_t{1} << 24)) throw std::invalid_argument("part build: more ranks than 2^24 - 1");
    if (files_.records) collect();
    first_directory();
    lay_out();
    second_directory();
    deliver();
    order_actions();
    fire_times();
    external_delays();
    // Whether any vertex of the whole graph has a measured delay (else the whole graph keeps none), and whether
    // any rank holds a pass-through vertex whose inputs never all fired.
    part_detail::WireWriter out;
    out.value(static_cast<std::uint8_t>(any_delay_));
    out.value(static_cast<std::uint8_t>(stuck_));
    const std::vector<std::byte> message = out.take();
    const auto from_each = channel_.exchange(std::vector<std::vector<std::byte>>(ranks(), message));
    bool stuck = false;
    for (std::uint32_t r = 0; r < ranks(); ++r) {
      part_detail::WireReader in(r == rank() ? message : from_each[r]);
      any_delay_ = in.value<std::uint8_t>() != 0 || any_delay_;
      stuck = in.value<std::uint8_t>() != 0 || stuck;
    }
    if (stuck)
      throw std::runtime_error(
          "part build: merges, triggers, arrivals or phases that wait on each other in a cycle: their observed fire "
          "times have no order to be worked out in (the whole build reports the cycle)");
    return assemble();
  } catch (const std::exception& e) {
    channel_.send_failure(e.what());
    throw;
  }
}

// over 120 lines because it fills every array of the part in one pass over its vertices, kind by kind, and then
// lays out the out-edges: the same pass as the 2015 logs' assembly, with the timestamped facts.
GraphPart ProfPartBuilder::assemble() {
  GraphPart part;
  part.rank = rank();
  part.whole_vertices = first_resume_ + static_cast<VertexId>(total_waits_);
  const std::size_t notes = vertices_.size(), n = notes + waits_owned_.size();
  for (const VertexNote& v : vertices_) part.ids.push_back(v.id);
  for (const WaitInfo& w : waits_owned_) part.ids.push_back(w.resume);
  part.issuer.assign(n, kNoVertex);
  part.position.assign(n, 0);
  part.issue_fraction.assign(n, -1.0f);
  for (const PositionNote& p : positions_) {
    const std::size_t i = part.local(p.op);
    if (i == n) throw std::logic_error("part build: a position for a vertex this rank does not own");
    part.issuer[i] = p.issuer;
    part.position[i] = p.position;
    part.issue_fraction[i] = p.fraction;
  }
  part.local_payload.assign(n, 0);
  if (any_delay_) part.external_delay.assign(n, 0);
  for (std::size_t i = 0; i < notes; ++i) {
    const VertexNote& v = vertices_[i];
    part.kind.push_back(v.kind);
    part.node.push_back(v.node);
    part.event.push_back(v.event);
    part.payload.push_back(v.payload);
    part.observed_start.push_back(v.start);
    part.observed_end.push_back(v.end);
    if (any_delay_) part.external_delay[i] = delay_[i];
    if (v.outside) part.outside_work.push_back(v.id);
    switch (v.kind) {
      case OpKind::task:
      case OpKind::background:
        part.local_payload[i] = static_cast<std::uint32_t>(part.tasks.size());
        part.tasks.push_back(v.task);
        break;
      case OpKind::copy:
        part.local_payload[i] = static_cast<std::uint32_t>(part.copies.size());
        part.copies.push_back(v.copy);
        break;
      case OpKind::barrier_arrive:
        part.local_payload[i] = static_cast<std::uint32_t>(part.barrier_values.size());
        part.barrier_values.push_back(1);
        break;
      case OpKind::barrier_phase: {
        const bool first = v.payload == 0 || (phases_[v.payload - 1].id & ~kGenerationMask) != (phases_[v.payload].id & ~kGenerationMask);
        part.local_payload[i] = static_cast<std::uint32_t>(part.phases.size());
        part.phases.push_back({phases_[v.payload].arrivals, phases_[v.payload].arrivals, first, {}});
        break;
      }
      default: break;
    }
  }
  for (std::size_t k = 0; k < waits_owned_.size(); ++k) {
    const WaitInfo& w = waits_owned_[k];
    const std::size_t task = part.local(w.task);
    part.kind.push_back(OpKind::task_resume);
    part.node.push_back(part.node[task]);
    part.event.push_back(part.event[task]);
    part.payload.push_back(w.resume - first_resume_);
    part.observed_start.push_back(wait_ends_[k]);
    part.observed_end.push_back(kNoTime);
    part.local_payload[notes + k] = static_cast<std::uint32_t>(part.waits.size());
    part.waits.push_back(w);
  }
  part.observed_origin = origin_ == kNoTime ? 0 : origin_;
  // Out-edges: sorted by source, then run and order within it (deliver and order_actions keep them so).
  part.edge_offset.assign(n + 1, 0);
  for (const EdgeNote& e : out_edges_) {
    const std::size_t i = part.local(e.from);
    if (i == n) throw std::logic_error("part build: an edge from a vertex this rank does not own");
    ++part.edge_offset[i + 1];
    part.successors.push_back(e.to);
    part.successor_kinds.push_back(e.kind);
  }
  for (std::size_t i = 0; i < n; ++i) part.edge_offset[i + 1] += part.edge_offset[i];
  part.function_names = names_;
  log_.append_to(part.findings);
  part.findings.external_references = external_references_;
  if (rank() == 0) add_notes(part);
  part.traffic.bytes_sent = channel_.bytes_sent();
  part.traffic.vertices_from_others = vertices_from_others_;
  part.traffic.edges_from_others = edges_from_others_;
  part.traffic.phases = phases_.size();
  part.traffic.waiting_tasks = waiting_tasks_;
  return part;
}

// What the whole build notes on the trace as a whole, from what every rank lists of every file.
void ProfPartBuilder::add_notes(GraphPart& part) const {
  std::set<std::int32_t> present;
  std::uint32_t expected = 0;
  for (const FileCounts& f : files_counts_) {
    present.insert(f.node);
    expected = std::max(expected, f.num_nodes);
  }
  if (expected > present.size()) {
    std::string missing;
    for (std::uint32_t node = 0; node < expected; ++node)
      if (!present.count(static_cast<std::int32_t>(node))) missing += (missing.empty() ? "" : ", ") + std::to_string(node);
    part.findings.notes.push_back("the run had " + std::to_string(expected) + " processes; the logs of node(s) " +
                                  missing + " are not in the trace: their work is not replayed, and what they launched "
                                  "or triggered here keeps its measured delay");
    part.findings.explained_here[static_cast<std::size_t>(core::Stat::unknown_issuer)] =
        "expected: operations launched by the nodes whose logs are missing; each keeps its measured delay";
  }
  if (!event_graph_records_ && part.whole_vertices > 0)
    part.findings.notes.push_back(
        "these Legion Prof logs were recorded without the event graph (-lg:prof_no_critical_paths: no merger, "
        "trigger, arrival, reservation, instance-ready or completion-queue record): most dependencies are "
        "missing. The replay follows the launches and the times the run observed; a what-if cannot hold work "
        "back for a dependency the log does not have, so it may come out too optimistic.");
}

}  // namespace rr::graph::prof_part

namespace rr::graph {

GraphPart build_prof_graph_part(const PartFiles& files, const NodeRanks& ranks, RankExchange& exchange,
                                const BuildOptions& options) {
  return prof_part::ProfPartBuilder(files, ranks, exchange, options).build();
}

}  // namespace rr::graph
