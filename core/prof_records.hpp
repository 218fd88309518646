// Decoded Legion Prof records of one file: plain structs packed in per-kind arrays, names interned once.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "diagnostics.hpp"
#include "ids.hpp"

namespace rr::core {

// Nanoseconds on Realm's clock, relative to the run's zero time (docs/legion-prof.md, Time).
using TimeNs = std::int64_t;

// The most bytes one CopyInfo or FillInfo may move: 2^50 (1 PiB), the bound of a machine's
// runtime.default_copy_bytes. A larger size is a damaged record, and a bandwidth derived from it nonsense.
inline constexpr std::uint64_t kMaxProfCopyBytes = std::uint64_t{1} << 50;

// An index into another array of the same ProfileRecords; kNoIndex when a record could not be joined.
inline constexpr std::uint32_t kNoIndex = ~std::uint32_t{0};

// A Realm event id as Legion Prof writes it: one 64-bit word holding the creator node, the index and the
// generation (docs/legion-prof.md, Ids), so no separate generation. 0 means "no event". Instance names (`inst_uid`) are
// event ids too.
struct ProfEvent {
  std::uint64_t id = 0;
  constexpr bool is_none() const { return id == 0; }
  friend constexpr bool operator==(const ProfEvent&, const ProfEvent&) = default;
};
static_assert(sizeof(ProfEvent) == 8);

// Realm's processor kinds as numbered in realm_c.h (not the 2015 numbering of ProcessorKind).
enum class RealmProcKind : std::uint32_t {
  none = 0, gpu = 1, cpu = 2, utility = 3, io = 4, group = 5, set = 6, openmp = 7, python = 8,
};
// Realm's memory kinds as numbered in realm_c.h.
enum class RealmMemKind : std::uint32_t {
  none = 0, global = 1, system = 2, registered = 3, socket = 4, zero_copy = 5, framebuffer = 6, disk = 7,
  hdf5 = 8, file = 9, l3_cache = 10, l2_cache = 11, l1_cache = 12, gpu_managed = 13, gpu_dynamic = 14,
};
std::string realm_proc_kind_name(RealmProcKind kind);  // "CPU", "utility", ..., "kind 42" for unknown values
std::string realm_mem_kind_name(RealmMemKind kind);    // "system", "file", ...

// ---- machine ----

// MachineDesc: one per file; `node_id` is the node the file belongs to.
struct ProfMachine {
  std::uint32_t node_id = 0;
  std::uint32_t num_nodes = 0;   // processes in the run
  std::uint32_t version = 0;     // Legion Prof format version (1008 for Legion 25.06)
  std::uint32_t process_id = 0;  // OS pid
  std::uint64_t host_id = 0;
  std::uint32_t hostname = kNoIndex;  // into ProfileRecords::strings
};

struct ProfProcessor {  // ProcDesc, first description of each id in the file
  Handle id;
  RealmProcKind kind;
  bool program_thread = false;  // the program's own thread ran on it (an ImplicitTaskInfo names it)
};

struct ProfMemory {  // MemDesc, first description of each id in the file
  Handle id;
  RealmMemKind kind;
  std::uint64_t capacity;  // bytes
};

struct ProfAffinity {  // ProcMDesc, one per (processor, memory) pair: repeats are dropped
  Handle proc;
  Handle mem;
  std::uint32_t bandwidth;  // MB/s, nominal
  std::uint32_t latency;    // ns, nominal
};

// ---- names and operations (strings are indices into ProfileRecords::strings) ----

// TaskKind with Legion Prof's overwrite rule applied: the first name stays unless a later record has
// overwrite=true. `overwritten` tells whether the name came from such a record, so files can be merged by
// the same rule.
struct ProfTaskKind {
  std::uint32_t task_id;
  std::uint32_t name;
  bool overwritten;
};

struct ProfTaskVariant {
  std::uint32_t task_id;
  std::uint32_t variant_id;
  std::uint32_t name;
};

struct ProfMetaKind {  // MetaDesc: `kind` is the lg_id of MetaInfo/MessageInfo/MetaWaitInfo
  std::uint32_t kind;
  std::uint32_t name;
  bool message;     // a runtime message type (MessageInfo), not a meta-task
  bool ordered_vc;
};

struct ProfOpKind {  // OpDesc
  std::uint32_t kind;
  std::uint32_t name;
};

struct ProfOperation {  // OperationInstance
  std::uint64_t op_id;
  std::uint64_t parent_id;  // op of the enclosing task; 2^64-1 = none
  std::uint64_t provenance;
  std::uint32_t kind;       // ProfOpKind::kind
};

// ---- work items: everything that ran on a processor ----

enum class ProfWorkKind : std::uint8_t {
  task,           // TaskInfo
  gpu_task,       // GPUTaskInfo (kernel times in ProfileRecords::gpu_times)
  implicit_task,  // ImplicitTaskInfo (create = ready = start)
  meta_task,      // MetaInfo
  message,        // MessageInfo (send time in ProfileRecords::spawns)
  partition,      // PartitionInfo
  prof_task,      // ProfTaskInfo: no create/ready/critical are logged; create = ready = start here
};
inline constexpr std::size_t kProfWorkKindCount = 7;
std::string_view prof_work_kind_record(ProfWorkKind kind);  // the record type's name: "TaskInfo", ...
std::string_view prof_work_kind_key(ProfWorkKind kind);     // a JSON key: "task", "meta_task", ...

struct ProfWorkItem {
  std::uint64_t op_id;
  Handle proc;         // 0 for partitions: PartitionInfo names no processor
  ProfEvent fevent;    // its finish event: triggers at `stop`; its identity in the event graph
  ProfEvent creator;   // fevent of the task or meta-task that launched it (0: none)
  ProfEvent critical;  // the precondition handed to Realm (0: none)
  TimeNs create;
  TimeNs ready;
  TimeNs start;
  TimeNs stop;
  std::uint32_t function;    // task_id (tasks), lg_id (meta-tasks, messages), part_op (partitions), 0
  std::uint32_t variant;     // variant_id of tasks, else 0
  std::uint32_t first_wait;  // its blocked intervals: ProfileRecords::waits[first_wait, first_wait + wait_count)
  std::uint32_t wait_count;
  std::uint32_t extra;       // gpu_task: index into gpu_times; message: index into spawns; else kNoIndex
  ProfWorkKind kind;
  bool completion;           // ProfTaskInfo's `completion` flag
};

struct ProfGpuTime {  // the kernel time of a GPUTaskInfo
  std::uint32_t item;
  TimeNs gpu_start;
  TimeNs gpu_stop;
};

struct ProfSpawn {  // MessageInfo's send time, taken on the sending node
  std::uint32_t item;
  TimeNs spawn;
};

// TaskWaitInfo / MetaWaitInfo, attached to the work item just before it in the file.
struct ProfWait {
  std::uint64_t op_id;
  ProfEvent wait_event;
  TimeNs wait_start;  // the task blocked
  TimeNs wait_ready;  // the awaited event triggered
  TimeNs wait_end;    // the task ran again
  std::uint32_t item;      // into work; kNoIndex when the record before it was no work item of its kind
  std::uint32_t function;  // task_id (TaskWaitInfo) or lg_id (MetaWaitInfo) as the wait record gives it
};

// ---- copies, fills, instances ----

struct ProfCopy {  // CopyInfo
  std::uint64_t op_id;
  std::uint64_t size;  // total bytes moved
  ProfEvent fevent;
  ProfEvent creator;
  ProfEvent critical;
  TimeNs create;
  TimeNs ready;
  TimeNs start;
  TimeNs stop;
  std::uint32_t collective;  // 0 plain copy; 1 fill, 2 broadcast, 3 reduction, 4 all-reduce
  std::uint32_t first_inst;  // its CopyInstInfo records: copy_insts[first_inst, first_inst + inst_count)
  std::uint32_t inst_count;
};

struct ProfCopyInst {  // CopyInstInfo: one source-field/destination-field/instance pair of a copy
  Handle src_mem;  // 0 when absent (indirect entries)
  Handle dst_mem;
  ProfEvent src_inst;  // instance names (see ProfInstance::inst_uid)
  ProfEvent dst_inst;
  ProfEvent fevent;    // the copy's fevent: the join key
  std::uint32_t copy;  // into copies; kNoIndex when the record before it was not the CopyInfo of this fevent
  std::uint32_t src_fid;
  std::uint32_t dst_fid;
  std::uint32_t num_hops;
  bool indirect;       // the extra entry naming the indirection instance of a gather/scatter
};

struct ProfFill {  // FillInfo
  std::uint64_t op_id;
  std::uint64_t size;
  ProfEvent fevent;
  ProfEvent creator;
  ProfEvent critical;
  TimeNs create;
  TimeNs ready;
  TimeNs start;
  TimeNs stop;
  std::uint32_t first_inst;  // fill_insts[first_inst, first_inst + inst_count)
  std::uint32_t inst_count;
};

struct ProfFillInst {  // FillInstInfo
  Handle dst_mem;
  ProfEvent dst_inst;
  ProfEvent fevent;
  std::uint32_t fill;  // into fills; kNoIndex when not joined
  std::uint32_t fid;
};

struct ProfInstance {  // InstTimelineInfo
  ProfEvent inst_uid;  // Legion's name of the instance
  std::uint64_t inst_id;  // the Realm instance id
  Handle mem;
  std::uint64_t size;  // bytes
  std::uint64_t op_id;
  TimeNs create;
  TimeNs ready;
  TimeNs destroy;
  ProfEvent creator;
};

// ---- the event graph ----

struct ProfEventWait {  // EventWaitInfo: the task `fevent` on `proc` blocked on `wait_event`
  Handle proc;
  ProfEvent fevent;
  ProfEvent wait_event;
  std::uint64_t backtrace_id;
};

// EventMergerInfo and CompletionQueueInfo. One merger with more than four inputs is written as several
// consecutive records with the same result, fevent and performed time; they are kept as written (joining
// them is the graph builder's job). Unused input slots are 0. A merger fires on its last input, a
// completion queue on its first.
struct ProfEventMerger {
  ProfEvent result;
  ProfEvent fevent;  // the task that asked for it
  TimeNs performed;
  std::array<ProfEvent, 4> pre;
};

// EventTriggerInfo and BarrierArrivalInfo: `result` (a user event, or a barrier generation) triggered, or
// arrived at, by the task `fevent` at `performed`, taking effect once `precondition` has triggered.
struct ProfEventTrigger {
  ProfEvent result;
  ProfEvent fevent;
  ProfEvent precondition;
  TimeNs performed;
};

struct ProfEventPoison {  // EventPoisonInfo
  ProfEvent result;
  ProfEvent fevent;
  TimeNs performed;
};

struct ProfReservationAcquire {  // ReservationAcquireInfo
  ProfEvent result;
  ProfEvent fevent;
  ProfEvent precondition;
  TimeNs performed;
  std::uint64_t reservation;
};

struct ProfInstanceReady {  // InstanceReadyInfo
  ProfEvent result;
  ProfEvent precondition;
  ProfEvent inst_uid;
  TimeNs performed;
};

struct ProfInstanceRedistrict {  // InstanceRedistrictInfo
  ProfEvent result;
  ProfEvent precondition;
  ProfEvent previous;
  ProfEvent next;
  TimeNs performed;
};

// ---- one file ----

// Every record type the header declares, with how many records of it the file holds: the types this
// reader does not keep are sized and counted all the same.
struct ProfRecordTypeCount {
  std::string name;
  std::int32_t id = 0;
  std::uint64_t count = 0;
  std::uint64_t bytes = 0;  // including each record's 4-byte type id
};

struct ProfileRecords {
  std::string file_type_version;  // "1.0" from the FileType line
  std::uint32_t max_dim = 0;      // from MaxDimDesc
  std::uint64_t header_bytes = 0;   // the text header, blank line included
  std::uint64_t data_bytes = 0;     // the whole decompressed stream
  std::vector<ProfRecordTypeCount> record_types;  // in header order

