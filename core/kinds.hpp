// Enumerations printed as integers in the log: record kinds, processor and memory kinds
// (docs/realm-log-format.md, Records and Kinds).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace rr::core {

// The 14 record kinds, in the order of the table in docs/realm-log-format.md, Records.
enum class RecordKind : std::uint8_t {
  processor,
  group,
  memory,
  task_request,
  task_time,
  task_wait,
  event_merge,
  event_precondition,
  event_trigger,
  barrier_creation,
  barrier_alter,
  barrier_arrive,
  copy_request,
  copy_size,
};
inline constexpr std::size_t kRecordKindCount = 14;

constexpr std::array<RecordKind, kRecordKindCount> all_record_kinds() {
  std::array<RecordKind, kRecordKindCount> kinds{};
  for (std::size_t i = 0; i < kRecordKindCount; ++i) kinds[i] = static_cast<RecordKind>(i);
  return kinds;
}

// The name as it is printed before the colon ("Task Request").
std::string_view record_kind_name(RecordKind kind);
// A snake_case key for JSON ("task_request").
std::string_view record_kind_key(RecordKind kind);

// A processor's kind. gpu, cpu and utility are `Processor::Kind` as the 2015 logs print it with %d (0, 1, 2; 3,
// PROC_GROUP, never appears in a Processor record: processor_kind_from_int maps it to `group`). `external` is the
// thread that ran the program itself (Legion Prof's implicit top-level task): it is no `-ll:cpu` processor and has
// its own kind; the 2015 logs have none.
enum class ProcessorKind : std::uint8_t { gpu = 0, cpu = 1, utility = 2, external = 3, group = 4, unknown = 255 };
// The kinds a model has processors of (gpu, cpu, utility, external): arrays indexed by ProcessorKind.
inline constexpr std::size_t kModelKindCount = 4;
// `Memory::Kind` printed with %d.
enum class MemoryKind : std::uint8_t {
  global = 0,
  system = 1,
  registered = 2,
  socket = 3,
  zero_copy = 4,
  framebuffer = 5,
  l3_cache = 6,
  l2_cache = 7,
  l1_cache = 8,
  unknown = 255,
};

ProcessorKind processor_kind_from_int(std::int32_t value);
MemoryKind memory_kind_from_int(std::int32_t value);
std::string_view processor_kind_name(ProcessorKind kind);  // "GPU", "CPU", "utility", ...
std::string_view memory_kind_name(MemoryKind kind);        // "GASNet global", "system", ...

// Logger level each record kind is written at: Task Time, Task Wait and Copy Size
// are `.debug` ({1}); the other eleven are `.info` ({2}) (docs/realm-log-format.md, Files and lines).
constexpr int expected_level(RecordKind kind) {
  return (kind == RecordKind::task_time || kind == RecordKind::task_wait || kind == RecordKind::copy_size) ? 1 : 2;
}

}  // namespace rr::core
