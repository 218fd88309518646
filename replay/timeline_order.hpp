// The order of a replay's timeline (ReplayResult::intervals): by start, then track, then operation. It depends on
// neither the engine nor the rank that ran an interval, so the sorted intervals of each rank of a replay over ranks
// merge into one engine's list.
#pragma once

#include <compare>
#include <cstdint>

#include "replay/replay_result.hpp"

namespace rr::replay {

struct TimelineKey {
  TimeNs start = 0;
  std::uint32_t track = 0;
  graph::VertexId vertex = graph::kNoVertex;
  friend auto operator<=>(const TimelineKey&, const TimelineKey&) = default;
};

inline TimelineKey timeline_key(const Interval& in) { return {in.start, in.track, in.vertex}; }
inline bool timeline_before(const Interval& a, const Interval& b) { return timeline_key(a) < timeline_key(b); }

}  // namespace rr::replay
