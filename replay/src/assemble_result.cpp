#include "replay/src/assemble_result.hpp"

#include <algorithm>
#include <string>
#include <tuple>

#include "core/saturating.hpp"
#include "replay/timeline_order.hpp"

namespace rr::replay {

namespace {

using graph::EdgeKind;
using graph::OpKind;
using graph::VertexId;

struct InEdge {
  VertexId from;
  EdgeKind kind;
};

// The in-edges of a few vertices (ascending), in order of their sources: one pass along the forward edges,
// rather than the graph's reverse CSR, which a replay does not otherwise need.
std::vector<std::vector<InEdge>> inputs_of(const graph::EventGraph& g, const std::vector<VertexId>& vertices) {
  std::vector<std::vector<InEdge>> inputs(vertices.size());
  if (vertices.empty()) return inputs;
  const VertexId n = g.vertex_count();
  for (VertexId u = 0; u < n; ++u) {
    auto succ = g.successors(u);
    auto kinds = g.successor_kinds(u);
    for (std::size_t i = 0; i < succ.size(); ++i)
      if (auto at = std::lower_bound(vertices.begin(), vertices.end(), succ[i]); at != vertices.end() && *at == succ[i])
        inputs[static_cast<std::size_t>(at - vertices.begin())].push_back({u, kinds[i]});
  }
  return inputs;
}

std::string why_stuck(const graph::EventGraph& g, const SharedState& shared, VertexId v,
                      const std::vector<InEdge>& inputs) {
  const OperationRecords& ops = shared.r.ops;
  std::string what = std::string(graph::op_kind_name(g.kind(v))) + " " + core::to_string(g.event(v));
  if (g.kind(v) == OpKind::barrier_phase) {
    const PhaseState& s = shared.phase[g.payload(v)];
    if (!s.previous_done) return what + ": the previous phase never completed";
    return what + ": needs " + std::to_string(g.phase(v).required) + " arrivals, got " + std::to_string(s.arrived);
  }
  // The input that never came: of the inputs (the lowest first), one that is not its issue, else its issuer
  // that never started.
  for (const bool issue : {false, true})
    for (const InEdge& in : inputs)
      if ((in.kind == EdgeKind::issue) == issue && !ops.ended(in.from) && (!issue || !ops.started(in.from)))
        return what + ": waits on " + graph::op_kind_name(g.kind(in.from)) + " " + core::to_string(g.event(in.from)) +
               " (" + graph::edge_kind_name(in.kind) + "), which never completed";
  if (ops.pending(v) == 0) return what + ": ready but its processor was held by a waiting task";
  return what + ": never became ready";
}

}  // namespace

// Orders that do not depend on which instance a replay happened to use first, nor on which block used it, so a
// replay on any number of blocks lists them alike.
void list_channels_and_intervals(const MachineMap& map, ReplayResult& r, std::vector<BlockOutput>& outputs) {
  struct Listed {
    std::uint32_t block, inst;
  };
  std::vector<Listed> order;
  for (std::uint32_t b = 0; b < outputs.size(); ++b)
    for (std::uint32_t i = 0; i < outputs[b].instances.size(); ++i) order.push_back({b, i});
  auto instance_of = [&](const Listed& l) -> const ChannelInstance& { return outputs[l.block].instances[l.inst]; };
  std::sort(order.begin(), order.end(), [&](const Listed& a, const Listed& b) {
    return std::tie(instance_of(a).channel, instance_of(a).node) < std::tie(instance_of(b).channel, instance_of(b).node);
  });
  std::vector<std::vector<std::uint32_t>> place(outputs.size());
  for (std::uint32_t b = 0; b < outputs.size(); ++b) place[b].resize(outputs[b].instances.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) {
    const ChannelInstance& ci = instance_of(order[i]);
    place[order[i].block][order[i].inst] = i;
    r.channels.push_back({ci.channel, ci.node, ci.busy_ns, ci.transfers, ci.bytes});
  }
  const auto processors = static_cast<std::uint32_t>(map.processors().size());
  for (std::uint32_t b = 0; b < outputs.size(); ++b) {
    for (Interval in : outputs[b].tally.intervals) {
      if (in.track >= processors) in.track = processors + place[b][in.track - processors];
      r.intervals.push_back(in);
    }
    outputs[b].tally.intervals = {};
  }
  std::sort(r.intervals.begin(), r.intervals.end(), timeline_before);
}

void order_start_ups(std::vector<StartUp>& start_ups) {
  // A processor starts up once, so (begin, node, processor) tells any two apart, start-ups of no length included.
  std::sort(start_ups.begin(), start_ups.end(), [](const StartUp& a, const StartUp& b) {
    return std::tie(a.from, a.node, a.processor) < std::tie(b.from, b.node, b.processor);
  });
}

void assemble_result(const graph::EventGraph& g, const MachineMap& map, std::size_t stuck_examples,
                     SharedState& shared, std::vector<BlockOutput>& outputs) {
  ReplayResult& r = shared.r;
  for (BlockOutput& out : outputs)
    r.start_ups.insert(r.start_ups.end(), out.tally.start_ups.begin(), out.tally.start_ups.end());
  order_start_ups(r.start_ups);
  const std::vector<std::string>& path_names = shared.copies.path_names;
  std::vector<PathUsage> usage(path_names.size());
  for (BlockOutput& out : outputs) {
    const ReplayResult& t = out.tally;
    r.operations += t.operations;
    r.last_end_ns = std::max(r.last_end_ns, t.last_end_ns);
    r.makespan_ns = std::max(r.makespan_ns, t.makespan_ns);
    r.clamped_waits += t.clamped_waits;
    r.measured_waits += t.measured_waits;
    r.measured_wait_ns = core::saturating_add(r.measured_wait_ns, t.measured_wait_ns);
    r.implied_copies += t.implied_copies;
    r.implied_copy_ns = core::saturating_add(r.implied_copy_ns, t.implied_copy_ns);
    for (std::size_t slot = 0; slot < out.path_usage.size(); ++slot) usage[slot].add(out.path_usage[slot]);
  }
  for (std::size_t slot = 0; slot < usage.size(); ++slot)
    if (usage[slot].copies) r.paths[path_names[slot]] = usage[slot];
  list_channels_and_intervals(map, r, outputs);
  if (r.cut_off) return;  // what did not finish was cut off, not stuck
  std::vector<VertexId> examples;
  const VertexId n = g.vertex_count();
  for (VertexId v = 0; v < n; ++v) {
    if (r.ops.ended(v)) continue;
    ++r.stuck;
    if (examples.size() < stuck_examples) examples.push_back(v);
  }
  r.stuck_examples = describe_stuck(g, shared, examples);
}

std::vector<StuckExample> describe_stuck(const graph::EventGraph& g, const SharedState& shared,
                                         const std::vector<VertexId>& vertices) {
  const std::vector<std::vector<InEdge>> inputs = inputs_of(g, vertices);
  std::vector<StuckExample> out;
  for (std::size_t i = 0; i < vertices.size(); ++i) out.push_back({vertices[i], why_stuck(g, shared, vertices[i], inputs[i])});
  return out;
}

}  // namespace rr::replay
