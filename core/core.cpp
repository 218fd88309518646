// Names, formatting and small helpers of the shared vocabulary.
#include <cstdio>
#include <string>
#include <unordered_set>

#include "diagnostics.hpp"
#include "ids.hpp"
#include "kinds.hpp"
#include "trace_records.hpp"

namespace rr::core {

std::string to_string(IdWidth width) {
  switch (width) {
    case IdWidth::bits32: return "32-bit";
    case IdWidth::bits64: return "64-bit";
    case IdWidth::realm: return "Realm (Legion Prof)";
    case IdWidth::unknown: break;
  }
  return "unknown";
}

std::string hex(std::uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(value));
  return buf;
}

std::string to_string(const EventKey& event) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "(%llx,%u)", static_cast<unsigned long long>(event.id()), event.gen);
  return buf;
}

namespace {
constexpr std::string_view kRecordNames[kRecordKindCount] = {
    "Processor",          "Group",         "Memory",           "Task Request",  "Task Time",
    "Task Wait",          "Event Merge",   "Event Precondition", "Event Trigger", "Barrier Creation",
    "Barrier Alter",      "Barrier Arrive", "Copy Request",    "Copy Size"};
constexpr std::string_view kRecordKeys[kRecordKindCount] = {
    "processor",          "group",         "memory",             "task_request",  "task_time",
    "task_wait",          "event_merge",   "event_precondition", "event_trigger", "barrier_creation",
    "barrier_alter",      "barrier_arrive", "copy_request",      "copy_size"};
}  // namespace

std::string_view record_kind_name(RecordKind kind) { return kRecordNames[static_cast<std::size_t>(kind)]; }
std::string_view record_kind_key(RecordKind kind) { return kRecordKeys[static_cast<std::size_t>(kind)]; }

ProcessorKind processor_kind_from_int(std::int32_t value) {
  if (value == 3) return ProcessorKind::group;
  return (value >= 0 && value <= 2) ? static_cast<ProcessorKind>(value) : ProcessorKind::unknown;
}
MemoryKind memory_kind_from_int(std::int32_t value) {
  return (value >= 0 && value <= 8) ? static_cast<MemoryKind>(value) : MemoryKind::unknown;
}

std::string_view processor_kind_name(ProcessorKind kind) {
  switch (kind) {
    case ProcessorKind::gpu: return "GPU";
    case ProcessorKind::cpu: return "CPU";
    case ProcessorKind::utility: return "utility";
    case ProcessorKind::external: return "external";
    case ProcessorKind::group: return "group";
    case ProcessorKind::unknown: break;
  }
  return "unknown";
}

std::string_view memory_kind_name(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::global: return "GASNet global";
    case MemoryKind::system: return "system";
    case MemoryKind::registered: return "registered";
    case MemoryKind::socket: return "socket";
    case MemoryKind::zero_copy: return "zero-copy";
    case MemoryKind::framebuffer: return "GPU framebuffer";
    case MemoryKind::l3_cache: return "L3 cache";
    case MemoryKind::l2_cache: return "L2 cache";
    case MemoryKind::l1_cache: return "L1 cache";
    case MemoryKind::unknown: break;
  }
  return "unknown";
}

std::string format_location(const SourceLocation& where) {
  std::string out = where.file;
  if (where.line != 0) out.append(":").append(std::to_string(where.line));
  if (where.byte_offset) out.append(": byte ").append(std::to_string(*where.byte_offset));
  if (where.decoded_offset)
    out.append(": byte ").append(std::to_string(*where.decoded_offset)).append(" of the uncompressed data");
  return out;
}

std::string format_diagnostic(const Diagnostic& d) {
  std::string out = format_location(d.where) + ": " + d.message;
  if (!d.quote.empty()) out += "\n    | " + d.quote;
  return out;
}

std::uint64_t RecordBatch::record_count() const {
  return processors.size() + groups.size() + memories.size() + task_requests.size() + task_times.size() +
         task_waits.size() + event_merges.size() + event_preconditions.size() + event_triggers.size() +
         barrier_creations.size() + barrier_alters.size() + barrier_arrives.size() + copy_requests.size() +
         copy_sizes.size() + released_records;
}

namespace {
template <typename F>
void for_each_array(RecordBatch& b, F&& f) {
  f(b.processors); f(b.groups); f(b.group_members); f(b.memories); f(b.task_requests); f(b.task_times);
  f(b.task_waits); f(b.event_merges); f(b.event_preconditions); f(b.event_triggers); f(b.barrier_creations);
  f(b.barrier_alters); f(b.barrier_arrives); f(b.copy_requests); f(b.copy_sizes);
}
}  // namespace

void RecordBatch::shrink_if_loose() {
  for_each_array(*this, [](auto& v) {
    if (v.capacity() - v.size() > v.size() / 8) v.shrink_to_fit();
  });
}

RecordBatch::Sizes RecordBatch::sizes() const {
  Sizes out{};
  std::size_t i = 0;
  for_each_array(const_cast<RecordBatch&>(*this), [&](auto& v) { out[i++] = v.size(); });
  return out;
}

void RecordBatch::reserve_like(const Sizes& like, std::uint64_t like_bytes, std::uint64_t source_bytes) {
  if (like_bytes == 0) return;
  const double scale = static_cast<double>(source_bytes) / static_cast<double>(like_bytes) * 1.04;
  std::size_t i = 0;
  for_each_array(*this, [&](auto& v) { v.reserve(static_cast<std::size_t>(static_cast<double>(like[i++]) * scale) + 8); });
}

