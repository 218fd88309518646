// Pricing on a machine model: busy-time scaling per processor kind and function, copy paths, transfer times.
#include "machine_models/machine_model.hpp"

#include <cmath>

#include "core/saturating.hpp"

namespace rr::machine {

namespace {
struct MemoryKey {
  core::MemoryKind kind;
  std::string_view key;
};
constexpr MemoryKey kMemoryKeys[] = {
    {core::MemoryKind::global, "global"},       {core::MemoryKind::system, "system"},
    {core::MemoryKind::registered, "registered"}, {core::MemoryKind::socket, "socket"},
    {core::MemoryKind::zero_copy, "zero_copy"}, {core::MemoryKind::framebuffer, "framebuffer"},
    {core::MemoryKind::l3_cache, "l3_cache"},   {core::MemoryKind::l2_cache, "l2_cache"},
    {core::MemoryKind::l1_cache, "l1_cache"}};
}  // namespace

std::string_view memory_kind_key(core::MemoryKind kind) {
  for (const auto& m : kMemoryKeys)
    if (m.kind == kind) return m.key;
  return "unknown";
}

std::optional<core::MemoryKind> memory_kind_from_key(std::string_view key) {
  for (const auto& m : kMemoryKeys)
    if (m.key == key) return m.kind;
  return std::nullopt;
}

const char* issue_point_name(IssuePoint p) {
  switch (p) {
    case IssuePoint::interpolate: return "interpolate";
    case IssuePoint::start: return "start";
    case IssuePoint::end: return "end";
  }
  return "?";
}

TimeNs MachineModel::scale_busy(core::ProcessorKind kind, std::uint32_t func_id, TimeNs traced_ns) const {
  if (kind == core::ProcessorKind::unknown || kind == core::ProcessorKind::group) return traced_ns;
  if (kind == core::ProcessorKind::external) kind = core::ProcessorKind::cpu;  // the program's thread runs on a CPU core
  const ProcessorClass& p = processor(kind);
  double speed = p.speed;
  if (auto it = p.function_speed.find(func_id); it != p.function_speed.end()) speed *= it->second;
  // Rounded to the nearest nanosecond so the result does not depend on the platform's rounding mode; held at
  // the time ceiling (a long task on a very slow processor would not fit int64).
  return core::held_round(static_cast<double>(traced_ns) / speed);
}

const CopyPath* MachineModel::path(core::MemoryKind src, core::MemoryKind dst, bool remote) const {
  for (const auto& p : paths)
    if (p.src == src && p.dst == dst && p.remote == remote) return &p;
  return nullptr;
}

TimeNs MachineModel::transfer_ns(const Channel& channel, std::uint64_t bytes) const {
  // A Copy Size is any 64-bit count: the transfer time is held at the time ceiling.
  return core::saturating_add(channel.latency_ns, core::held_round(static_cast<double>(bytes) / channel.bytes_per_ns));
}

void apply_processor_counts(MachineModel& model, const ProcessorCounts& counts) {
  for (std::size_t k = 0; k < kCountedKinds; ++k)
    if (const auto& count = counts.of_kind[k]) {
      model.processors[k].count = *count;
      model.processors[k].per_node.clear();
    }
}

}  // namespace rr::machine
