#include "replay/src/partition.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <algorithm>

#include "replay/first_segment_queues.hpp"
#include "replay/src/block_mail.hpp"
#include "replay/task_timing.hpp"
#include "replay/timing_rules.hpp"

namespace rr::replay {

namespace {

using graph::EdgeKind;
using graph::OpKind;
using graph::VertexId;

// What a pass over the vertices finds: the least delay of what crosses blocks, or the first reason the split
// cannot be made.
struct Found {
  TimeNs lookahead = kNoTime;
  const char* why_not = nullptr;
  void join(const Found& o) {
    lookahead = std::min(lookahead, o.lookahead);
    if (!why_not) why_not = o.why_not;
  }
};

// visit_range(first, end, found) on ranges of the n vertices, on oneTBB; what the ranges find is joined in range
// order, so it is the same at any thread count.
template <typename Visit>
Found over_ranges(VertexId n, Visit&& visit_range) {
  using Range = oneapi::tbb::blocked_range<VertexId>;
  Handoff handoff;
  handoff.give();
  Found all = oneapi::tbb::parallel_deterministic_reduce(
      Range(0, n, 1 << 14), Found{},
      [&](const Range& range, Found found) {
        handoff.take();
        visit_range(range.begin(), range.end(), found);
        handoff.give();
        return found;
      },
      [](Found a, const Found& b) {
        a.join(b);
        return a;
      });
  handoff.take();
  return all;
}

// visit(v, found) on each vertex, each range stopping at the first reason not to split.
template <typename Visit>
Found over_vertices(VertexId n, Visit&& visit) {
  return over_ranges(n, [&](VertexId first, VertexId end, Found& found) {
    for (VertexId v = first; v != end && !found.why_not; ++v) visit(v, found);
  });
}

// The passes of partition_by_node over a partition whose blocks of nodes are chosen (Partition::of_node).
class Partitioner {
 public:
  Partitioner(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
              const CopyPlans& copies, Noise noise, Partition& p)
      : g_(g), map_(map), model_(model), copies_(copies), timing_(g, map, model, noise), p_(p),
        n_(g.vertex_count()), eft_(map.placement() == machine::Placement::eft) {}

  // Each operation's block: a task goes with the processors that may run it, its later segments with it, every
  // other operation with its node. Null, or why a task cannot be placed.
  const char* place_operations() {
    p_.of_vertex.resize(n_);
    // MachineMap fills tables on first use under eft (a task's candidates) and traced placement (an unknown
    // processor's fallback): there every task asks here, on one thread, and the blocks' threads, asking again,
    // only read. Pool placement reads fixed tables, from any thread.
    Found found;
    if (eft_ || map_.placement() == machine::Placement::traced)
      place_range(0, n_, found);
    else
      found = over_ranges(n_, [&](VertexId first, VertexId end, Found& f) { place_range(first, end, f); });
    if (found.why_not) return found.why_not;
    over_vertices(n_, [&](VertexId v, Found&) {
      if (g_.kind(v) == OpKind::task_resume) p_.of_vertex[v] = p_.of_vertex[g_.task_of(v)];
    });
    return nullptr;
  }

  // The least delay of an edge between blocks, or why one may not cross: an edge without delay, or a completion
  // queue fed from two blocks.
  Found edges_across() {
    return over_vertices(n_, [&](VertexId u, Found& f) {
      auto succ = g_.successors(u);
      auto kinds = g_.successor_kinds(u);
      for (std::size_t i = 0; i < succ.size(); ++i) {
        const VertexId w = succ[i];
        if (p_.of_vertex[u] == p_.of_vertex[w]) continue;
        if (kinds[i] == EdgeKind::continuation || kinds[i] == EdgeKind::phase_order)
          f.why_not = "an edge without delay crosses blocks";
        // A completion queue takes the input applied first, which is the order inputs are sent in on one engine.
        else if (g_.kind(w) == OpKind::first_of) f.why_not = "a completion queue has inputs from two blocks";
        else if (kinds[i] != EdgeKind::arrival || g_.kind(u) == OpKind::barrier_arrive)  // an alter sets a count: no message
          f.lookahead = std::min(f.lookahead, edge_delay_ns(g_, map_, model_, u, w, kinds[i]));  // an issue's at least: issued at its start
      }
    });
  }

  // Copies: a hop on another block's instance than the copy's is that block's. Only the first hop's request has
  // no delay (its instance is shared, marked here); the block of a hop tells the next hop's block, or the copy's
  // own after the last, when the hop starts: its duration ahead. The least such duration.
  TimeNs copy_hand_overs() {
    const std::uint32_t nodes = map_.model_nodes();
    p_.shared_instance.assign(std::size_t{model_.channels.size()} * nodes, 0);
    TimeNs lookahead = kNoTime;
    for (VertexId c = 0; c < n_; ++c) {
      if (g_.kind(c) != OpKind::copy) continue;
      std::uint8_t before = p_.of_vertex[c];
      TimeNs last = 0;
      hops_of(c, [&](std::uint32_t h, std::size_t key, std::uint8_t block, TimeNs duration) {
        if (h == 0 && block != before) p_.shared_instance[key] = 1;
        if (h > 0 && block != before) lookahead = std::min(lookahead, last);  // told when the hop before started
        before = block;
        last = duration;
      });
      // The last hop's block tells the copy's own: the last hop's duration ahead.
      if (plan_of(c).path_slot != CopyPlan::kRemoved && before != p_.of_vertex[c]) lookahead = std::min(lookahead, last);
    }
    return lookahead;
  }

