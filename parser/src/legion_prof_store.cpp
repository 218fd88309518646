// Storing decoded Legion Prof records: per-kind arrays, children joined to the record just before them.
#include "parser/src/legion_prof_store.hpp"

#include "core/saturating.hpp"
#include "parser/byte_source.hpp"

namespace rr::parser::prof {
namespace {

using R = Role;

// Realm's node ids have 16 bits: no run has more processes than this.
constexpr std::uint32_t kMaxProfNodes = std::uint32_t{1} << 16;

// The values a record must hold before it is stored, checked where it is read so that the error names its type
// and its offset; nothing later has to guard against them. Times are nanoseconds since the run's zero time and
// lie in [0, 2^60) (core::kTimeCeilingNs, 36 years): a negative, huge or reversed time would make negative
// busy times, a makespan of 0 or an estimate that only a later step refuses.
class RecordCheck {
 public:
  RecordCheck(std::string_view record, std::uint64_t offset) : record_(record), offset_(offset) {}

  core::TimeNs time(const FieldView& f, Role r) const {
    const core::TimeNs t = f.i64(r);
    if (t < 0 || t >= core::kTimeCeilingNs)
      refuse(field(r) + " " + std::to_string(t) + " ns is outside [0, 2^60) ns");
    return t;
  }
  // `earlier` and `later` are two times of the record that the run took in that order.
  void ordered(Role earlier, core::TimeNs a, Role later, core::TimeNs b) const {
    if (a > b)
      refuse(field(earlier) + " (" + std::to_string(a) + " ns) is after " + field(later) + " (" +
             std::to_string(b) + " ns)");
  }
  // Bytes a copy or fill moves, bounded like runtime.default_copy_bytes: a derived bandwidth stays meaningful.
  std::uint64_t bytes(const FieldView& f, Role r) const {
    const std::uint64_t n = f.u64(r);
    if (n > core::kMaxProfCopyBytes) refuse(field(r) + " " + std::to_string(n) + " bytes is more than 2^50 bytes");
    return n;
  }
  [[noreturn]] void refuse(const std::string& what) const {
    throw SourceError(std::string(record_) + " record: " + what, 0, offset_);
  }

 private:
  static std::string field(Role r) { return std::string(kRoles[static_cast<std::size_t>(r)].name); }