  std::optional<ProfMachine> machine;
  std::optional<TimeNs> zero_time;        // ZeroTime: the run's zero in ns since the Unix epoch
  std::optional<TimeNs> calibration_err;  // CalibrationErr

  std::vector<std::string> strings;  // names, each stored once per file
  std::vector<ProfProcessor> processors;
  std::vector<ProfMemory> memories;
  std::vector<ProfAffinity> affinities;
  std::vector<ProfTaskKind> task_kinds;
  std::vector<ProfTaskVariant> task_variants;
  std::vector<ProfMetaKind> meta_kinds;
  std::vector<ProfOpKind> op_kinds;
  std::vector<ProfOperation> operations;

  std::vector<ProfWorkItem> work;
  std::vector<ProfGpuTime> gpu_times;
  std::vector<ProfSpawn> spawns;
  std::vector<ProfWait> waits;
  std::vector<ProfCopy> copies;
  std::vector<ProfCopyInst> copy_insts;
  std::vector<ProfFill> fills;
  std::vector<ProfFillInst> fill_insts;
  std::vector<ProfInstance> instances;

  std::vector<ProfEventWait> event_waits;
  std::vector<ProfEventMerger> mergers;
  std::vector<ProfEventTrigger> triggers;
  std::vector<ProfEventPoison> poisons;
  std::vector<ProfEventTrigger> arrivals;
  std::vector<ProfReservationAcquire> reservation_acquires;
  std::vector<ProfInstanceReady> instance_readies;
  std::vector<ProfInstanceRedistrict> instance_redistricts;
  std::vector<ProfEventMerger> completion_queues;