  // The shortest hop on a shared instance (copy_hand_overs marks them).
  TimeNs least_shared_hop() const {
    TimeNs least = kNoTime;
    for (VertexId c = 0; c < n_; ++c)
      if (g_.kind(c) == OpKind::copy)
        hops_of(c, [&](std::uint32_t, std::size_t key, std::uint8_t, TimeNs duration) {
          if (p_.shared_instance[key]) least = std::min(least, duration);
        });
    return least;
  }

 private:
  // A task's block follows from its function and traced processor alone (MachineMap::targets, a few table
  // lookups each): worked out once per pair in each range, kept in a small table (FirstSegmentQueues' kind).
  static constexpr std::uint32_t kByNode = 0x100, kCrosses = 0x200;

  std::uint8_t node_block(VertexId v) const {
    return g_.node(v) == graph::kNoNode ? 0 : p_.of_node[map_.fold(g_.node(v))];
  }

  std::uint32_t block_of_pair(const graph::TaskInfo& t) const {
    const auto& targets = eft_ ? map_.candidates(t.func_id, t.processor.value()) : map_.targets(t.func_id, t.processor.value());
    if (targets.empty()) return kByNode;
    const std::uint8_t first = p_.of_node[map_.processors()[targets.front()].node];
    for (auto p : targets)
      if (p_.of_node[map_.processors()[p].node] != first) return kCrosses;
    return first;
  }

  void place_range(VertexId first, VertexId end, Found& f) {
    FirstSegmentQueues known;
    for (VertexId v = first; v != end && !f.why_not; ++v) {
      if (g_.kind(v) != OpKind::task) {
        p_.of_vertex[v] = node_block(v);
        continue;
      }
      const graph::TaskInfo& t = g_.task(v);
      std::uint32_t block = known.find(t.func_id, t.processor.value());
      if (block == FirstSegmentQueues::kMissing) {
        block = block_of_pair(t);
        known.insert(t.func_id, t.processor.value(), block);
      }
      if (block == kCrosses) f.why_not = "a task may run on the nodes of two blocks";
      p_.of_vertex[v] = block == kByNode || block == kCrosses ? node_block(v) : static_cast<std::uint8_t>(block);
    }
  }

  const CopyPlan& plan_of(VertexId c) const { return copies_.plans[g_.payload(c)]; }

  // visit(hop, instance key, its block, its duration) on each hop of copy c.
  template <typename Visit>
  void hops_of(VertexId c, Visit&& visit) const {
    const CopyPlan& plan = plan_of(c);
    if (plan.path_slot == CopyPlan::kRemoved) return;
    const std::uint32_t nodes = map_.model_nodes();
    const auto& hops = copies_.path_of(plan).hops;
    for (std::uint32_t h = 0; h < hops.size(); ++h) {
      const std::uint32_t node = copies_.hop_node(model_, plan, h);
      visit(h, std::size_t{hops[h]} * nodes + node, p_.of_node[node], hop_ns(g_, model_, timing_, hops[h], c));
    }
  }

  const graph::EventGraph& g_;
  const MachineMap& map_;
  const machine::MachineModel& model_;
  const CopyPlans& copies_;
  const TaskTiming timing_;
  Partition& p_;
  const VertexId n_;
  const bool eft_;
};

Partition no_split(const char* why) {
  Partition none;
  none.why_not = why;
  return none;
}

}  // namespace

Partition partition_by_node(const graph::EventGraph& g, const MachineMap& map, const machine::MachineModel& model,
                            const CopyPlans& copies, Noise noise, std::uint32_t blocks, const PartitionLimits& limits) {
  const std::uint32_t nodes = map.model_nodes();
  std::uint32_t count = std::min({blocks, nodes, 255u});
  if (limits.min_block_operations > 0) count = std::min(count, g.vertex_count() / limits.min_block_operations);
  if (count < 2) return no_split("fewer than two model nodes, or too few operations to share");
  Partition p;
  p.count = count;
  p.of_node.resize(nodes);
  for (std::uint32_t n = 0; n < nodes; ++n) p.of_node[n] = static_cast<std::uint8_t>(std::uint64_t{n} * count / nodes);
  Partitioner passes(g, map, model, copies, noise, p);
  if (const char* why = passes.place_operations()) return no_split(why);
  const Found edges = passes.edges_across();
  if (edges.why_not) return no_split(edges.why_not);
  const TimeNs lookahead = std::min(edges.lookahead, passes.copy_hand_overs());
  p.least_hop = passes.least_shared_hop();
  // A lane of a shared instance is given out once every other block has gone past its instant; until its hop
  // ends, nothing it starts can reach the block, which may run that far ahead and no further.
  p.lookahead = std::min(lookahead, p.least_hop);
  if (p.lookahead <= 0) return no_split("something crosses blocks without delay");
  if (p.lookahead < limits.min_lookahead_ns) return no_split("blocks would wait for each other more than they work");
  return p;
}

}  // namespace rr::replay
