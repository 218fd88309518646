// What a replay produces: per-operation times and what released each one, resource usage, stuck work.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/saturating.hpp"
#include "graph/event_graph.hpp"
#include "machine_models/machine_model.hpp"
#include "replay/operation_records.hpp"

namespace rr::replay {

struct ProcessorUsage {
  TimeNs busy_ns = 0;
  std::uint64_t segments = 0;
};

struct ChannelUsage {  // one channel instance (channel, node)
  std::uint32_t channel = 0;
  std::uint32_t node = 0;
  TimeNs busy_ns = 0;  // lane-time in use
  std::uint64_t transfers = 0;
  std::uint64_t bytes = 0;
};

struct PathUsage {
  std::uint64_t copies = 0;
  std::uint64_t bytes = 0;
  TimeNs time_ns = 0;  // from ready to done, queueing included

  // Another block's or rank's usage of the same path added in (times saturate, as the engine's sums do).
  void add(const PathUsage& more) {
    copies += more.copies;
    bytes += more.bytes;
    time_ns = core::saturating_add(time_ns, more.time_ns);
  }
};

// One interval on a timeline track (a processor or a channel instance), for --timeline.
struct Interval {
  std::uint32_t track = 0;  // processors first, then channel instances
  graph::VertexId vertex = graph::kNoVertex;
  TimeNs start = 0;
  TimeNs end = 0;
};

// A processor's start-up (machine::RuntimeCosts::processor_start_ns): its node stood still from `from` to `to`.
struct StartUp {
  std::uint32_t node = 0;       // model node
  std::uint32_t processor = 0;  // model processor starting up
  TimeNs from = 0;
  TimeNs to = 0;
};

// The run's noise (ReplayRules::noise), kept so that analyses of the result reproduce its durations (TaskTiming).
struct Noise {
  double sigma = 0;
  std::uint64_t seed = 0;
};

struct StuckExample {
  graph::VertexId vertex = graph::kNoVertex;
  std::string reason;
};

// A replay over ranks (replay/block_network.hpp): the network and who owns which operation (and after a replay from
// parts the graph the rank replayed on), kept with a rank's result for what goes on over the ranks after the replay
// (the critical path's walk, the timeline). Defined in replay/src/rank_part.hpp.
struct RankPart;

struct ReplayResult {
  TimeNs makespan_ns = 0;
  OperationRecords ops;  // per vertex: when it became ready, began and ended, and what released it
  // When v began (task segment start, copy's first hop); kNever if never.
  TimeNs start(graph::VertexId v) const { return ops.start(v); }
  TimeNs end(graph::VertexId v) const { return ops.end(v); }  // when its event fired; kNever if never
  TimeNs ready(graph::VertexId v) const { return ops.ready(v); }  // when it became ready
  // When its issuer reached an operation is not kept (replay::issue_time recomputes it), except when a node's
  // cores are shared: then the time depends on the other threads, and issued_at holds it per vertex
  // (kNever for an operation no running work issued). Empty otherwise. Over ranks each rank holds those its own work
  // issued (of its own operations or others'), where the engine wrote them, and the lower bound reads them there,
  // weighing its issuers' out-edges: by whole vertex for a replay of the whole graph, by vertex of the rank's view
  // (graph_of_part, ghosts included) from parts. No rank gathers the others'.
  std::vector<TimeNs> issued_at;
  graph::VertexId released_by(graph::VertexId v) const { return ops.released_by(v); }  // kNoVertex: none
  Release release(graph::VertexId v) const { return ops.release(v); }
  std::vector<std::uint32_t> processor_of;  // per vertex: model processor of a task segment, else ~0u
  Noise noise;                              // the noise its durations had

  std::vector<ProcessorUsage> processors;  // indexed like MachineMap::processors()
  // Channel instances used, by channel then node (timeline tracks). Over ranks every rank lists them all when
  // it records intervals; otherwise only rank 0 does.
  std::vector<ChannelUsage> channels;
  std::map<std::string, PathUsage> paths;  // "framebuffer->framebuffer remote"
  // When ResultDetail::record_intervals, in the timeline's order (replay/timeline_order.hpp). Over ranks, each
  // rank's of its own operations only (a copy's hops on other ranks' channels included).
  std::vector<Interval> intervals;
  // By when they began, then by node and processor. Over ranks every rank lists every rank's (a few per processor
  // at most: each rank sends the others its own once the replay is done).
  std::vector<StartUp> start_ups;

  std::uint64_t operations = 0;            // operations that completed
  std::uint64_t stuck = 0;                 // operations that never could
  std::vector<StuckExample> stuck_examples;
  // Tasks without Task Time did not finish in the traced run (meta-tasks requested at shutdown, tasks
  // waiting on events still pending at exit). They and everything after them (what waits on them, to any
  // depth; not what they issued) are replayed with zero busy time but left out of the estimate: the makespan
  // and the critical path count only the other operations.
  std::uint64_t tasks_without_time = 0;
  // Likewise work that is not the application's (EventGraph::outside_work: the program's own thread, whose
  // time is the whole program's; the profiler's responses). What they issue still happens when they issue it.
  std::uint64_t outside_work = 0;
  std::uint64_t after_untimed = 0;         // other operations that depend on one of them
  std::vector<char> outside_estimate;      // per vertex: one of those (empty when there are none)
  bool counts(graph::VertexId v) const { return outside_estimate.empty() || !outside_estimate[v]; }
  TimeNs last_end_ns = 0;                  // end of the last operation, those outside the estimate included
  // Task Waits on events no record produces, replayed with their measured duration (UnloggedTime::measured).
  std::uint64_t measured_waits = 0;
  TimeNs measured_wait_ns = 0;
  std::uint64_t copies_default_size = 0;   // replayed with the model's default size
  // Copies that follow the data of a moved task function (docs/mapping.md): an end moved, or removed because
  // they would move nothing; and copies the trace never needed, implied by a dependency between a task and a
  // moved one that now live in different memories.
  std::uint64_t copies_retargeted = 0;
  std::uint64_t copies_removed = 0;
  std::uint64_t implied_copies = 0;
  TimeNs implied_copy_ns = 0;
  std::uint64_t clamped_waits = 0;         // tasks whose waits exceeded their Task Time
  // The replay stopped at ReplayOptions::stop_after_ns with operations of the estimate still to finish: the estimate
  // is more than that time, makespan_ns and the other sums describe the replay up to it, and stuck is not counted.
  bool cut_off = false;
  // How the replay ran, not what it found: the blocks it was split into (ReplayExecution::blocks), 1 for one
  // engine. The rest of the result is the same for any count.
  std::uint32_t blocks = 1;
  // Set by a replay split over ranks, on a rank other than 0 of one that ran on rank 0 alone, and by a replay from
  // parts (replay/part_replay.hpp, at any rank count: it holds the rank's graph, graph_of_part): then the analyses
  // of this result (critical_path, the timeline) run over the ranks too, each rank reading only its own operations'
  // records. Null for a replay in one process, and on rank 0 of one that ran there alone.
  std::shared_ptr<const RankPart> over_ranks;
};

}  // namespace rr::replay