EraEvidence& EraEvidence::operator+=(const EraEvidence& o) {
  merges_with_zero_inputs += o.merges_with_zero_inputs;
  merges_with_one_input += o.merges_with_one_input;
  spaced_preconditions += o.spaced_preconditions;
  pending_dump_blocks += o.pending_dump_blocks;
  barrier_type3_ids += o.barrier_type3_ids;
  return *this;
}

std::string_view era_name(Era era) {
  switch (era) {
    case Era::unknown: return "unknown";
    case Era::e2: return "E2";
    case Era::e2a: return "E2a";
    case Era::e2ab: return "E2a or E2b";
    case Era::e2c: return "E2c";
    case Era::e3: return "E3";
  }
  return "unknown";
}

std::string_view compression_name(Compression c) {
  switch (c) {
    case Compression::none: return "none";
    case Compression::gzip: return "gzip";
    case Compression::xz: return "xz";
    case Compression::zstd: return "zstd";
  }
  return "?";
}

std::string_view trace_format_name(TraceFormat f) {
  return f == TraceFormat::legion_prof ? "Legion Prof log" : "Realm event-graph log";
}

std::uint64_t FileRecords::record_count() const {
  std::uint64_t n = profile.record_count();
  for (const auto& b : batches) n += b.record_count();
  return n;
}

std::uint64_t TraceRecords::record_count() const {
  std::uint64_t n = 0;
  for (const auto& f : files) n += f.record_count();
  return n;
}

Era classify_era(const EraEvidence& e, bool has_machine_records, bool has_graph_records) {
  if (!has_graph_records) return Era::unknown;
  // E3 dropped Processor/Memory logging and gave barriers their own id type.
  if (e.barrier_type3_ids > 0 || !has_machine_records) return Era::e3;
  if (e.merges_with_zero_inputs > 0) return Era::e2a;
  if (e.spaced_preconditions > 0 || e.pending_dump_blocks > 0) return Era::e2c;
  // A 1-input merge is logged by E2a and E2b, never by E2c; only E2a logs 0-input ones.
  if (e.merges_with_one_input > 0) return Era::e2ab;
  return Era::e2;
}

ProcessorKind processor_kind_of(RealmProcKind kind) {
  switch (kind) {
    case RealmProcKind::gpu: return ProcessorKind::gpu;
    case RealmProcKind::utility: return ProcessorKind::utility;
    case RealmProcKind::cpu:
    case RealmProcKind::io:
    case RealmProcKind::openmp:
    case RealmProcKind::python: return ProcessorKind::cpu;
    default: return ProcessorKind::unknown;
  }
}

ProcessorKind processor_kind_of(const ProfProcessor& processor) {
  return processor.program_thread ? ProcessorKind::external : processor_kind_of(processor.kind);
}

MemoryKind memory_kind_of(RealmMemKind kind) {
  switch (kind) {
    case RealmMemKind::global: return MemoryKind::global;
    case RealmMemKind::registered: return MemoryKind::registered;
    case RealmMemKind::socket: return MemoryKind::socket;
    case RealmMemKind::zero_copy:
    case RealmMemKind::gpu_managed: return MemoryKind::zero_copy;
    case RealmMemKind::framebuffer:
    case RealmMemKind::gpu_dynamic: return MemoryKind::framebuffer;
    case RealmMemKind::l3_cache: return MemoryKind::l3_cache;
    case RealmMemKind::l2_cache: return MemoryKind::l2_cache;
    case RealmMemKind::l1_cache: return MemoryKind::l1_cache;
    default: return MemoryKind::system;
  }
}

namespace {
// Keeps the records of `records` whose id is not in `seen` yet (adding it); returns how many went.
template <class Record>
std::size_t keep_first_of_each_id(std::vector<Record>& records, std::unordered_set<std::uint64_t>& seen) {
  const std::size_t before = records.size();
  std::erase_if(records, [&](const Record& r) { return !seen.insert(r.id.value()).second; });
  const std::size_t dropped = before - records.size();
  if (records.empty()) std::vector<Record>().swap(records);
  else if (dropped > 0) records.shrink_to_fit();
  return dropped;
}
}  // namespace

std::uint64_t drop_repeated_machine_records(TraceRecords& trace) {
  std::unordered_set<std::uint64_t> procs, mems;
  std::uint64_t dropped = 0;
  for (auto& f : trace.files)
    for (auto& b : f.batches) {
      const std::size_t went = keep_first_of_each_id(b.processors, procs) + keep_first_of_each_id(b.memories, mems);
      b.released_records += went;
      dropped += went;
    }
  return dropped;
}

MachineRecords machine_records(const TraceRecords& trace) {
  MachineRecords out;
  std::unordered_set<std::uint64_t> procs, mems, groups;
  for (const auto& f : trace.files) {
    for (const auto& b : f.batches) {
      for (const auto& p : b.processors)
        if (procs.insert(p.id.value()).second) out.processors.push_back(p);
      for (const auto& m : b.memories)
        if (mems.insert(m.id.value()).second) {
          out.memories.push_back(m);
          out.memory_capacities.push_back(0);
        }
      for (const auto& g : b.groups)
        if (groups.insert(g.id.value()).second)
          out.groups.push_back({g.id, std::vector<std::uint64_t>(b.group_members.begin() + g.first_member,
                                                                 b.group_members.begin() + g.first_member + g.member_count)});
    }
    for (const auto& p : f.profile.processors) {
      const ProcessorKind kind = processor_kind_of(p);
      if (kind != ProcessorKind::unknown && procs.insert(p.id.value()).second) out.processors.push_back({0, p.id, kind});
    }
    for (const auto& m : f.profile.memories)
      if (mems.insert(m.id.value()).second) {
        out.memories.push_back({0, m.id, memory_kind_of(m.kind)});
        out.memory_capacities.push_back(m.capacity);
      }
  }
  return out;
}

}  // namespace rr::core
