#include "replay/src/part_partition.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "replay/src/block_mail.hpp"
#include "replay/byte_wire.hpp"
#include "replay/task_timing.hpp"
#include "replay/timing_rules.hpp"

namespace rr::replay {

namespace {

using graph::EdgeKind;
using graph::OpKind;
using graph::VertexId;

// What one rank found of a shared channel instance's candidates: the shortest hop its copies take on an instance, and
// whether one of its copies asks for its first hop there from another rank.
struct InstanceHops {
  std::uint64_t key;  // channel * model nodes + node
  TimeNs least;
  std::uint8_t shared;
};

// What each rank decides alone.
struct Found {
  std::string why_not;
  TimeNs lookahead = kNoTime;
  std::map<std::uint64_t, InstanceHops> instances;
};

// partition_by_node's checks (Partitioner, partition.cpp) on this rank's own vertices.
class OwnChecks {
 public:
  OwnChecks(const LocalGraph& local, const MachineMap& map, const machine::MachineModel& model,
            const CopyPlans& copies, Noise noise, const Partition& p, std::uint32_t me)
      : local_(local), g_(local.g), map_(map), model_(model), copies_(copies), timing_(g_, map, model, noise), p_(p),
        me_(me) {}

  Found run() {
    Found f;
    for (VertexId v = 0; v < g_.vertex_count() && f.why_not.empty(); ++v) {
      if (local_.owner[v] != me_) continue;
      place(v, f);
      if (f.why_not.empty()) edges_from(v, f);
      if (f.why_not.empty() && g_.kind(v) == OpKind::copy) hops_of(v, f);
    }
    return f;
  }

 private:
  std::uint32_t node_block(VertexId v) const {
    return g_.node(v) == graph::kNoNode ? 0 : p_.of_node[map_.fold(g_.node(v))];
  }

  // A task goes with the processors that may run it, anything else with its node: the part's rank, or the two
  // ownerships disagree and the split cannot follow the parts.
  void place(VertexId v, Found& f) const {
    std::uint32_t block = node_block(v);
    if (g_.kind(v) == OpKind::task) {
      const graph::TaskInfo& t = g_.task(v);
      const bool eft = map_.placement() == machine::Placement::eft;  // as partition_by_node chooses
      const auto& targets =
          eft ? map_.candidates(t.func_id, t.processor.value()) : map_.targets(t.func_id, t.processor.value());
      if (!targets.empty()) {
        block = p_.of_node[map_.processors()[targets.front()].node];
        for (const auto q : targets)
          if (p_.of_node[map_.processors()[q].node] != block) f.why_not = "a task may run on the nodes of two blocks";
      }
    }
    if (f.why_not.empty() && block != me_)
      f.why_not = "operation " + std::to_string(local_.whole(v)) + " is replayed on rank " + std::to_string(block) +
                  " but its part is rank " + std::to_string(me_) + "'s";
  }

  void edges_from(VertexId u, Found& f) const {
    const auto succ = g_.successors(u);
    const auto kinds = g_.successor_kinds(u);
    for (std::size_t i = 0; i < succ.size(); ++i) {
      const VertexId w = succ[i];
      if (local_.owner[w] == me_) continue;
      if (kinds[i] == EdgeKind::continuation || kinds[i] == EdgeKind::phase_order)
        f.why_not = "an edge without delay crosses blocks";
      else if (g_.kind(w) == OpKind::first_of)
        f.why_not = "a completion queue has inputs from two blocks";
      else if (kinds[i] != EdgeKind::arrival || g_.kind(u) == OpKind::barrier_arrive)
        f.lookahead = std::min(f.lookahead, edge_delay_ns(g_, map_, model_, u, w, kinds[i]));
    }
  }

