// Pricing on a machine model: busy-time scaling per processor kind and function, copy paths, transfer times.
#include "machine_models/machine_model.hpp"

#include <cmath>

namespace rr::machine {

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
  const ProcessorClass& p = processor(kind);
  double speed = p.speed;
  if (auto it = p.function_speed.find(func_id); it != p.function_speed.end()) speed *= it->second;
  // Rounded to the nearest nanosecond so the result does not depend on the platform's rounding mode.
  return static_cast<TimeNs>(std::llround(static_cast<double>(traced_ns) / speed));
}

const CopyPath* MachineModel::path(core::MemoryKind src, core::MemoryKind dst, bool remote) const {
  for (const auto& p : paths)
    if (p.src == src && p.dst == dst && p.remote == remote) return &p;
  return nullptr;
}

TimeNs MachineModel::transfer_ns(const Channel& channel, std::uint64_t bytes) const {
  return channel.latency_ns + static_cast<TimeNs>(std::llround(static_cast<double>(bytes) / channel.bytes_per_ns));
}

}  // namespace rr::machine
