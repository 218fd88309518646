// One plain struct per log record kind, laid out to pack densely in per-kind arrays.
#pragma once

#include <cstdint>

#include "ids.hpp"
#include "kinds.hpp"

namespace rr::core {

// Every record carries `line`: its line number relative to the first line of
// the batch that holds it (RecordBatch::first_line). Within one file, line order
// is append order, and for one thread it is program order (docs/realm-log-format.md, Order). Three records
// do without it, as nothing orders them or points back to them once parsed: Task
// Time, Copy Size and Event Precondition, among the most numerous, which the graph
// build holds until its memory peak.

// A 64-bit value kept as two 32-bit halves, so that a record of 32-bit fields that holds one has no padding:
// a Task Time takes 20 bytes instead of 24.
class Split64 {
 public:
  constexpr Split64(std::uint64_t value = 0)  // NOLINT: converts implicitly, as the value it stands for
      : low_(static_cast<std::uint32_t>(value)), high_(static_cast<std::uint32_t>(value >> 32)) {}
  constexpr operator std::uint64_t() const { return std::uint64_t{high_} << 32 | low_; }  // NOLINT

 private:
  std::uint32_t low_;
  std::uint32_t high_;
};
static_assert(sizeof(Split64) == 8 && alignof(Split64) == 4);

struct ProcessorRecord {
  std::uint32_t line;
  Handle id;
  ProcessorKind kind;
};

// Members live in RecordBatch::group_members[first_member, first_member + member_count).
struct GroupRecord {
  std::uint32_t line;
  Handle id;
  std::uint32_t first_member;
  std::uint32_t member_count;
};

struct MemoryRecord {
  std::uint32_t line;
  Handle id;
  MemoryKind kind;
};

struct TaskRequestRecord {
  std::uint32_t line;
  std::uint32_t func_id;
  Handle target;  // processor or processor group
  EventKey finish;
  EventKey precondition;
  EventKey enclosing;
  std::int32_t priority;
  // The args pointer and length are checked and counted (FileStats::null_args), not kept: nothing uses them.
};

// The longest Task Time or Task Wait a trace may give: 2^42 µs (51 days). In nanoseconds it is 2^52, so sums
// of a million such durations still fit an int64 (the parser counts a larger value as malformed).
inline constexpr std::uint64_t kMaxLoggedMicros = std::uint64_t{1} << 42;

struct TaskTimeRecord {
  EventKey finish;
  Split64 micros;
};
static_assert(sizeof(TaskTimeRecord) == 20);

struct TaskWaitRecord {
  std::uint32_t line;
  EventKey waiter;   // the waiting task's finish event
  EventKey awaited;
  std::uint64_t micros;
};

struct EventMergeRecord {
  std::uint32_t line;
  EventKey merged;
  std::uint32_t input_count;  // announced number of Event Precondition records
};

struct EventPreconditionRecord {
  EventKey merged;
  EventKey input;
};
static_assert(sizeof(EventPreconditionRecord) == 24);

struct EventTriggerRecord {
  std::uint32_t line;
  EventKey event;
  EventKey wait_on;
  EventKey enclosing;
};

// Barrier Creation prints only the id; the first phase is inferred later (docs/realm-log-format.md, Barriers).
struct BarrierCreationRecord {
  std::uint32_t line;
  Handle id;
  std::uint32_t expected_arrivals;
};

struct BarrierAlterRecord {
  std::uint32_t line;
  EventKey phase;
  EventKey enclosing;
  std::int32_t delta;
};

struct BarrierArriveRecord {
  std::uint32_t line;
  EventKey phase;
  EventKey wait_on;
  EventKey enclosing;
  std::uint32_t count;
};

struct CopyRequestRecord {
  std::uint32_t line;
  EventKey copy;
  EventKey wait_on;
  EventKey enclosing;
  Handle src_memory;
  Handle dst_memory;
};

struct CopySizeRecord {
  EventKey copy;
  Split64 bytes;
};
static_assert(sizeof(CopySizeRecord) == 20);

}  // namespace rr::core
