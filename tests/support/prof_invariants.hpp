// Test helper: what must hold of any ProfileRecords the reader returns, whatever its input: every kept
// record is in its array, every index points inside its array, every child run lies inside its array.
#pragma once

#include <string>

#include "core/prof_records.hpp"

namespace rr::testing {

// Empty when the records hold together, else what does not.
inline std::string prof_invariant_violation(const core::ProfileRecords& p) {
  auto n = [&](const char* type) { return p.count_of(type); };
  struct Expect {
    const char* what;
    std::uint64_t have;
    std::uint64_t want;
  } expects[] = {
      {"work items", p.work.size(),
       n("TaskInfo") + n("GPUTaskInfo") + n("ImplicitTaskInfo") + n("MetaInfo") + n("MessageInfo") + n("PartitionInfo") +
           n("ProfTaskInfo")},
      {"gpu times", p.gpu_times.size(), n("GPUTaskInfo")},
      {"spawns", p.spawns.size(), n("MessageInfo")},
      {"waits", p.waits.size(), n("TaskWaitInfo") + n("MetaWaitInfo")},
      {"copies", p.copies.size(), n("CopyInfo")},
      {"copy instances", p.copy_insts.size(), n("CopyInstInfo")},
      {"fills", p.fills.size(), n("FillInfo")},
      {"fill instances", p.fill_insts.size(), n("FillInstInfo")},
      {"instances", p.instances.size(), n("InstTimelineInfo")},
      {"event waits", p.event_waits.size(), n("EventWaitInfo")},
      {"mergers", p.mergers.size(), n("EventMergerInfo")},
      {"triggers", p.triggers.size(), n("EventTriggerInfo")},
      {"poisons", p.poisons.size(), n("EventPoisonInfo")},
      {"arrivals", p.arrivals.size(), n("BarrierArrivalInfo")},
      {"acquires", p.reservation_acquires.size(), n("ReservationAcquireInfo")},
      {"instance readies", p.instance_readies.size(), n("InstanceReadyInfo")},
      {"redistricts", p.instance_redistricts.size(), n("InstanceRedistrictInfo")},
      {"completion queues", p.completion_queues.size(), n("CompletionQueueInfo")},
      {"operations", p.operations.size(), n("OperationInstance")},
      {"processors + repeats", p.processors.size() + p.counts[core::Stat::repeated_processors], n("ProcDesc")},
      {"memories + repeats", p.memories.size() + p.counts[core::Stat::repeated_memories], n("MemDesc")},
      {"affinities + repeats", p.affinities.size() + p.counts[core::Stat::repeated_affinities], n("ProcMDesc")},
  };
  for (const auto& e : expects)
    if (e.have != e.want) return std::string(e.what) + ": " + std::to_string(e.have) + " for " + std::to_string(e.want);
  std::uint64_t attached_waits = 0;
  for (std::size_t i = 0; i < p.work.size(); ++i) {
    const auto& w = p.work[i];
    if (w.wait_count > 0 && std::uint64_t{w.first_wait} + w.wait_count > p.waits.size()) return "a wait run past the end";
    for (std::uint32_t k = 0; k < w.wait_count; ++k)
      if (p.waits[w.first_wait + k].item != i) return "a wait run holding another item's wait";
    attached_waits += w.wait_count;
    if (w.extra != core::kNoIndex && w.extra >= (w.kind == core::ProfWorkKind::gpu_task ? p.gpu_times.size() : p.spawns.size()))
      return "an extra index past the end";
  }
  if (attached_waits + p.counts[core::Stat::waits_unattached] != p.waits.size())
    return "waits neither attached nor counted";
  std::uint64_t attached_insts = 0;
  for (const auto& c : p.copies) {
    if (c.inst_count > 0 && std::uint64_t{c.first_inst} + c.inst_count > p.copy_insts.size()) return "an instance run past the end";
    attached_insts += c.inst_count;
  }
  if (attached_insts + p.counts[core::Stat::copy_insts_unattached] != p.copy_insts.size())
    return "copy instances neither attached nor counted";
  for (const auto& t : p.task_kinds)
    if (t.name >= p.strings.size()) return "a task kind name past the strings";
  if (p.header_bytes > p.data_bytes) return "a header longer than the data";
  return {};
}

}  // namespace rr::testing