  // Records framed correctly that do not fit together, and repeated descriptions (the legion_prof_reader's
  // stats); counted, never fatal.
  StatCounts counts;
  std::vector<Diagnostic> join_messages;  // the first few records that could not be joined, located

  // Records of every type the file holds (the sum of record_types).
  std::uint64_t record_count() const;
  // The count of one record type by its header name (0 when the header does not declare it).
  std::uint64_t count_of(std::string_view type_name) const;
  std::string_view string_at(std::uint32_t index) const {
    return index < strings.size() ? std::string_view(strings[index]) : std::string_view();
  }
};

// The memories a copy moves between: those of its first CopyInstInfo that is not an indirection and names both
// (a copy of several fields or instances moves between the same kinds of memory); none when no entry does.
std::pair<Handle, Handle> copy_endpoints(const ProfileRecords& records, const ProfCopy& copy);
// The memory a fill writes: that of its first FillInstInfo; none when it has none. A fill is replayed as a copy
// from that memory to itself.
Handle fill_destination(const ProfileRecords& records, const ProfFill& fill);

}  // namespace rr::core

template <>
struct std::hash<rr::core::ProfEvent> {
  std::size_t operator()(const rr::core::ProfEvent& e) const noexcept {
    std::uint64_t h = e.id * 0x9e3779b97f4a7c15ull;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};
