// The cores of each model node shared by the threads that run on it (machine::NodeResources::cores).
//
// When k threads run on a node of C cores and k > C, each gets C / k of a core: processor sharing, as an
// operating system's fair scheduler gives it over any span long against its time slice. Every thread on a node
// then advances at the same rate, so the node keeps one virtual clock, the work one thread has done since a
// chosen instant: it runs at min(1, C / k) of real time and changes rate only when a thread starts or stops.
// Work that starts at virtual time V and needs w reaches each of its points at V + offset whatever the rates in
// between, so what is due is kept in virtual time and a rate change moves nothing but the node's next due time:
// running work is never rescanned.
//
// A processor's start-up (runtime.processor_start_ns) freezes its node: the logs show nothing progressing while
// one runs, one start-up after another. The node's clock stands still until the last start-up begun ends. With no
// cores given, sharing runs with unlimited cores (every rate 1) on a model with start-ups, so that they freeze the
// node all the same.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <queue>
#include <vector>

#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"

namespace rr::replay {

// Whether a replay on `model` runs its nodes' work through CoreShare: the model limits the cores or processors
// start up.
inline bool shares_cores(const machine::MachineModel& model) {
  return model.node.cores > 0 || model.runtime.starts_up();
}

class CoreShare {
 public:
  using TimeNs = machine::TimeNs;
  static constexpr TimeNs kNone = -1;

  // What becomes due when a thread's work reaches a point: its end, or an operation it issues there.
  enum class DueKind : std::uint8_t { segment_end, background_end, issue };
  struct Due {
    double at;          // virtual time
    std::uint64_t seq;  // order of scheduling, for equal virtual times: a total order, so runs are reproducible
    graph::VertexId vertex;  // the running segment or background operation
    graph::VertexId action;  // issue: the operation issued; else the processor (segment_end)
    DueKind kind;
    bool operator>(const Due& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  // `cores` per model node (0: unlimited). Sharing is off, the engine's path without it, when the cores are
  // unlimited and no processor starts up.
  void configure(std::uint32_t nodes, std::uint32_t cores, bool start_ups) {
    cores_ = cores == 0 && start_ups ? kUnlimited : cores;
    nodes_.assign(cores_ == 0 ? 0 : nodes, {});
  }
  bool enabled() const { return cores_ > 0; }

  // A thread starts or stops running on `node` at `now`. The clock is brought to now at the old rate first.
  void thread_starts(std::uint32_t node, TimeNs now) { retime(node, now, +1); }
  void thread_stops(std::uint32_t node, TimeNs now) { retime(node, now, -1); }

  // A processor's start-up of `length_ns` begins on `node` at `now`, or after the one under way: the node is frozen
  // until it ends. The threads running meanwhile make no progress, and those that spun took no core from it: its
  // length is its work (graph::startup_work_ns measures it so).
  // Returns when it begins.
  TimeNs freeze(std::uint32_t node, TimeNs now, TimeNs length_ns) {
    Node& n = nodes_[node];
    advance(n, now);
    const TimeNs begins = std::max(n.frozen_until, now);
    n.frozen_until = begins + std::max<TimeNs>(0, length_ns);
    return begins;
  }

  // Work of a thread that started on `node` at `now` reaches a point `offset_ns` of its own time later.
  void schedule(std::uint32_t node, TimeNs now, TimeNs offset_ns, DueKind kind, graph::VertexId vertex,
                graph::VertexId action) {
    Node& n = nodes_[node];
    advance(n, now);
    n.due.push({n.virtual_now + static_cast<double>(std::max<TimeNs>(0, offset_ns)), next_seq_++, vertex, action, kind});
  }

  // The real time the node's first due point is reached at the present rate, kNone when nothing is due. The
  // engine asks after every change and keeps one wake-up per node (wake_at): earlier ones are stale.
  TimeNs next_due(std::uint32_t node) const {
    const Node& n = nodes_[node];
    if (n.due.empty()) return kNone;
    return std::max(n.since, n.frozen_until) + real_offset(n, n.due.top().at - n.virtual_now);
  }
  TimeNs& wake_at(std::uint32_t node) { return nodes_[node].wake_at; }

  // Takes every point due at `now` on `node` (in virtual time order) and gives each to `f`.
  template <typename F>
  void take_due(std::uint32_t node, TimeNs now, F&& f) {
    Node& n = nodes_[node];
    advance(n, now);
    // A point counts as reached within a millionth of a nanosecond of work: the clock's rounding must not turn a
    // wake-up computed for it into a second one a nanosecond later.
    while (!n.due.empty() && n.due.top().at <= n.virtual_now + 1e-6) {
      const Due d = n.due.top();
      n.due.pop();
      f(d);
    }
  }

 private:
  static constexpr std::uint32_t kUnlimited = ~0u;

  struct Node {
    std::uint32_t running = 0;
    TimeNs since = 0;          // the real time virtual_now was reached
    double virtual_now = 0;
    double rate = 1;           // min(1, cores / running)
    TimeNs frozen_until = 0;   // the clock stands still before this: a start-up is under way
    TimeNs wake_at = kNone;    // the engine's one live wake-up for this node
    std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due;
  };

  // Real time from the clock's next move until one thread has done `left` more work: rounded up, so the point is
  // never taken early. At rate 1 (no more threads than cores) the clock counts whole nanoseconds and this is exact.
  static TimeNs real_offset(const Node& n, double left) {
    if (left <= 0) return 0;
    return static_cast<TimeNs>(std::ceil(n.rate == 1 ? left : left / n.rate));
  }
  static void advance(Node& n, TimeNs now) {
    if (now <= n.since) return;
    const TimeNs moving_from = std::clamp(n.frozen_until, n.since, now);
    n.virtual_now += static_cast<double>(now - moving_from) * n.rate;
    n.since = now;
  }
  void retime(std::uint32_t node, TimeNs now, int change) {
    Node& n = nodes_[node];
    advance(n, now);
    n.running = static_cast<std::uint32_t>(static_cast<int>(n.running) + change);
    n.rate = n.running <= cores_ ? 1.0 : static_cast<double>(cores_) / n.running;
  }

  std::uint32_t cores_ = 0;
  std::uint64_t next_seq_ = 0;
  std::vector<Node> nodes_;
};

}  // namespace rr::replay
