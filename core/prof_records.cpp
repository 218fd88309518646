// Names of Realm's processor/memory kinds and of work-item kinds, and the counting helpers of ProfileRecords.
#include "prof_records.hpp"

namespace rr::core {

std::string realm_proc_kind_name(RealmProcKind kind) {
  switch (kind) {
    case RealmProcKind::gpu: return "GPU";
    case RealmProcKind::cpu: return "CPU";
    case RealmProcKind::utility: return "utility";
    case RealmProcKind::io: return "I/O";
    case RealmProcKind::group: return "processor group";
    case RealmProcKind::set: return "processor set";
    case RealmProcKind::openmp: return "OpenMP";
    case RealmProcKind::python: return "Python";
    case RealmProcKind::none: break;
  }
  return "kind " + std::to_string(static_cast<std::uint32_t>(kind));
}

std::string realm_mem_kind_name(RealmMemKind kind) {
  switch (kind) {
    case RealmMemKind::global: return "global";
    case RealmMemKind::system: return "system";
    case RealmMemKind::registered: return "registered";
    case RealmMemKind::socket: return "socket";
    case RealmMemKind::zero_copy: return "zero-copy";
    case RealmMemKind::framebuffer: return "GPU framebuffer";
    case RealmMemKind::disk: return "disk";
    case RealmMemKind::hdf5: return "HDF5";
    case RealmMemKind::file: return "file";
    case RealmMemKind::l3_cache: return "L3 cache";
    case RealmMemKind::l2_cache: return "L2 cache";
    case RealmMemKind::l1_cache: return "L1 cache";
    case RealmMemKind::gpu_managed: return "GPU managed";
    case RealmMemKind::gpu_dynamic: return "GPU dynamic";
    case RealmMemKind::none: break;
  }
  return "kind " + std::to_string(static_cast<std::uint32_t>(kind));
}

namespace {
constexpr std::string_view kWorkRecords[kProfWorkKindCount] = {
    "TaskInfo", "GPUTaskInfo", "ImplicitTaskInfo", "MetaInfo", "MessageInfo", "PartitionInfo", "ProfTaskInfo"};
constexpr std::string_view kWorkKeys[kProfWorkKindCount] = {
    "task", "gpu_task", "implicit_task", "meta_task", "message", "partition", "prof_task"};
}  // namespace

std::string_view prof_work_kind_record(ProfWorkKind kind) { return kWorkRecords[static_cast<std::size_t>(kind)]; }
std::string_view prof_work_kind_key(ProfWorkKind kind) { return kWorkKeys[static_cast<std::size_t>(kind)]; }

std::uint64_t ProfileRecords::record_count() const {
  std::uint64_t n = 0;
  for (const auto& t : record_types) n += t.count;
  return n;
}

std::uint64_t ProfileRecords::count_of(std::string_view type_name) const {
  for (const auto& t : record_types)
    if (t.name == type_name) return t.count;
  return 0;
}

std::pair<Handle, Handle> copy_endpoints(const ProfileRecords& records, const ProfCopy& copy) {
  for (std::uint32_t i = 0; i < copy.inst_count && copy.first_inst + i < records.copy_insts.size(); ++i) {
    const ProfCopyInst& inst = records.copy_insts[copy.first_inst + i];
    if (!inst.indirect && inst.src_mem.value() && inst.dst_mem.value()) return {inst.src_mem, inst.dst_mem};
  }
  return {};
}

Handle fill_destination(const ProfileRecords& records, const ProfFill& fill) {
  return fill.inst_count ? records.fill_insts[fill.first_inst].dst_mem : Handle{};
}

}  // namespace rr::core
