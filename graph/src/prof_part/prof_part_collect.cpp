// Step 1 of the Legion Prof part build: this rank's files read into what the whole build makes of each record
// (graph/src/prof/prof_graph_builder.cpp, add_work and add_pass_through), before anything is known of the other
// processes' files: which of its producers come first, which instance a profiling response is about, the ids.
#include <algorithm>

#include "graph/prof_graph_builder.hpp"
#include "graph/src/prof/merged_results.hpp"
#include "graph/src/prof_part/prof_part_builder.hpp"

namespace rr::graph::prof_part {

namespace {

std::uint32_t node_of_file(const core::FileRecords& f) { return f.node < 0 ? kNoNode : static_cast<std::uint32_t>(f.node); }

std::uint32_t function_of(const core::ProfWorkItem& w) {
  switch (w.kind) {
    case core::ProfWorkKind::meta_task:
    case core::ProfWorkKind::message: return kMetaFunction + w.function;
    case core::ProfWorkKind::partition: return kPartitionFunction + w.function;
    case core::ProfWorkKind::prof_task: return kProfilerFunction;
    default: return w.function;
  }
}

}  // namespace

void ProfPartBuilder::collect() {
  for (std::uint32_t fi = 0; fi < files_.records->files.size(); ++fi) {
    collect_work(fi);
    collect_passing(fi);
  }
  for (const LocalOp& op : ops_)
    if (op.stage == 0 && !op.outside && op.start != kNoTime && (earliest_start_ == kNoTime || op.start < earliest_start_))
      earliest_start_ = op.start;
}

// Work items, copies and fills, as add_work makes them; a profiling response's instance and a work item's waits wait
// for the directory (whether the item is the first producer of its finish event).
void ProfPartBuilder::collect_work(std::uint32_t fi) {
  const core::FileRecords& f = file(fi);
  const core::ProfileRecords& p = f.profile;
  const std::uint32_t file_node = node_of_file(f), whole = whole_file(fi);
  for (std::uint32_t i = 0; i < p.instances.size(); ++i)
    if (!p.instances[i].creator.is_none())
      instances_.push_back({p.instances[i].inst_uid.id, p.instances[i].creator.id, p.instances[i].create,
                            std::uint64_t{whole} << 40 | i});
  std::vector<SilentWindow> silences;
  if (options_.traced_cores > 0) silences = silent_windows(p);
  const std::vector<TimeNs> not_worked = span_time_not_worked(p, options_.traced_cores, silences);
  if (!silences.empty()) silences_[file_node] = std::move(silences);
  std::uint32_t seq = 0, wait_seq = 0;
  for (std::size_t wi = 0; wi < p.work.size(); ++wi) {
    const core::ProfWorkItem& w = p.work[wi];
    const bool background = w.kind == core::ProfWorkKind::partition || w.kind == core::ProfWorkKind::prof_task;
    LocalOp op;
    op.kind = background ? OpKind::background : OpKind::task;
    op.file = fi;
    op.seq = seq++;
    op.node = background || w.proc.value() == 0 ? file_node : core::realm_node_of(w.proc.value());
    op.event = w.fevent;
    op.outside = w.kind == core::ProfWorkKind::implicit_task || w.kind == core::ProfWorkKind::prof_task;
    op.start = w.start;
    op.end = w.stop;
    op.ready = w.ready;
    op.launched = w.kind == core::ProfWorkKind::message && w.extra != core::kNoIndex ? p.spawns[w.extra].spawn : w.create;
    op.critical = w.critical;
    op.creator = w.creator;
    // A profiling response: about an instance (its creator then launches it, the directory says) or not (its
    // creator is then its precondition); the whole build's rule is in prof_graph_builder.cpp.
    op.profiler = w.kind == core::ProfWorkKind::prof_task;
    op.detail = static_cast<std::uint32_t>(tasks_.size());
    TaskInfo t;
    t.func_id = function_of(w);
    t.processor = w.proc;
    t.time_ns = std::max<TimeNs>(0, w.stop - w.start) - not_worked[wi];
    tasks_.push_back(t);
    for (std::uint32_t k = 0; k < w.wait_count && !background; ++k) {
      const core::ProfWait& pw = p.waits[w.first_wait + k];
      waits_.push_back({static_cast<std::uint32_t>(ops_.size()), pw.wait_event, pw.wait_start, pw.wait_end,
                        order_key(0, whole, wait_seq++)});
    }
    ops_.push_back(op);
  }
  auto add_copy = [&](const auto& c, core::Handle src, core::Handle dst) {
    LocalOp op;
    op.kind = OpKind::copy;
    op.file = fi;
    op.seq = seq++;
    op.node = file_node;
    op.event = c.fevent;
    op.start = c.start;
    op.end = c.stop;
    op.ready = c.ready;
    op.launched = c.create;
    op.critical = c.critical;
    op.creator = c.creator;
    op.detail = static_cast<std::uint32_t>(copies_.size());
    copies_.push_back({src, dst, c.size});
    ops_.push_back(op);
  };
  for (const auto& c : p.copies) {
    const auto [src, dst] = core::copy_endpoints(p, c);
    add_copy(c, src, dst);
  }
  for (const auto& c : p.fills) {
    const core::Handle dst = core::fill_destination(p, c);
    add_copy(c, dst, dst);
  }
}

// Mergers and completion queues (one vertex per result, however many records), triggers and the like (dropped
// when another record gave their result first: the directory says), and arrivals (one of the records of an arrival
// that both processes logged: the directory says).
void ProfPartBuilder::collect_passing(std::uint32_t fi) {
  const core::FileRecords& f = file(fi);
  const core::ProfileRecords& p = f.profile;
  const std::uint32_t file_node = node_of_file(f), whole = whole_file(fi);
  std::uint32_t seq = 0, input_seq = 0;
  auto group = [&](const std::vector<core::ProfEventMerger>& records, OpKind kind) {
    for_each_merged_result(records, [&](std::size_t i, const std::vector<std::uint64_t>& inputs) {
      LocalOp op;
      op.kind = kind;
      op.stage = 1;
      op.file = fi;
      op.seq = seq++;
      op.node = file_node;
      op.event = records[i].result;
      op.creator = records[i].fevent;
      op.launched = records[i].performed;
      op.detail = static_cast<std::uint32_t>(inputs.size());
      for (std::uint64_t in : inputs)
        inputs_.push_back({static_cast<std::uint32_t>(ops_.size()), ProfEvent{in}, std::uint64_t{whole} << 40 | input_seq++});
      ops_.push_back(op);
    });
  };
  group(p.mergers, OpKind::merge);
  group(p.completion_queues, OpKind::first_of);
  auto trigger = [&](ProfEvent result, ProfEvent precondition, ProfEvent by, TimeNs at) {
    LocalOp op;
    op.kind = OpKind::trigger;
    op.stage = 1;
    op.trigger = true;
    op.file = fi;
    op.seq = seq++;
    op.node = file_node;
    op.event = result;
    op.critical = precondition;
    op.end = at;  // when it was performed
    op.creator = by;
    op.launched = at;
    ops_.push_back(op);
  };
  for (const auto& t : p.triggers) trigger(t.result, t.precondition, t.fevent, t.performed);
  for (const auto& t : p.poisons) trigger(t.result, {}, t.fevent, t.performed);
  for (const auto& t : p.reservation_acquires) trigger(t.result, t.precondition, t.fevent, t.performed);
  for (const auto& t : p.instance_readies) trigger(t.result, t.precondition, {}, t.performed);
  for (const auto& t : p.instance_redistricts) trigger(t.result, t.precondition, {}, t.performed);
  for (std::uint32_t i = 0; i < p.arrivals.size(); ++i) {
    const auto& a = p.arrivals[i];
    LocalOp op;
    op.kind = OpKind::barrier_arrive;
    op.stage = 2;
    op.file = fi;
    op.seq = i;
    op.node = file_node;
    op.event = a.result;
    op.critical = a.precondition;
    op.end = a.performed;
    op.creator = a.fevent;
    op.launched = a.performed;
    ops_.push_back(op);
  }
}

}  // namespace rr::graph::prof_part
