// Test helper: Legion Prof records built as structs (no bytes, no reader) for the graph builder's and the
// engine's tests: processor and event ids laid out as Realm's, work items, waits, mergers, a trace of files.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/trace_records.hpp"

namespace rr::testing::prof {

using core::ProfEvent;
using core::ProfWorkKind;
using core::TimeNs;

// Realm processor ids: owner node in bits 40-55 (the builder's node_of_processor).
constexpr std::uint64_t kCpu0 = 0x1d00000000000000ull;      // node 0, CPU
constexpr std::uint64_t kCpu1 = 0x1d00000000000001ull;      // node 0, second CPU
constexpr std::uint64_t kUtil0 = 0x1d00000000000002ull;     // node 0, utility processor
constexpr std::uint64_t kCpuNode1 = 0x1d00010000000000ull;  // node 1, CPU

// An event id with index n and generation 1 (the generation is the low 20 bits).
constexpr ProfEvent ev(std::uint64_t n) { return ProfEvent{0x8000000000000000ull | (n << 20) | 1}; }
// A barrier generation: type 0x2 in the top 4 bits, owner node in bits 44-59, barrier index, generation.
constexpr ProfEvent barrier(std::uint64_t node, std::uint64_t index, std::uint64_t gen) {
  return ProfEvent{0x2000000000000000ull | (node << 44) | (index << 20) | gen};
}
// The graph's key of an event: (id without generation, generation).
inline core::EventKey key(ProfEvent e) { return core::EventKey::make(e.id & ~0xfffffull, static_cast<std::uint32_t>(e.id & 0xfffff)); }

inline core::ProfWorkItem work(ProfWorkKind kind, std::uint64_t proc, ProfEvent fevent, TimeNs create, TimeNs ready, TimeNs start,
                        TimeNs stop, ProfEvent creator = {}, ProfEvent critical = {}, std::uint32_t function = 0) {
  core::ProfWorkItem w{};
  w.op_id = 1;
  w.proc = core::Handle::make(proc);
  w.fevent = fevent;
  w.creator = creator;
  w.critical = critical;
  w.create = create;
  w.ready = ready;
  w.start = start;
  w.stop = stop;
  w.function = function;
  w.first_wait = 0;
  w.wait_count = 0;
  w.extra = core::kNoIndex;
  w.kind = kind;
  return w;
}

// Attaches waits to the last work item of `p`.
inline void add_waits(core::ProfileRecords& p, std::vector<core::ProfWait> waits) {
  core::ProfWorkItem& w = p.work.back();
  w.first_wait = static_cast<std::uint32_t>(p.waits.size());
  w.wait_count = static_cast<std::uint32_t>(waits.size());
  for (auto& x : waits) {
    x.item = static_cast<std::uint32_t>(p.work.size() - 1);
    p.waits.push_back(x);
  }
}

inline core::ProfWait wait_on(ProfEvent e, TimeNs start, TimeNs ready, TimeNs end) {
  core::ProfWait w{};
  w.op_id = 1;
  w.wait_event = e;
  w.wait_start = start;
  w.wait_ready = ready;
  w.wait_end = end;
  return w;
}

inline core::ProfEventMerger merger(ProfEvent result, ProfEvent fevent, TimeNs performed, std::array<ProfEvent, 4> pre) {
  return core::ProfEventMerger{result, fevent, performed, pre};
}

inline core::ProfileRecords with_processors() {
  core::ProfileRecords p;
  p.processors = {{core::Handle::make(kCpu0), core::RealmProcKind::cpu},
                  {core::Handle::make(kCpu1), core::RealmProcKind::cpu},
                  {core::Handle::make(kUtil0), core::RealmProcKind::utility}};
  return p;
}

inline core::TraceRecords trace_of(std::vector<core::ProfileRecords> files) {
  core::TraceRecords t;
  t.format = core::TraceFormat::legion_prof;
  t.width = core::IdWidth::realm;
  for (std::size_t i = 0; i < files.size(); ++i) {
    core::FileRecords f;
    f.path = "node" + std::to_string(i) + ".prof";
    f.node = static_cast<std::int32_t>(i);
    f.format = core::TraceFormat::legion_prof;
    f.profile = std::move(files[i]);
    t.files.push_back(std::move(f));
  }
  return t;
}

}  // namespace rr::testing::prof
