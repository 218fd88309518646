// Step 5 of the Legion Prof part build: each of this rank's records resolved into what the owners need, as the
// whole build's connect() resolves them: the vertex (with its observed times and whether it waits on something no
// record explains), its precondition, inputs and arrival as edges (to the owner of the source, and to its own owner
// for its fire time), its launch to the creator's owner (an action) with its issue edge, and its waits to its own
// owner. Phases and their order are every rank's to know; each owner adds its own.
#include <algorithm>
#include <string>
#include <tuple>

#include "graph/src/part/part_wire.hpp"
#include "graph/src/prof_part/prof_part_builder.hpp"

namespace rr::graph::prof_part {

namespace {

using part_detail::WireReader;
using part_detail::WireWriter;

}  // namespace

// over 120 lines because it follows connect() of the whole build record by record, each reference resolved where
// it is read, and ships the four kinds of note it makes in one exchange.
void ProfPartBuilder::deliver() {
  ByRank<VertexNote> vertices(ranks());
  ByRank<EdgeNote> out(ranks()), in(ranks());
  ByRank<ActionNote> actions(ranks());
  auto edge = [&](VertexId from, std::uint32_t from_owner, VertexId to, std::uint32_t to_owner, EdgeKind kind,
                  EdgeRun run, std::uint64_t seq) {
    const EdgeNote e{from, to, from_owner, to_owner, kind, run, {}, seq};
    out[from_owner].push_back(e);
    if (kind != EdgeKind::issue) in[to_owner].push_back(e);
  };
  std::vector<std::uint32_t> note_of(ops_.size(), ~0u);  // each kept record's vertex note, by owner
  for (std::uint32_t i = 0; i < ops_.size(); ++i) {
    const LocalOp& op = ops_[i];
    if (!op.kept) continue;
    const std::uint32_t owner = owner_of(op.node);
    VertexNote v;
    v.id = op.id;
    v.kind = op.kind;
    v.outside = op.outside;
    v.node = op.node;
    v.event = key_of(op.event);
    v.payload = op.payload;
    v.start = op.start;
    v.end = op.end;
    v.ready = op.ready;
    if (op.kind == OpKind::task || op.kind == OpKind::background) v.task = tasks_[op.detail];
    if (op.kind == OpKind::copy) v.copy = copies_[op.detail];
    bool external = op.external_input;
    // Its precondition: a profiling response's is its creator, which need not be in the trace (no finding).
    if (!op.critical.is_none() || op.profiler) {
      if (const Producer* p = producer(op.critical)) {
        edge(p->vertex, p->owner, op.id, owner, EdgeKind::precondition, EdgeRun::precondition, op.id);
      } else {
        external = true;
        if (!op.profiler) ++external_references_;
      }
    }
    // Its launch: the creator must be work of the trace; a merger or queue fires on its inputs alone.
    if (!op.creator.is_none() && (op.stage != 1 || op.fresh)) {
      const Producer* p = producer(op.creator);
      const std::uint64_t key = order_key(op.stage + 1, whole_file(op.file), op.seq);
      if (!p || (p->kind != OpKind::task && p->kind != OpKind::background)) {
        log_.note(core::Stat::unknown_issuer, key_of(op.creator), [&] {
          return std::string("creates a ") + op_kind_name(op.kind) + " producing " + core::to_string(v.event);
        });
        external = true;  // a time no record explains: kept as a measured delay
      } else if (op.kind != OpKind::merge && op.kind != OpKind::first_of) {
        v.issued = op.launched;
        edge(p->vertex, p->owner, op.id, owner, EdgeKind::issue, EdgeRun::issue, key);
        ActionNote a;
        a.creator = p->vertex;
        a.op = op.id;
        a.op_owner = owner;
        a.at = op.launched;
        a.key = key;
        actions[p->owner].push_back(a);
      }
    }
    if (op.kind == OpKind::barrier_arrive) {
      const std::uint32_t phase = phase_index_.at(op.event.id);
      const std::uint32_t phase_owner = owner_of(core::realm_barrier_node_of(op.event.id));
      edge(op.id, owner, first_phase_ + phase, phase_owner, EdgeKind::arrival, EdgeRun::barrier,
           std::uint64_t{phase} << 33 | op.id);
    }
    v.external_input = external;
    note_of[i] = static_cast<std::uint32_t>(vertices[owner].size());
    vertices[owner].push_back(v);
  }
  for (const LocalInput& input : inputs_) {
    const LocalOp& op = ops_[input.op];
    if (!op.fresh) continue;  // a duplicate merger has no inputs
    if (const Producer* p = producer(input.event)) {
      edge(p->vertex, p->owner, op.id, owner_of(op.node), EdgeKind::merge_input, EdgeRun::merge_input, input.seq);
    } else {
      ++external_references_;
      vertices[owner_of(op.node)][note_of[input.op]].external_input = 1;
    }
  }
  for (const LocalWait& w : waits_) {
    const LocalOp& op = ops_[w.op];
    if (!op.fresh) continue;  // a duplicate's waits are not the task's
    const Producer* p = producer(w.event);
    if (!p) ++external_references_;
    ActionNote a;
    a.creator = op.id;
    a.at = w.start;
    a.wait_end = w.end;
    a.key = w.key;
    a.event = key_of(w.event);
    a.awaited = p ? p->vertex : kNoVertex;
    a.awaited_owner = p ? p->owner : 0;
    a.wait_ns = std::max<TimeNs>(0, w.end - w.start);
    actions[owner_of(op.node)].push_back(a);
  }
  // Phases and their order: every rank lists them; each owner makes its own.
  for (std::uint32_t i = 0; i < phases_.size(); ++i) {
    const std::uint64_t id = phases_[i].id;
    const std::uint32_t owner = owner_of(core::realm_barrier_node_of(id));
    const bool first = i == 0 || (phases_[i - 1].id & ~kGenerationMask) != (id & ~kGenerationMask);
    if (owner == rank()) {
      VertexNote v;
      v.id = first_phase_ + i;
      v.kind = OpKind::barrier_phase;
      v.node = core::realm_barrier_node_of(id);
      v.event = key_of(ProfEvent{id});
      v.payload = i;
      vertices_.push_back(v);
    }
    if (first) continue;
    const EdgeNote e{first_phase_ + i - 1, first_phase_ + i, owner_of(core::realm_barrier_node_of(phases_[i - 1].id)),
                     owner, EdgeKind::phase_order, EdgeRun::barrier, {}, std::uint64_t{i} << 33 | std::uint64_t{1} << 32};
    if (e.from_owner == rank()) out_edges_.push_back(e);
    if (e.to_owner == rank()) in_edges_.push_back(e);
  }

  std::vector<std::vector<std::byte>> to_each(ranks());
  for (std::uint32_t r = 0; r < ranks(); ++r) {
    if (r == rank()) continue;
    WireWriter message;
    message.array(vertices[r]);
    message.array(out[r]);
    message.array(in[r]);
    message.array(actions[r]);
    to_each[r] = message.take();
  }
  const auto from_each = channel_.exchange(std::move(to_each));
  for (std::uint32_t r = 0; r < ranks(); ++r) {
    if (r == rank()) {
      vertices_.insert(vertices_.end(), vertices[r].begin(), vertices[r].end());
      out_edges_.insert(out_edges_.end(), out[r].begin(), out[r].end());
      in_edges_.insert(in_edges_.end(), in[r].begin(), in[r].end());
      actions_.insert(actions_.end(), actions[r].begin(), actions[r].end());
      continue;
    }
    WireReader message(from_each[r]);
    const std::size_t vertices_before = vertices_.size(), edges_before = out_edges_.size();
    message.append_to(vertices_);
    message.append_to(out_edges_);
    message.append_to(in_edges_);
    message.append_to(actions_);
    vertices_from_others_ += vertices_.size() - vertices_before;
    edges_from_others_ += out_edges_.size() - edges_before;
  }
  std::sort(vertices_.begin(), vertices_.end(), [](const VertexNote& a, const VertexNote& b) { return a.id < b.id; });
  std::sort(out_edges_.begin(), out_edges_.end(), [](const EdgeNote& a, const EdgeNote& b) {
    return std::tie(a.from, a.run, a.seq) < std::tie(b.from, b.run, b.seq);
  });
  std::sort(in_edges_.begin(), in_edges_.end(), [](const EdgeNote& a, const EdgeNote& b) {
    return std::tie(a.to, a.run, a.seq) < std::tie(b.to, b.run, b.seq);
  });
  // Who reads each of this rank's observed times, before the tasks' edges move onto their segments: the fire times
  // are the whole build's, taken before its wait split.
  for (const EdgeNote& e : out_edges_)
    if (e.kind != EdgeKind::issue && e.to_owner != rank()) fire_out_.emplace_back(e.from, e.to_owner);
  std::sort(fire_out_.begin(), fire_out_.end());
  fire_out_.erase(std::unique(fire_out_.begin(), fire_out_.end()), fire_out_.end());
}

}  // namespace rr::graph::prof_part
