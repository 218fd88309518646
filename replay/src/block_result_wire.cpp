#include "replay/src/block_result_wire.hpp"

#include <stdexcept>

#include "replay/byte_wire.hpp"
#include "replay/src/network_pump.hpp"

namespace rr::replay {

namespace {

using graph::OpKind;
using graph::VertexId;

// One operation's record, as the block that owns it left it.
struct OperationWire {
  TimeNs ready, start, end;  // start and end kNever when it never did
  VertexId released_by;
  std::uint32_t pending;     // inputs still to come, of one that never started
  std::uint32_t processor;   // ReplayResult::processor_of
  Release release;
};

struct ChannelWire {
  std::uint32_t channel, node;
  TimeNs busy_ns;
  std::uint64_t transfers, bytes;
};

OperationWire wire_of(const ReplayResult& r, VertexId v) {
  return {r.ops.ready(v), r.ops.start(v), r.ops.end(v), r.ops.released_by(v), r.ops.pending(v), r.processor_of[v],
          r.ops.release(v)};
}

void lay_operation(OperationRecords& ops, VertexId v, const OperationWire& w) {
  ops.forget(v);
  ops.set_ready(v, w.ready);
  if (w.start != kNever) {
    ops.start_at(v, w.start);
    if (w.end != kNever) ops.end_at(v, w.end);
  } else {
    ops.set_pending(v, w.pending);
  }
  ops.set_release(v, w.released_by, w.release);
}

// visit(v) on the operations block `block` owns, in vertex order: both ends list them alike.
template <typename Visit>
void owned(const graph::EventGraph& g, const Partition& p, std::uint32_t block, Visit&& visit) {
  for (VertexId v = 0; v < g.vertex_count(); ++v)
    if (p.of_vertex[v] == block) visit(v);
}

// visit(p) on the processors of block `block`'s nodes, in index order.
template <typename Visit>
void processors_of(const MachineMap& map, const Partition& p, std::uint32_t block, Visit&& visit) {
  for (std::uint32_t i = 0; i < map.processors().size(); ++i)
    if (p.of_node[map.processors()[i].node] == block) visit(i);
}

}  // namespace

std::vector<CopyStart> copies_started_for_others(const graph::EventGraph& g, const Partition& p, std::uint32_t block,
                                                 const OperationRecords& ops) {
  std::vector<CopyStart> starts;
  for (VertexId v = 0; v < g.vertex_count(); ++v)
    if (p.of_vertex[v] != block && g.kind(v) == OpKind::copy && ops.started(v)) starts.push_back({v, ops.start(v)});
  return starts;
}

std::vector<std::byte> pack_block_result(const graph::EventGraph& g, const MachineMap& map, const Partition& p,
                                         std::uint32_t block, const SharedState& shared, const BlockOutput& out) {
  const ReplayResult& r = shared.r;
  ByteWriter w;
  w.put(WireKind::result);
  std::vector<OperationWire> ops;
  std::vector<PhaseState> phases;
  owned(g, p, block, [&](VertexId v) {
    ops.push_back(wire_of(r, v));
    if (g.kind(v) == OpKind::barrier_phase) phases.push_back(shared.phase[g.payload(v)]);
  });
  w.put_all<OperationWire>(ops);
  w.put_all<PhaseState>(phases);
  std::vector<ProcessorUsage> processors;
  processors_of(map, p, block, [&](std::uint32_t i) { processors.push_back(r.processors[i]); });
  w.put_all<ProcessorUsage>(processors);
  const ReplayResult& t = out.tally;
  for (const auto value : {t.operations, t.clamped_waits, t.measured_waits, t.implied_copies}) w.put(value);
  for (const TimeNs value : {t.last_end_ns, t.makespan_ns, t.measured_wait_ns, t.implied_copy_ns}) w.put(value);
  std::vector<ChannelWire> channels;
  for (const ChannelInstance& ci : out.instances) channels.push_back({ci.channel, ci.node, ci.busy_ns, ci.transfers, ci.bytes});
  w.put_all<ChannelWire>(channels);
  w.put_all<PathUsage>(out.path_usage);
  return w.take();
}

BlockOutput unpack_block_result(const graph::EventGraph& g, const MachineMap& map, const Partition& p,
                                std::uint32_t block, std::span<const std::byte> bytes, SharedState& shared) {
  ReplayResult& r = shared.r;
  ByteReader in(bytes);
  in.get<WireKind>();
  const auto ops = in.get_all<OperationWire>();
  const auto phases = in.get_all<PhaseState>();
  std::size_t op = 0, phase = 0;
  owned(g, p, block, [&](VertexId v) {
    if (op == ops.size()) throw std::logic_error("replay over ranks: a block's result lacks operations");
    lay_operation(r.ops, v, ops[op]);
    r.processor_of[v] = ops[op++].processor;
    if (g.kind(v) == OpKind::barrier_phase) {
      if (phase == phases.size()) throw std::logic_error("replay over ranks: a block's result lacks phases");
      shared.phase[g.payload(v)] = phases[phase++];
    }
  });
  const auto processors = in.get_all<ProcessorUsage>();
  std::size_t at = 0;
  processors_of(map, p, block, [&](std::uint32_t i) { r.processors[i] = processors.at(at++); });
  BlockOutput out;
  ReplayResult& t = out.tally;
  for (auto* value : {&t.operations, &t.clamped_waits, &t.measured_waits, &t.implied_copies}) *value = in.get<std::uint64_t>();
  for (TimeNs* value : {&t.last_end_ns, &t.makespan_ns, &t.measured_wait_ns, &t.implied_copy_ns}) *value = in.get<TimeNs>();
  for (const ChannelWire& c : in.get_all<ChannelWire>()) out.instances.push_back({c.channel, c.node, 0, false, {}, c.busy_ns, c.transfers, c.bytes});
  out.path_usage = in.get_all<PathUsage>();
  if (!in.done() || op != ops.size()) throw std::logic_error("replay over ranks: a block's result does not match its part");
  return out;
}

void lay_copy_starts(const std::vector<CopyStart>& starts, OperationRecords& ops) {
  for (const auto& [c, start] : starts) {
    // The copy's own block readied it and ended it (starting it then, as it did not run the first hop).
    const TimeNs end = ops.ended(c) ? ops.end(c) : kNever;
    lay_operation(ops, c, {ops.ready(c), start, end, ops.released_by(c), 0, ~0u, ops.release(c)});
  }
}

}  // namespace rr::replay
