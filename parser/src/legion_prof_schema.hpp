// What the Legion Prof reader keeps (record types and fields, by name) and the per-type decoding plans.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "parser/legion_prof_header.hpp"

namespace rr::parser::prof {

// The fields the reader decodes, named as in the header. A name has the same width in every record type
// that has it, so one table gives the expected encoding of each.
enum class Role : std::uint8_t {
  op_id, parent_id, provenance, task_id, variant_id, lg_id, kind, part_op, proc_id, mem_id,
  create, ready, start, stop, gpu_start, gpu_stop, spawn, destroy, performed, wait_start, wait_ready, wait_end,
  creator, critical, fevent, result, precondition, pre0, pre1, pre2, pre3, wait_event, src_inst, dst_inst,
  inst_uid, previous, next, size, collective, src, dst, src_fid, dst_fid, fid, num_hops, indirect, inst_id,
  reservation, backtrace_id, completion, node_id, num_nodes, version, process_id, host_id, hostname,
  zero_time, calibration_err, capacity, bandwidth, latency, max_dim, name, overwrite, message, ordered_vc,
};
inline constexpr std::size_t kRoleCount = static_cast<std::size_t>(Role::ordered_vc) + 1;

// The record types the reader decodes; every other type is only sized and counted.
enum class Kept : std::uint8_t {
  none, machine_desc, zero_time, calibration_err, max_dim_desc, proc_desc, mem_desc, proc_mem_desc, task_kind,
  task_variant, meta_desc, op_desc, operation_instance, task_info, gpu_task_info, implicit_task_info, meta_info,
  message_info, partition_info, prof_task_info, task_wait_info, meta_wait_info, copy_info, copy_inst_info,
  fill_info, fill_inst_info, inst_timeline_info, event_wait_info, event_merger_info, event_trigger_info,
  event_poison_info, barrier_arrival_info, reservation_acquire_info, instance_ready_info,
  instance_redistrict_info, completion_queue_info,
};

enum class Shape : std::uint8_t { integer, boolean, string };

struct RoleSpec {
  std::string_view name;
  Shape shape;
  std::uint32_t size;  // bytes (integers and booleans)
};

// The expected encoding of each role, in Role order.
inline constexpr RoleSpec kRoles[kRoleCount] = {
    {"op_id", Shape::integer, 8},        {"parent_id", Shape::integer, 8},   {"provenance", Shape::integer, 8},
    {"task_id", Shape::integer, 4},      {"variant_id", Shape::integer, 4},  {"lg_id", Shape::integer, 4},
    {"kind", Shape::integer, 4},         {"part_op", Shape::integer, 4},     {"proc_id", Shape::integer, 8},
    {"mem_id", Shape::integer, 8},       {"create", Shape::integer, 8},      {"ready", Shape::integer, 8},
    {"start", Shape::integer, 8},        {"stop", Shape::integer, 8},        {"gpu_start", Shape::integer, 8},
    {"gpu_stop", Shape::integer, 8},     {"spawn", Shape::integer, 8},       {"destroy", Shape::integer, 8},
    {"performed", Shape::integer, 8},    {"wait_start", Shape::integer, 8},  {"wait_ready", Shape::integer, 8},
    {"wait_end", Shape::integer, 8},     {"creator", Shape::integer, 8},     {"critical", Shape::integer, 8},
    {"fevent", Shape::integer, 8},       {"result", Shape::integer, 8},      {"precondition", Shape::integer, 8},
    {"pre0", Shape::integer, 8},         {"pre1", Shape::integer, 8},        {"pre2", Shape::integer, 8},
    {"pre3", Shape::integer, 8},         {"wait_event", Shape::integer, 8},  {"src_inst", Shape::integer, 8},
    {"dst_inst", Shape::integer, 8},     {"inst_uid", Shape::integer, 8},    {"previous", Shape::integer, 8},
    {"next", Shape::integer, 8},         {"size", Shape::integer, 8},        {"collective", Shape::integer, 4},
    {"src", Shape::integer, 8},          {"dst", Shape::integer, 8},         {"src_fid", Shape::integer, 4},
    {"dst_fid", Shape::integer, 4},      {"fid", Shape::integer, 4},         {"num_hops", Shape::integer, 4},
    {"indirect", Shape::boolean, 1},     {"inst_id", Shape::integer, 8},     {"reservation", Shape::integer, 8},
    {"backtrace_id", Shape::integer, 8}, {"completion", Shape::boolean, 1},  {"node_id", Shape::integer, 4},
    {"num_nodes", Shape::integer, 4},    {"version", Shape::integer, 4},     {"process_id", Shape::integer, 4},
    {"host_id", Shape::integer, 8},      {"hostname", Shape::string, 0},     {"zero_time", Shape::integer, 8},
    {"calibration_err", Shape::integer, 8}, {"capacity", Shape::integer, 8}, {"bandwidth", Shape::integer, 4},
    {"latency", Shape::integer, 4},      {"max_dim", Shape::integer, 4},     {"name", Shape::string, 0},
    {"overwrite", Shape::boolean, 1},    {"message", Shape::boolean, 1},     {"ordered_vc", Shape::boolean, 1},
};

inline constexpr std::uint16_t kNoField = 0xffff;

// How one record type is decoded, from its header line.
struct RecordPlan {
  std::int32_t id = 0;
  std::uint32_t slot = 0;  // position in the header (the index of its count)
  Kept kept = Kept::none;
  const ProfRecordLayout* layout = nullptr;
  bool variable = false;       // a string or uuid field: each record is measured
  bool needs_max_dim = false;  // a point or array field: sized once MaxDimDesc is known
  bool sized = false;          // field widths known (always, unless waiting for MAX_DIM)
  std::uint32_t fixed_size = 0;               // body bytes, when sized and not variable
  std::vector<ProfFieldType> kinds;           // per field
  std::vector<std::uint32_t> widths;          // per field: bytes (point/array: once MAX_DIM is known)
  std::vector<std::uint32_t> offsets;         // per field, when sized and not variable
  std::array<std::uint16_t, kRoleCount> role_field{};  // field index of each role, kNoField when absent

