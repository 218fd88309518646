// The bounds a graph's values from outside (a packed trace file) must lie in, shared by the whole graph's structure
// check (EventGraph::structure_problem) and a part's (GraphPart::structure_problem): what the replay's arithmetic
// stays exact in. The parsers bound them tighter (docs/limits.md).
#pragma once

#include <cstdint>

#include "graph/event_graph.hpp"

namespace rr::graph::limits {

inline constexpr std::int64_t kMaxDuration = std::int64_t{1} << 62;
inline constexpr std::int64_t kMaxBarrierValue = std::int64_t{1} << 32;
// Observed times are relative to the run's origin (a clock in ns since 1970 fits 2^61 until 2043): each bound
// so that differences, and sums with the origin, stay in 64 bits.
inline constexpr std::int64_t kMaxObservedTime = std::int64_t{1} << 61;
inline constexpr std::int64_t kMaxObservedOrigin = std::int64_t{1} << 62;

inline bool is_observed_time(std::int64_t t) { return t >= -kMaxObservedTime && t <= kMaxObservedTime; }
// Where in a busy time something happened: -1 when not known, else in [0, 1] (the builders clamp); NaN is
// neither.
inline bool is_fraction(float f) { return f == -1.0f || (f >= 0.0f && f <= 1.0f); }

inline bool is_task_like(OpKind k) { return k == OpKind::task || k == OpKind::background; }
inline bool is_segment(OpKind k) { return k == OpKind::task || k == OpKind::task_resume; }

// Whether an edge of `kind` may leave an operation of kind `from`: the half of the edge rules a part can check
// without its target (an arrival leaves an arrive or alter, phase order a phase, a continuation and an action a
// task segment or background work).
inline bool may_leave(EdgeKind kind, OpKind from) {
  switch (kind) {
    case EdgeKind::arrival: return from == OpKind::barrier_arrive || from == OpKind::barrier_alter;
    case EdgeKind::phase_order: return from == OpKind::barrier_phase;
    case EdgeKind::continuation: return is_segment(from);
    case EdgeKind::issue: return is_segment(from) || from == OpKind::background;
    default: return true;
  }
}

}  // namespace rr::graph::limits