  std::string_view record_;
  std::uint64_t offset_;
};

core::ProfEvent event(const FieldView& f, Role r) { return core::ProfEvent{f.u64(r)}; }
core::Handle handle(const FieldView& f, Role r) { return core::Handle::make(f.u64(r)); }

bool is_task(core::ProfWorkKind k) {
  return k == core::ProfWorkKind::task || k == core::ProfWorkKind::gpu_task || k == core::ProfWorkKind::implicit_task;
}
bool is_meta(core::ProfWorkKind k) { return k == core::ProfWorkKind::meta_task || k == core::ProfWorkKind::message; }

template <typename T>
void shrink(std::vector<T>& v) {
  if (v.capacity() - v.size() > v.size() / 8) v.shrink_to_fit();
}

}  // namespace

std::uint32_t ProfRecordStore::intern(std::string_view s) {
  auto [it, added] = strings_.try_emplace(std::string(s), static_cast<std::uint32_t>(out_.strings.size()));
  if (added) out_.strings.emplace_back(s);
  return it->second;
}

void ProfRecordStore::note(core::Stat stat, std::uint64_t offset, std::string message) {
  ++out_.counts[stat];
  if (out_.join_messages.size() >= max_messages_) return;
  core::Diagnostic d;
  d.stat = stat;
  d.where.decoded_offset = offset;  // the file is named by the caller, which knows it
  d.message = std::move(message);
  out_.join_messages.push_back(std::move(d));
}

void ProfRecordStore::add(Kept kept, const FieldView& f, std::uint64_t offset) {
  using K = core::ProfWorkKind;
  switch (kept) {
    case Kept::task_info: return add_work(K::task, f, offset);
    case Kept::gpu_task_info: return add_work(K::gpu_task, f, offset);
    case Kept::implicit_task_info: return add_work(K::implicit_task, f, offset);
    case Kept::meta_info: return add_work(K::meta_task, f, offset);
    case Kept::message_info: return add_work(K::message, f, offset);
    case Kept::partition_info: return add_work(K::partition, f, offset);
    case Kept::prof_task_info: return add_work(K::prof_task, f, offset);
    case Kept::task_wait_info: return add_wait(true, f, offset);
    case Kept::meta_wait_info: return add_wait(false, f, offset);
    case Kept::copy_inst_info: return add_copy_inst(f, offset);
    case Kept::fill_inst_info: return add_fill_inst(f, offset);
    case Kept::copy_info: return add_copy(f, offset);
    case Kept::fill_info: return add_fill(f, offset);
    case Kept::inst_timeline_info: add_instance(f, offset); break;
    case Kept::machine_desc:
    case Kept::zero_time:
    case Kept::calibration_err:
    case Kept::proc_desc:
    case Kept::mem_desc:
    case Kept::proc_mem_desc: add_machine_record(kept, f, offset); break;
    case Kept::task_kind:
    case Kept::task_variant:
    case Kept::meta_desc:
    case Kept::op_desc:
    case Kept::operation_instance: add_names(kept, f); break;
    case Kept::event_wait_info:
    case Kept::event_merger_info:
    case Kept::event_trigger_info:
    case Kept::event_poison_info:
    case Kept::barrier_arrival_info:
    case Kept::reservation_acquire_info:
    case Kept::instance_ready_info:
    case Kept::instance_redistrict_info:
    case Kept::completion_queue_info: add_events(kept, f, offset); break;
    case Kept::max_dim_desc:  // read by the reader, which sizes records with it
    case Kept::none: break;
  }
  parent_ = Parent{};
}

void ProfRecordStore::add_work(core::ProfWorkKind kind, const FieldView& f, std::uint64_t offset) {
  using K = core::ProfWorkKind;
  const RecordCheck check(core::prof_work_kind_record(kind), offset);
  core::ProfWorkItem w{};
  w.kind = kind;
  w.op_id = f.u64(R::op_id);
  w.proc = handle(f, R::proc_id);
  w.fevent = event(f, R::fevent);
  w.creator = event(f, R::creator);
  w.critical = event(f, R::critical);  // ProfTaskInfo has none: 0
  w.start = check.time(f, R::start);
  w.stop = check.time(f, R::stop);
  check.ordered(R::start, w.start, R::stop, w.stop);
  // ProfTaskInfo logs no create or ready time; taking its start keeps create <= ready <= start.
  w.create = kind == K::prof_task ? w.start : check.time(f, R::create);
  w.ready = kind == K::prof_task ? w.start : check.time(f, R::ready);
  switch (kind) {
    case K::task:
    case K::gpu_task:
    case K::implicit_task:
      w.function = f.u32(R::task_id);
      w.variant = f.u32(R::variant_id);
      break;
    case K::meta_task:
    case K::message: w.function = f.u32(R::lg_id); break;
    case K::partition: w.function = f.u32(R::part_op); break;
    case K::prof_task: w.completion = f.flag(R::completion); break;
  }
  w.first_wait = static_cast<std::uint32_t>(out_.waits.size());
  w.extra = core::kNoIndex;
  const auto index = static_cast<std::uint32_t>(out_.work.size());
  if (kind == K::gpu_task) {
    const core::ProfGpuTime kernel{index, check.time(f, R::gpu_start), check.time(f, R::gpu_stop)};
    check.ordered(R::gpu_start, kernel.gpu_start, R::gpu_stop, kernel.gpu_stop);
    w.extra = static_cast<std::uint32_t>(out_.gpu_times.size());
    out_.gpu_times.push_back(kernel);
  } else if (kind == K::message) {
    w.extra = static_cast<std::uint32_t>(out_.spawns.size());
    out_.spawns.push_back({index, check.time(f, R::spawn)});
  }
  out_.work.push_back(w);
  parent_ = {Parent::Of::work, index};
}

void ProfRecordStore::add_wait(bool task_wait, const FieldView& f, std::uint64_t offset) {
  const std::string_view record = kept_record_name(task_wait ? Kept::task_wait_info : Kept::meta_wait_info);
  const RecordCheck check(record, offset);
  core::ProfWait w{};
  w.op_id = f.u64(R::op_id);
  w.function = f.u32(task_wait ? R::task_id : R::lg_id);
  w.wait_event = event(f, R::wait_event);
  w.wait_start = check.time(f, R::wait_start);
  w.wait_ready = check.time(f, R::wait_ready);
  w.wait_end = check.time(f, R::wait_end);
  check.ordered(R::wait_start, w.wait_start, R::wait_end, w.wait_end);
  w.item = core::kNoIndex;
  if (parent_.of == Parent::Of::work) {
    core::ProfWorkItem& item = out_.work[parent_.index];
    if (task_wait ? is_task(item.kind) : is_meta(item.kind)) {
      w.item = parent_.index;
      if (item.wait_count++ == 0) item.first_wait = static_cast<std::uint32_t>(out_.waits.size());
      if (item.op_id != w.op_id) {
        note(core::Stat::waits_other_op, offset,
             std::string(record) + " of op " + std::to_string(w.op_id) + " follows a " +
                 std::string(core::prof_work_kind_record(item.kind)) + " of op " + std::to_string(item.op_id) +
                 " (attached to it all the same)");
      }
    }
  }
  if (w.item == core::kNoIndex) {
    note(core::Stat::waits_unattached, offset,
         std::string(record) + " of op " + std::to_string(w.op_id) + " does not follow a " +
             (task_wait ? "task" : "meta-task or message") + " record: not attached to any");
  }
  out_.waits.push_back(w);
}

// The fields CopyInfo and FillInfo share, read and checked alike.
template <typename Transfer>
void read_transfer(const RecordCheck& check, const FieldView& f, Transfer& c) {
  c.op_id = f.u64(R::op_id);
  c.size = check.bytes(f, R::size);
  c.fevent = event(f, R::fevent);
  c.creator = event(f, R::creator);
  c.critical = event(f, R::critical);
  c.create = check.time(f, R::create);
  c.ready = check.time(f, R::ready);
  c.start = check.time(f, R::start);
  c.stop = check.time(f, R::stop);
  check.ordered(R::start, c.start, R::stop, c.stop);
}

void ProfRecordStore::add_copy(const FieldView& f, std::uint64_t offset) {
  const RecordCheck check(kept_record_name(Kept::copy_info), offset);
  core::ProfCopy c{};
  read_transfer(check, f, c);
  c.collective = f.u32(R::collective);
  c.first_inst = static_cast<std::uint32_t>(out_.copy_insts.size());
  parent_ = {Parent::Of::copy, static_cast<std::uint32_t>(out_.copies.size())};
  out_.copies.push_back(c);
}

void ProfRecordStore::add_fill(const FieldView& f, std::uint64_t offset) {
  const RecordCheck check(kept_record_name(Kept::fill_info), offset);
  core::ProfFill c{};
  read_transfer(check, f, c);
  c.first_inst = static_cast<std::uint32_t>(out_.fill_insts.size());
  parent_ = {Parent::Of::fill, static_cast<std::uint32_t>(out_.fills.size())};
  out_.fills.push_back(c);
}

void ProfRecordStore::add_instance(const FieldView& f, std::uint64_t offset) {
  const RecordCheck check(kept_record_name(Kept::inst_timeline_info), offset);
  core::ProfInstance i{};
  i.inst_uid = event(f, R::inst_uid);
  i.inst_id = f.u64(R::inst_id);
  i.mem = handle(f, R::mem_id);
  i.size = f.u64(R::size);
  i.op_id = f.u64(R::op_id);
  i.create = check.time(f, R::create);
  i.ready = check.time(f, R::ready);
  i.destroy = check.time(f, R::destroy);
  check.ordered(R::create, i.create, R::destroy, i.destroy);
  i.creator = event(f, R::creator);
  out_.instances.push_back(i);
}

void ProfRecordStore::add_copy_inst(const FieldView& f, std::uint64_t offset) {
  core::ProfCopyInst c{};
  c.src_mem = handle(f, R::src);
  c.dst_mem = handle(f, R::dst);
  c.src_fid = f.u32(R::src_fid);
  c.dst_fid = f.u32(R::dst_fid);
  c.src_inst = event(f, R::src_inst);
  c.dst_inst = event(f, R::dst_inst);
  c.fevent = event(f, R::fevent);
  c.num_hops = f.u32(R::num_hops);
  c.indirect = f.flag(R::indirect);
  c.copy = core::kNoIndex;
  if (parent_.of == Parent::Of::copy && out_.copies[parent_.index].fevent == c.fevent) {
    core::ProfCopy& copy = out_.copies[parent_.index];
    if (copy.inst_count++ == 0) copy.first_inst = static_cast<std::uint32_t>(out_.copy_insts.size());
    c.copy = parent_.index;
  } else {
    note(core::Stat::copy_insts_unattached, offset,
         "CopyInstInfo of fevent " + core::hex(c.fevent.id) +
             " does not follow the CopyInfo of that fevent: not attached to any");
  }
  out_.copy_insts.push_back(c);
}

void ProfRecordStore::add_fill_inst(const FieldView& f, std::uint64_t offset) {
  core::ProfFillInst c{};
  c.dst_mem = handle(f, R::dst);
  c.fid = f.u32(R::fid);
  c.dst_inst = event(f, R::dst_inst);
  c.fevent = event(f, R::fevent);
  c.fill = core::kNoIndex;
  if (parent_.of == Parent::Of::fill && out_.fills[parent_.index].fevent == c.fevent) {
    core::ProfFill& fill = out_.fills[parent_.index];
    if (fill.inst_count++ == 0) fill.first_inst = static_cast<std::uint32_t>(out_.fill_insts.size());
    c.fill = parent_.index;
  } else {
    note(core::Stat::fill_insts_unattached, offset,
         "FillInstInfo of fevent " + core::hex(c.fevent.id) +
             " does not follow the FillInfo of that fevent: not attached to any");
  }
  out_.fill_insts.push_back(c);
}

void ProfRecordStore::check_machine(const FieldView& f, std::uint64_t offset) const {
  const RecordCheck check(kept_record_name(Kept::machine_desc), offset);
  const std::uint32_t num_nodes = f.u32(R::num_nodes);
  const std::uint32_t node_id = f.u32(R::node_id);
  // Each missing node is listed in reports: a count no Realm run can have would list billions.
  if (num_nodes == 0 || num_nodes > kMaxProfNodes)
    check.refuse("num_nodes " + std::to_string(num_nodes) + " is not a node count from 1 to " +
                 std::to_string(kMaxProfNodes) + " (Realm's node ids have 16 bits)");
  if (node_id >= num_nodes)
    check.refuse("node_id " + std::to_string(node_id) + " is not below num_nodes " + std::to_string(num_nodes));
}

void ProfRecordStore::add_machine_record(Kept kept, const FieldView& f, std::uint64_t offset) {
  switch (kept) {
    case Kept::machine_desc: {
      check_machine(f, offset);
      if (out_.machine) {
        ++out_.counts[core::Stat::repeated_machine_descs];
        return;
      }
      core::ProfMachine m;
      m.node_id = f.u32(R::node_id);
      m.num_nodes = f.u32(R::num_nodes);
      m.version = f.u32(R::version);
      m.process_id = f.u32(R::process_id);
      m.host_id = f.u64(R::host_id);
      if (f.has(R::hostname)) m.hostname = intern(f.str(R::hostname));
      out_.machine = m;
      return;
    }
    case Kept::zero_time:
      if (!out_.zero_time) out_.zero_time = f.i64(R::zero_time);
      return;
    case Kept::calibration_err:
      if (!out_.calibration_err) out_.calibration_err = f.i64(R::calibration_err);
      return;
    // Legion describes a processor or memory again with everything affine to it: keep the first.
    case Kept::proc_desc: {
      const core::ProfProcessor x{handle(f, R::proc_id), static_cast<core::RealmProcKind>(f.u32(R::kind))};
      auto [it, added] = processors_.try_emplace(x.id.value(), static_cast<std::uint32_t>(out_.processors.size()));
      if (added) {
        out_.processors.push_back(x);
        return;
      }
      ++out_.counts[core::Stat::repeated_processors];
      if (out_.processors[it->second].kind != x.kind) ++out_.counts[core::Stat::conflicting_descriptions];
      return;
    }
    case Kept::mem_desc: {
      const core::ProfMemory x{handle(f, R::mem_id), static_cast<core::RealmMemKind>(f.u32(R::kind)),
                               f.u64(R::capacity)};
      auto [it, added] = memories_.try_emplace(x.id.value(), static_cast<std::uint32_t>(out_.memories.size()));
      if (added) {
        out_.memories.push_back(x);
        return;
      }
      ++out_.counts[core::Stat::repeated_memories];
      const core::ProfMemory& first = out_.memories[it->second];
      if (first.kind != x.kind || first.capacity != x.capacity) ++out_.counts[core::Stat::conflicting_descriptions];
      return;
    }
    case Kept::proc_mem_desc: {
      const core::ProfAffinity a{handle(f, R::proc_id), handle(f, R::mem_id), f.u32(R::bandwidth), f.u32(R::latency)};
      auto [it, added] = affinities_.try_emplace({a.proc.value(), a.mem.value()},
                                                 static_cast<std::uint32_t>(out_.affinities.size()));
      if (added) {
        out_.affinities.push_back(a);
        return;
      }
      ++out_.counts[core::Stat::repeated_affinities];
      const core::ProfAffinity& first = out_.affinities[it->second];
      if (first.bandwidth != a.bandwidth || first.latency != a.latency)
        ++out_.counts[core::Stat::conflicting_descriptions];
      return;
    }
    default: return;
  }
}

void ProfRecordStore::add_names(Kept kept, const FieldView& f) {
  switch (kept) {
    case Kept::task_kind: {
      const std::uint32_t task_id = f.u32(R::task_id);
      const bool overwrite = f.flag(R::overwrite);
      const std::uint32_t name = intern(f.str(R::name));
      auto [it, added] = task_kind_index_.try_emplace(task_id, static_cast<std::uint32_t>(out_.task_kinds.size()));
      if (added) {
        out_.task_kinds.push_back({task_id, name, overwrite});
      } else if (overwrite) {  // Legion Prof's rule: the first name stays unless a later one overwrites it
        out_.task_kinds[it->second].name = name;
        out_.task_kinds[it->second].overwritten = true;
      }
      return;
    }
    case Kept::task_variant: {
      const std::uint32_t task_id = f.u32(R::task_id);
      const std::uint32_t variant_id = f.u32(R::variant_id);
      // The first description of a (task, variant) pair wins, as in Legion Prof.
      if (!variants_.insert((std::uint64_t{task_id} << 32) | variant_id).second) return;
      out_.task_variants.push_back({task_id, variant_id, intern(f.str(R::name))});
      return;
    }
    case Kept::meta_desc:
      out_.meta_kinds.push_back({f.u32(R::kind), intern(f.str(R::name)), f.flag(R::message), f.flag(R::ordered_vc)});
      return;
    case Kept::op_desc: out_.op_kinds.push_back({f.u32(R::kind), intern(f.str(R::name))}); return;
    case Kept::operation_instance:
      out_.operations.push_back({f.u64(R::op_id), f.u64(R::parent_id), f.u64(R::provenance), f.u32(R::kind)});
      return;
    default: return;
  }
}

void ProfRecordStore::add_events(Kept kept, const FieldView& f, std::uint64_t offset) {
  const RecordCheck check(kept_record_name(kept), offset);
  const auto performed = [&] { return check.time(f, R::performed); };
  switch (kept) {
    case Kept::event_wait_info:
      out_.event_waits.push_back(
          {handle(f, R::proc_id), event(f, R::fevent), event(f, R::wait_event), f.u64(R::backtrace_id)});
      return;
    case Kept::event_merger_info:
    case Kept::completion_queue_info: {
      const core::ProfEventMerger m{event(f, R::result), event(f, R::fevent), performed(),
                                    {event(f, R::pre0), event(f, R::pre1), event(f, R::pre2), event(f, R::pre3)}};
      (kept == Kept::event_merger_info ? out_.mergers : out_.completion_queues).push_back(m);
      return;
    }
    case Kept::event_trigger_info:
    case Kept::barrier_arrival_info: {
      const core::ProfEventTrigger t{event(f, R::result), event(f, R::fevent), event(f, R::precondition),
                                     performed()};
      (kept == Kept::event_trigger_info ? out_.triggers : out_.arrivals).push_back(t);
      return;
    }
    case Kept::event_poison_info:
      out_.poisons.push_back({event(f, R::result), event(f, R::fevent), performed()});
      return;
    case Kept::reservation_acquire_info:
      out_.reservation_acquires.push_back({event(f, R::result), event(f, R::fevent), event(f, R::precondition),
                                           performed(), f.u64(R::reservation)});
      return;
    case Kept::instance_ready_info:
      out_.instance_readies.push_back(
          {event(f, R::result), event(f, R::precondition), event(f, R::inst_uid), performed()});
      return;
    case Kept::instance_redistrict_info:
      out_.instance_redistricts.push_back({event(f, R::result), event(f, R::precondition), event(f, R::previous),
                                           event(f, R::next), performed()});
      return;
    default: return;
  }
}

void ProfRecordStore::finish() {
  auto& o = out_;
  shrink(o.processors); shrink(o.memories); shrink(o.affinities); shrink(o.task_kinds); shrink(o.task_variants);
  shrink(o.meta_kinds); shrink(o.op_kinds); shrink(o.operations); shrink(o.work); shrink(o.gpu_times);
  shrink(o.spawns); shrink(o.waits); shrink(o.copies); shrink(o.copy_insts); shrink(o.fills); shrink(o.fill_insts);
  shrink(o.instances); shrink(o.event_waits); shrink(o.mergers); shrink(o.triggers); shrink(o.poisons);
  shrink(o.arrivals); shrink(o.reservation_acquires); shrink(o.instance_readies); shrink(o.instance_redistricts);
  shrink(o.completion_queues);
  // The processor the program's own thread ran on is its own kind (core::processor_kind_of): marked here, where the
  // work is at hand (a packed trace keeps the processors, not the work).
  for (const auto& w : o.work)
    if (w.kind == core::ProfWorkKind::implicit_task)
      for (auto& p : o.processors)
        if (p.id == w.proc) p.program_thread = true;
}

}  // namespace rr::parser::prof