  void hops_of(VertexId c, Found& f) const {
    const CopyPlan& plan = copies_.plans[g_.payload(c)];
    if (plan.path_slot == CopyPlan::kRemoved) return;
    const std::uint32_t nodes = map_.model_nodes();
    const auto& hops = copies_.path_of(plan).hops;
    std::uint32_t before = me_;
    TimeNs last = 0;
    for (std::uint32_t h = 0; h < hops.size(); ++h) {
      const std::uint32_t node = copies_.hop_node(model_, plan, h);
      const std::uint64_t key = std::uint64_t{hops[h]} * nodes + node;
      const std::uint32_t block = p_.of_node[node];
      const TimeNs duration = hop_ns(g_, model_, timing_, hops[h], c);
      auto [it, fresh] = f.instances.try_emplace(key, InstanceHops{key, duration, 0});
      it->second.least = std::min(it->second.least, duration);
      if (h == 0 && block != before) it->second.shared = 1;
      if (h > 0 && block != before) f.lookahead = std::min(f.lookahead, last);
      before = block;
      last = duration;
    }
    if (before != me_) f.lookahead = std::min(f.lookahead, last);
  }

  const LocalGraph& local_;
  const graph::EventGraph& g_;
  const MachineMap& map_;
  const machine::MachineModel& model_;
  const CopyPlans& copies_;
  const TaskTiming timing_;
  const Partition& p_;
  const std::uint32_t me_;
};

Partition no_split(const char* why) {
  Partition none;
  none.why_not = why;
  return none;
}

}  // namespace

Partition partition_from_parts(const LocalGraph& local, const MachineMap& map, const ModelNodeRanks& node_ranks,
                               const machine::MachineModel& model, const CopyPlans& copies, Noise noise,
                               PartRounds& rounds, std::string& why) {
  const std::uint32_t ranks = rounds.ranks(), me = rounds.rank(), nodes = map.model_nodes();
  Partition p;
  p.count = ranks;
  p.of_node.resize(nodes);
  for (std::uint32_t n = 0; n < nodes; ++n) p.of_node[n] = static_cast<std::uint8_t>(node_ranks.of_node.at(n));
  p.of_vertex = local.owner;
  const Found mine = OwnChecks(local, map, model, copies, noise, p, me).run();

  ByteWriter w;
  w.put_text(mine.why_not);
  w.put<TimeNs>(mine.lookahead);
  std::vector<InstanceHops> instances;
  for (const auto& [key, hops] : mine.instances) instances.push_back(hops);
  w.put_all<InstanceHops>(instances);
  const std::vector<std::byte> said = w.take();
  std::vector<std::vector<std::byte>> to_each(ranks, said);
  const std::vector<std::vector<std::byte>> heard = rounds.exchange(std::move(to_each));

  // Every rank joins the same findings: the lowest rank's reason, the least lookahead, each instance's least hop.
  why.clear();
  TimeNs lookahead = kNoTime;
  std::map<std::uint64_t, InstanceHops> all;
  for (std::uint32_t r = 0; r < ranks; ++r) {
    ByteReader in(r == me ? std::span<const std::byte>(said) : std::span<const std::byte>(heard[r]));
    std::string reason = in.get_text();
    if (why.empty() && !reason.empty()) why = std::move(reason);
    lookahead = std::min(lookahead, in.get<TimeNs>());
    for (const InstanceHops& x : in.get_all<InstanceHops>()) {
      auto [it, fresh] = all.try_emplace(x.key, x);
      it->second.least = std::min(it->second.least, x.least);
      it->second.shared |= x.shared;
    }
  }
  if (!why.empty()) return no_split("the ranks' parts cannot be split");
  p.shared_instance.assign(std::size_t{model.channels.size()} * nodes, 0);
  p.least_hop = kNoTime;
  for (const auto& [key, x] : all)
    if (x.shared) {
      p.shared_instance[key] = 1;
      p.least_hop = std::min(p.least_hop, x.least);
    }
  p.lookahead = std::min(lookahead, p.least_hop);
  if (p.lookahead <= 0) {
    why = "something crosses blocks without delay";
    return no_split("something crosses blocks without delay");
  }
  return p;
}

}  // namespace rr::replay
