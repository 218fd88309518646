// The replayed events of a timeline (`replay --timeline`), in the timeline's order (replay/timeline_order.hpp),
// from one process's intervals or streamed over the ranks of a replay over ranks. Over ranks each rank renders the
// events of its own operations' intervals and sends them to rank 0 in batches of about 1 MB, one more batch each time
// rank 0 has taken one; rank 0 merges the ranks' sorted streams by their key as they come, so it writes one
// engine's order while holding at most two batches a rank, and never the other ranks' intervals.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

#include "replay/replay_result.hpp"

namespace rr::replay {

// An interval's event as the timeline writes it, or nothing when the timeline leaves it out (its filters).
using RenderInterval = std::function<std::optional<std::string>(const Interval&)>;
using EmitEvent = std::function<void(std::string_view)>;

// What the replayed events leave for the rest of the timeline.
struct ReplayedEvents {
  std::set<std::uint32_t> used_tracks;  // the tracks of the events written
  // Each vertex asked for that has an interval: its first in the timeline's order, written or left out.
  std::unordered_map<graph::VertexId, Interval> first_interval;
};

// Renders `r`'s intervals, in order, into `emit`. In one process (or on rank 0 of a replay that ran there alone)
// these are all of them; split over ranks (split_over_ranks), each rank calls stream_timeline instead.
ReplayedEvents render_intervals(const ReplayResult& r, std::span<const graph::VertexId> wanted,
                                const RenderInterval& render, const EmitEvent& emit);

// Whether this process writes the timeline: in one process and on rank 0; not on another rank of a replay split
// over ranks, which streams its part to rank 0.
bool writes_timeline(const ReplayResult& r);

// A replay split over ranks, on every rank at once. Rank 0 merges every rank's rendered events into `emit` and
// returns what they leave, with the first intervals of `wanted` from whichever rank holds them; another rank
// renders its own, streams them to rank 0 and returns nothing of use (and ignores `wanted` and `emit`).
ReplayedEvents stream_timeline(const ReplayResult& r, std::span<const graph::VertexId> wanted,
                               const RenderInterval& render, const EmitEvent& emit);

// A replay from parts (from_parts), on every rank at once: every rank's `mine` on rank 0, by rank; nothing on the
// others. The timeline's observed run: each rank holds the observed times of its own operations only.
std::vector<std::vector<std::byte>> gather_from_parts(const ReplayResult& r, std::vector<std::byte> mine);

}  // namespace rr::replay
