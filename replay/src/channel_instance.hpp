// One channel's instance on one model node: its lanes, the transfers waiting for one, and what it carried.
#pragma once

#include <cstdint>

#include "graph/event_graph.hpp"
#include "replay/replay_result.hpp"
#include "replay/src/serve_queue.hpp"

namespace rr::replay {

// A copy's hop waiting for a lane, served earliest ready first, then lowest vertex.
struct WaitingTransfer {
  TimeNs ready;
  graph::VertexId vertex;
  bool operator<(const WaitingTransfer& o) const { return ready != o.ready ? ready < o.ready : vertex < o.vertex; }
};

struct ChannelInstance {
  std::uint32_t channel;
  std::uint32_t node;
  std::uint32_t free_lanes;
  bool shared = false;  // takes requests from other blocks: its lanes are given out late (docs/replay.md)
  ServeQueue<WaitingTransfer> waiting;
  TimeNs busy_ns = 0;
  std::uint64_t transfers = 0;
  std::uint64_t bytes = 0;
};

}  // namespace rr::replay