  // Sets point/array widths and the fixed size from MAX_DIM.
  void size_with(std::uint32_t max_dim);
};

// One plan per header record, in header order. Throws SourceError when a kept record type lacks a field
// the reader needs, or has it with another type or width, naming the record type, the field and the
// decoded offset of its header line.
std::vector<RecordPlan> build_plans(const ProfHeader& header);

// The record type's name in the log ("CopyInfo") of a kept type; empty for Kept::none.
std::string_view kept_record_name(Kept kept);

// A record's body with the byte offset of each of its fields: typed reads by role.
class FieldView {
 public:
  FieldView(const char* body, const std::uint32_t* offsets, const RecordPlan& plan)
      : body_(body), offsets_(offsets), plan_(plan) {}
  bool has(Role r) const { return plan_.role_field[static_cast<std::size_t>(r)] != kNoField; }
  std::uint64_t u64(Role r) const { return load<std::uint64_t>(r); }
  std::int64_t i64(Role r) const { return static_cast<std::int64_t>(load<std::uint64_t>(r)); }
  std::uint32_t u32(Role r) const { return load<std::uint32_t>(r); }
  bool flag(Role r) const { return load<std::uint8_t>(r) != 0; }
  // A NUL-terminated string field (the record was measured, so the NUL is there).
  std::string_view str(Role r) const {
    const std::uint16_t f = plan_.role_field[static_cast<std::size_t>(r)];
    if (f == kNoField) return {};
    const char* p = body_ + offsets_[f];
    return std::string_view(p, std::strlen(p));
  }

 private:
  // Little-endian hosts only (as Legion Prof itself): the bytes are copied as they are. An optional
  // field the header does not declare reads as 0.
  template <typename T>
  T load(Role r) const {
    // The header check made the field exactly this wide; reading another width would leave the record.
    assert(kRoles[static_cast<std::size_t>(r)].size == sizeof(T));
    const std::uint16_t f = plan_.role_field[static_cast<std::size_t>(r)];
    if (f == kNoField) return T{};
    T value;
    std::memcpy(&value, body_ + offsets_[f], sizeof value);
    return value;
  }
  const char* body_;
  const std::uint32_t* offsets_;
  const RecordPlan& plan_;
};

}  // namespace rr::parser::prof
