// Test helper: every decoded value of a ProfileRecords as text, so that two reads can be compared whole.
#pragma once

#include <sstream>
#include <string>

#include "core/prof_records.hpp"

namespace rr::testing {

inline std::string digest(const core::ProfileRecords& p) {
  std::ostringstream o;
  auto ev = [&](core::ProfEvent e) { o << e.id << ' '; };
  o << p.file_type_version << ' ' << p.max_dim << ' ' << p.header_bytes << ' ' << p.data_bytes << '\n';
  for (const auto& t : p.record_types) o << t.name << ':' << t.id << ':' << t.count << ':' << t.bytes << ' ';
  o << '\n';
  if (p.machine)
    o << p.machine->node_id << ' ' << p.machine->num_nodes << ' ' << p.machine->version << ' ' << p.machine->host_id
      << ' ' << p.string_at(p.machine->hostname) << '\n';
  o << p.zero_time.value_or(-1) << ' ' << p.calibration_err.value_or(-1) << '\n';
  for (const auto& s : p.strings) o << s << '|';
  for (const auto& x : p.processors) o << x.id.value() << ',' << static_cast<int>(x.kind) << ' ';
  for (const auto& x : p.memories) o << x.id.value() << ',' << static_cast<int>(x.kind) << ',' << x.capacity << ' ';
  for (const auto& x : p.affinities) o << x.proc.value() << ',' << x.mem.value() << ',' << x.bandwidth << ',' << x.latency << ' ';
  for (const auto& x : p.task_kinds) o << x.task_id << ',' << x.name << ',' << x.overwritten << ' ';
  for (const auto& x : p.task_variants) o << x.task_id << ',' << x.variant_id << ',' << x.name << ' ';
  for (const auto& x : p.meta_kinds) o << x.kind << ',' << x.name << ',' << x.message << x.ordered_vc << ' ';
  for (const auto& x : p.op_kinds) o << x.kind << ',' << x.name << ' ';
  for (const auto& x : p.operations) o << x.op_id << ',' << x.parent_id << ',' << x.kind << ',' << x.provenance << ' ';
  o << '\n';
  for (const auto& w : p.work) {
    o << static_cast<int>(w.kind) << ' ' << w.op_id << ' ' << w.proc.value() << ' ';
    ev(w.fevent); ev(w.creator); ev(w.critical);
    o << w.create << ' ' << w.ready << ' ' << w.start << ' ' << w.stop << ' ' << w.function << ' ' << w.variant << ' '
      << w.first_wait << ' ' << w.wait_count << ' ' << w.extra << ' ' << w.completion << '\n';
  }
  for (const auto& g : p.gpu_times) o << g.item << ' ' << g.gpu_start << ' ' << g.gpu_stop << '\n';
  for (const auto& s : p.spawns) o << s.item << ' ' << s.spawn << '\n';
  for (const auto& w : p.waits)
    o << w.op_id << ' ' << w.wait_event.id << ' ' << w.wait_start << ' ' << w.wait_ready << ' ' << w.wait_end << ' '
      << w.item << ' ' << w.function << '\n';
  for (const auto& c : p.copies) {
    o << c.op_id << ' ' << c.size << ' ';
    ev(c.fevent); ev(c.creator); ev(c.critical);
    o << c.create << ' ' << c.ready << ' ' << c.start << ' ' << c.stop << ' ' << c.collective << ' ' << c.first_inst
      << ' ' << c.inst_count << '\n';
  }
  for (const auto& c : p.copy_insts)
    o << c.src_mem.value() << ' ' << c.dst_mem.value() << ' ' << c.src_inst.id << ' ' << c.dst_inst.id << ' '
      << c.fevent.id << ' ' << c.copy << ' ' << c.src_fid << ' ' << c.dst_fid << ' ' << c.num_hops << ' ' << c.indirect
      << '\n';
  for (const auto& c : p.fills) {
    o << c.op_id << ' ' << c.size << ' ';
    ev(c.fevent); ev(c.creator); ev(c.critical);
    o << c.create << ' ' << c.ready << ' ' << c.start << ' ' << c.stop << ' ' << c.first_inst << ' ' << c.inst_count
      << '\n';
  }
  for (const auto& c : p.fill_insts)
    o << c.dst_mem.value() << ' ' << c.dst_inst.id << ' ' << c.fevent.id << ' ' << c.fill << ' ' << c.fid << '\n';
  for (const auto& i : p.instances)
    o << i.inst_uid.id << ' ' << i.inst_id << ' ' << i.mem.value() << ' ' << i.size << ' ' << i.op_id << ' ' << i.create
      << ' ' << i.ready << ' ' << i.destroy << ' ' << i.creator.id << '\n';
  for (const auto& w : p.event_waits)
    o << w.proc.value() << ' ' << w.fevent.id << ' ' << w.wait_event.id << ' ' << w.backtrace_id << '\n';
  for (const auto* v : {&p.mergers, &p.completion_queues})
    for (const auto& m : *v) {
      o << m.result.id << ' ' << m.fevent.id << ' ' << m.performed << ' ';
      for (auto e : m.pre) ev(e);
      o << '\n';
    }
  for (const auto* v : {&p.triggers, &p.arrivals})
    for (const auto& t : *v) o << t.result.id << ' ' << t.fevent.id << ' ' << t.precondition.id << ' ' << t.performed << '\n';
  for (const auto& t : p.poisons) o << t.result.id << ' ' << t.fevent.id << ' ' << t.performed << '\n';
  for (const auto& t : p.reservation_acquires)
    o << t.result.id << ' ' << t.fevent.id << ' ' << t.precondition.id << ' ' << t.performed << ' ' << t.reservation << '\n';
  for (const auto& t : p.instance_readies)
    o << t.result.id << ' ' << t.precondition.id << ' ' << t.inst_uid.id << ' ' << t.performed << '\n';
  for (const auto& t : p.instance_redistricts)
    o << t.result.id << ' ' << t.precondition.id << ' ' << t.previous.id << ' ' << t.next.id << ' ' << t.performed << '\n';
  for (std::uint64_t n : p.counts.values) o << n << ' ';
  o << '\n';
  return o.str();
}

}  // namespace rr::testing
