// The fields the Legion Prof reader needs, by record type and name, checked against a file's header.
#include "parser/src/legion_prof_schema.hpp"

#include <bit>
#include <initializer_list>
#include <string>

#include "parser/byte_source.hpp"

namespace rr::parser::prof {
namespace {

static_assert(std::endian::native == std::endian::little,
              "Legion Prof logs are little-endian; this reader copies their integers as they are");

using R = Role;
using Roles = std::initializer_list<Role>;

struct KeptSpec {
  std::string_view record;
  Kept kept;
  Roles required;
  Roles optional;  // read as 0 (or empty) when the header does not declare them
};

#define RR_TIMES R::create, R::ready, R::start, R::stop
#define RR_EVENTS R::creator, R::critical, R::fevent

const KeptSpec kKept[] = {
    {"MachineDesc", Kept::machine_desc, {R::node_id, R::num_nodes, R::version}, {R::hostname, R::host_id, R::process_id}},
    {"ZeroTime", Kept::zero_time, {R::zero_time}, {}},
    {"CalibrationErr", Kept::calibration_err, {R::calibration_err}, {}},
    {"MaxDimDesc", Kept::max_dim_desc, {R::max_dim}, {}},
    {"ProcDesc", Kept::proc_desc, {R::proc_id, R::kind}, {}},
    {"MemDesc", Kept::mem_desc, {R::mem_id, R::kind, R::capacity}, {}},
    {"ProcMDesc", Kept::proc_mem_desc, {R::proc_id, R::mem_id, R::bandwidth, R::latency}, {}},
    {"TaskKind", Kept::task_kind, {R::task_id, R::name, R::overwrite}, {}},
    {"TaskVariant", Kept::task_variant, {R::task_id, R::variant_id, R::name}, {}},
    {"MetaDesc", Kept::meta_desc, {R::kind, R::message, R::name}, {R::ordered_vc}},
    {"OpDesc", Kept::op_desc, {R::kind, R::name}, {}},
    {"OperationInstance", Kept::operation_instance, {R::op_id, R::parent_id, R::kind}, {R::provenance}},
    {"TaskInfo", Kept::task_info, {R::op_id, R::task_id, R::variant_id, R::proc_id, RR_TIMES, RR_EVENTS}, {}},
    {"GPUTaskInfo", Kept::gpu_task_info,
     {R::op_id, R::task_id, R::variant_id, R::proc_id, RR_TIMES, R::gpu_start, R::gpu_stop, RR_EVENTS}, {}},
    {"ImplicitTaskInfo", Kept::implicit_task_info,
     {R::op_id, R::task_id, R::variant_id, R::proc_id, RR_TIMES, RR_EVENTS}, {}},
    {"MetaInfo", Kept::meta_info, {R::op_id, R::lg_id, R::proc_id, RR_TIMES, RR_EVENTS}, {}},
    {"MessageInfo", Kept::message_info, {R::op_id, R::lg_id, R::proc_id, R::spawn, RR_TIMES, RR_EVENTS}, {}},
    {"PartitionInfo", Kept::partition_info, {R::op_id, R::part_op, RR_TIMES, RR_EVENTS}, {}},
    {"ProfTaskInfo", Kept::prof_task_info, {R::proc_id, R::op_id, R::start, R::stop, R::creator, R::fevent},
     {R::completion}},
    {"TaskWaitInfo", Kept::task_wait_info,
     {R::op_id, R::task_id, R::wait_start, R::wait_ready, R::wait_end, R::wait_event}, {R::variant_id}},
    {"MetaWaitInfo", Kept::meta_wait_info,
     {R::op_id, R::lg_id, R::wait_start, R::wait_ready, R::wait_end, R::wait_event}, {}},
    {"CopyInfo", Kept::copy_info, {R::op_id, R::size, RR_TIMES, RR_EVENTS}, {R::collective}},
    {"CopyInstInfo", Kept::copy_inst_info,
     {R::src, R::dst, R::src_fid, R::dst_fid, R::src_inst, R::dst_inst, R::fevent, R::num_hops, R::indirect}, {}},
    {"FillInfo", Kept::fill_info, {R::op_id, R::size, RR_TIMES, RR_EVENTS}, {}},
    {"FillInstInfo", Kept::fill_inst_info, {R::dst, R::fid, R::dst_inst, R::fevent}, {}},
    {"InstTimelineInfo", Kept::inst_timeline_info,
     {R::inst_uid, R::inst_id, R::mem_id, R::size, R::op_id, R::create, R::ready, R::destroy, R::creator}, {}},
    {"EventWaitInfo", Kept::event_wait_info, {R::proc_id, R::fevent, R::wait_event}, {R::backtrace_id}},
    {"EventMergerInfo", Kept::event_merger_info, {R::result, R::fevent, R::performed, R::pre0, R::pre1, R::pre2, R::pre3},
     {}},
    {"EventTriggerInfo", Kept::event_trigger_info, {R::result, R::fevent, R::precondition, R::performed}, {}},
    {"EventPoisonInfo", Kept::event_poison_info, {R::result, R::fevent, R::performed}, {}},
    {"BarrierArrivalInfo", Kept::barrier_arrival_info, {R::result, R::fevent, R::precondition, R::performed}, {}},
    {"ReservationAcquireInfo", Kept::reservation_acquire_info,
     {R::result, R::fevent, R::precondition, R::performed, R::reservation}, {}},
    {"InstanceReadyInfo", Kept::instance_ready_info, {R::result, R::precondition, R::inst_uid, R::performed}, {}},
    {"InstanceRedistrictInfo", Kept::instance_redistrict_info,
     {R::result, R::precondition, R::previous, R::next, R::performed}, {}},
    {"CompletionQueueInfo", Kept::completion_queue_info,
     {R::result, R::fevent, R::performed, R::pre0, R::pre1, R::pre2, R::pre3}, {}},
};

#undef RR_TIMES
#undef RR_EVENTS

// Far above any real record; keeps every offset within 32 bits.
constexpr std::uint64_t kMaxFieldBytes = std::uint64_t{1} << 30;

[[noreturn]] void header_error(const ProfRecordLayout& r, const std::string& message) {
  throw SourceError("Legion Prof header: record type " + r.name + " " + message, 0, r.offset);
}

[[noreturn]] void layout_error(const ProfRecordLayout& r, const std::string& message) {
  throw SourceError("Legion Prof header: record type " + r.name + " " + message +
                        "; this reader needs it to decode " + r.name + " records (has the log format changed?)",
                    0, r.offset);
}

std::string encoding_name(const RoleSpec& s) {
  if (s.shape == Shape::string) return "a string";
  if (s.shape == Shape::boolean) return "a bool of 1 byte";
  return "an integer of " + std::to_string(s.size) + " bytes";
}

// The header's field must be encoded as the reader reads it: same width, and an integer type the format
// lists (signedness aside: the bits are read the same), a 1-byte bool, or a string.
bool compatible(const ProfField& f, const RoleSpec& s) {
  const bool integer_like = f.known_type && (f.kind == ProfFieldType::unsigned_int ||
                                             f.kind == ProfFieldType::signed_int ||
                                             f.kind == ProfFieldType::uuid_size || f.kind == ProfFieldType::boolean);
  switch (s.shape) {
    case Shape::string: return f.kind == ProfFieldType::string;
    case Shape::boolean:
    case Shape::integer: return integer_like && f.size == static_cast<std::int32_t>(s.size);
  }
  return false;
}

void bind_roles(RecordPlan& plan, const ProfRecordLayout& r, Roles roles, bool required) {
  for (Role role : roles) {
    const RoleSpec& spec = kRoles[static_cast<std::size_t>(role)];
    const int index = r.field_index(spec.name);
    if (index < 0) {
      if (required) layout_error(r, "has no field '" + std::string(spec.name) + "'");
      continue;
    }
    const ProfField& f = r.fields[static_cast<std::size_t>(index)];
    if (!compatible(f, spec))
      layout_error(r, "has field '" + f.name + "' as '" + f.type + ":" + std::to_string(f.size) + "', not " +
                          encoding_name(spec));
    plan.role_field[static_cast<std::size_t>(role)] = static_cast<std::uint16_t>(index);
  }
}

}  // namespace

void RecordPlan::size_with(std::uint32_t max_dim) {
  // In 64 bits: a header may declare absurd sizes, which must be refused rather than wrap around.
  std::uint64_t offset = 0;
  offsets.assign(kinds.size(), 0);
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const auto element = static_cast<std::uint64_t>(layout->fields[i].size);
    std::uint64_t width = widths[i];
    if (kinds[i] == ProfFieldType::point) width = element * max_dim;
    if (kinds[i] == ProfFieldType::array) width = 2 * element * max_dim;
    if (width > kMaxFieldBytes || offset > kMaxFieldBytes)
      header_error(*layout, "has field '" + layout->fields[i].name + "' wider than any record can be");
    widths[i] = static_cast<std::uint32_t>(width);
    offsets[i] = static_cast<std::uint32_t>(offset);
    offset += width;
  }
  if (offset > kMaxFieldBytes) header_error(*layout, "is wider than any record can be");
  fixed_size = static_cast<std::uint32_t>(offset);
  sized = true;
}

std::string_view kept_record_name(Kept kept) {
  for (const KeptSpec& k : kKept)
    if (k.kept == kept) return k.record;
  return {};
}

std::vector<RecordPlan> build_plans(const ProfHeader& header) {
  std::vector<RecordPlan> plans(header.records.size());
  for (std::size_t slot = 0; slot < header.records.size(); ++slot) {
    const ProfRecordLayout& r = header.records[slot];
    RecordPlan& plan = plans[slot];
    plan.id = r.id;
    plan.slot = static_cast<std::uint32_t>(slot);
    plan.layout = &r;
    plan.role_field.fill(kNoField);
    if (r.fields.size() >= kNoField) header_error(r, "has too many fields");
    for (const ProfField& f : r.fields) {
      plan.kinds.push_back(f.kind);
      // Strings and uuids are measured per record; points and arrays wait for MAX_DIM.
      plan.widths.push_back(f.kind == ProfFieldType::string || f.kind == ProfFieldType::uuid ||
                                    f.kind == ProfFieldType::point || f.kind == ProfFieldType::array
                                ? 0
                                : static_cast<std::uint32_t>(f.size));
      plan.variable |= f.kind == ProfFieldType::string || f.kind == ProfFieldType::uuid;
      plan.needs_max_dim |= f.kind == ProfFieldType::point || f.kind == ProfFieldType::array;
    }
    for (const KeptSpec& k : kKept) {
      if (k.record != r.name) continue;
      plan.kept = k.kept;
      bind_roles(plan, r, k.required, true);
      bind_roles(plan, r, k.optional, false);
    }
    if (!plan.needs_max_dim) plan.size_with(0);
  }
  return plans;
}

}  // namespace rr::parser::prof
