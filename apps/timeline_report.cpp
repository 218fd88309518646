// The timeline of a replay: its replayed intervals (from this process or streamed from every rank), the tracks'
// names, the critical path and the observed run.
#include "timeline_report.hpp"

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "replay/byte_wire.hpp"
#include "replay/part_replay.hpp"
#include "replay/replay_engine.hpp"
#include "replay/timeline_stream.hpp"
#include "replay/timing_rules.hpp"

namespace rr::app {

namespace {

// The observed run beside the replay (Legion Prof logs): one process per traced node, numbered from
// kObservedPid so that it sorts after the replayed ones, and one track per traced processor (copies and
// fills: one per node). Operations that overlap on one track (a task that waited while another ran) go to
// extra lanes of it, the first free one in order of start, so that every track nests.
constexpr std::uint32_t kObservedPid = 1000000;
// Track kinds beyond the processor kinds (core::ProcessorKind < 8), which order a node's tracks.
constexpr int kBackgroundTrack = 8, kCopyTrack = 9;

// The timeline's "traceEvents" array, written one event at a time.
class EventStream {
 public:
  explicit EventStream(const std::function<void(std::string_view)>& out) : out_(out) {}
  void push_back(const nlohmann::json& event) { push_text(event.dump()); }
  // An event already rendered (replay/timeline_stream.hpp).
  void push_text(std::string_view event) {
    out_(first_ ? "" : ",");
    out_(event);
    first_ = false;
  }

 private:
  const std::function<void(std::string_view)>& out_;
  bool first_ = true;
};

// One track's operations in the observed run: its key (node, track kind, processor handle; background work and
// copies have handle 0) and its operations, named by whole-graph id, with what their events say of them.
using TrackKey = std::tuple<std::uint32_t, int, std::uint64_t>;
struct ObservedOp {
  replay::TimeNs start, end;
  graph::VertexId vertex;
  std::string name, event;
};
using ObservedTracks = std::map<TrackKey, std::vector<ObservedOp>>;

// The observed operations in the filter's window and nodes, by track. From parts, this rank's own only: each traced
// node's operations are one rank's, so each track is.
ObservedTracks observed_tracks(const ReplayView& v, const TimelineFilter& filter) {
  const graph::EventGraph& g = v.graph;
  const bool parts = replay::from_parts(v.result);
  ObservedTracks tracks;
  for (graph::VertexId x = 0; x < g.vertex_count(); ++x) {
    const graph::OpKind kind = g.kind(x);
    if (kind != graph::OpKind::task && kind != graph::OpKind::background && kind != graph::OpKind::copy) continue;
    const replay::TimeNs s = g.observed_start(x), e = g.observed_end(x);
    if (s == graph::kNoTime || e == graph::kNoTime) continue;
    if (filter.from_ns && e < *filter.from_ns) continue;
    if (filter.to_ns && s > *filter.to_ns) continue;
    const std::uint32_t node = g.node(x);
    if (!filter.nodes.empty() && !filter.nodes.count(node)) continue;
    if (parts && replay::place_of(v.result, g.whole_id(x)).record == graph::kNoVertex) continue;  // a ghost
    TrackKey key{node, kCopyTrack, 0};
    if (kind == graph::OpKind::task) {
      const std::uint64_t proc = g.task(x).processor.value();
      key = {node, static_cast<int>(v.map.traced_kind(proc)), proc};
    } else if (kind == graph::OpKind::background) {
      key = {node, kBackgroundTrack, 0};
    }
    std::string name = kind == graph::OpKind::copy ? "copy " + std::to_string(g.copy(x).bytes) + " B"
                                                   : g.function_name(g.task(x).func_id);
    tracks[key].push_back({s, e, g.whole_id(x), std::move(name), core::to_string(g.event(x))});
  }
  return tracks;
}


std::vector<std::byte> encode_tracks(const ObservedTracks& tracks) {
  replay::ByteWriter w;
  w.put<std::uint64_t>(tracks.size());
  for (const auto& [key, ops] : tracks) {
    w.put(std::get<0>(key));
    w.put(std::get<1>(key));
    w.put(std::get<2>(key));
    w.put<std::uint64_t>(ops.size());
    for (const ObservedOp& op : ops) {
      w.put(op.start);
      w.put(op.end);
      w.put(op.vertex);
      w.put_text(op.name);
      w.put_text(op.event);
    }
  }
  return w.take();
}

void decode_tracks(const std::vector<std::byte>& bytes, ObservedTracks& tracks) {
  replay::ByteReader in(bytes);
  for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
    const auto node = in.get<std::uint32_t>();
    const auto kind = in.get<int>();
    const auto proc = in.get<std::uint64_t>();
    std::vector<ObservedOp>& ops = tracks[{node, kind, proc}];
    for (auto k = in.get<std::uint64_t>(); k > 0; --k) {
      ObservedOp op;
      op.start = in.get<replay::TimeNs>();
      op.end = in.get<replay::TimeNs>();
      op.vertex = in.get<graph::VertexId>();
      op.name = in.get_text();
      op.event = in.get_text();
      ops.push_back(std::move(op));
    }
  }
}

// The observed run's tracks: in one process this process's; from parts every rank's, on rank 0 (every rank calls
// it; only rank 0 gets them).
ObservedTracks gathered_tracks(const ReplayView& v, const TimelineFilter& filter) {
  ObservedTracks tracks = observed_tracks(v, filter);
  if (!replay::from_parts(v.result)) return tracks;
  const std::vector<std::vector<std::byte>> from_ranks = replay::gather_from_parts(v.result, encode_tracks(tracks));
  for (std::size_t r = 1; r < from_ranks.size(); ++r) decode_tracks(from_ranks[r], tracks);
  return tracks;
}

void add_observed_run(const ReplayView& v, const TimelineFilter& filter, EventStream& events) {
  ObservedTracks tracks = gathered_tracks(v, filter);
  std::uint32_t tid = 0;
  std::map<std::pair<std::uint32_t, int>, std::uint32_t> index_in_kind;  // (node, kind) -> processors so far
  std::set<std::uint32_t> named_nodes;
  for (auto& [key, ops] : tracks) {
    const auto [node, kind, proc] = key;
    std::string track_name = kind == kCopyTrack         ? std::string("copies and fills")
                             : kind == kBackgroundTrack ? std::string("background work")
                                         : std::string(core::processor_kind_name(static_cast<core::ProcessorKind>(kind))) +
                                               " " + std::to_string(index_in_kind[{node, kind}]++);
    std::sort(ops.begin(), ops.end(), [](const ObservedOp& a, const ObservedOp& b) {
      return a.start != b.start ? a.start < b.start : a.vertex < b.vertex;
    });
    // Each operation takes the lowest lane free at its start (first fit). Operations come by start, so a lane
    // that is free for one stays free for the next until taken: the lanes that ended by now move from a heap
    // on their end to a heap of free lane numbers, O(log lanes) per operation however many overlap.
    std::size_t lanes = 0;
    using Busy = std::pair<replay::TimeNs, std::size_t>;  // (end, lane)
    std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
    std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> free_lanes;
    const std::uint32_t first_tid = tid;
    for (const ObservedOp& op : ops) {
      while (!busy.empty() && busy.top().first <= op.start) {
        free_lanes.push(busy.top().second);
        busy.pop();
      }
      std::size_t lane = lanes;
      if (!free_lanes.empty()) {
        lane = free_lanes.top();
        free_lanes.pop();
      } else {
        ++lanes;
      }
      busy.push({op.end, lane});
      events.push_back({{"name", op.name}, {"ph", "X"}, {"ts", static_cast<double>(op.start) / 1000.0},
                        {"dur", static_cast<double>(op.end - op.start) / 1000.0}, {"pid", kObservedPid + node},
                        {"tid", first_tid + lane},
                        {"args", {{"event", op.event}, {"vertex", op.vertex}}}});
    }
    for (std::size_t lane = 0; lane < lanes; ++lane)
      events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", kObservedPid + node}, {"tid", first_tid + lane},
                        {"args", {{"name", track_name + (lane ? " (overlap " + std::to_string(lane) + ")" : "")}}}});
    tid += static_cast<std::uint32_t>(lanes);
    if (named_nodes.insert(node).second)
      events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", kObservedPid + node},
                        {"args", {{"name", "observed node " + std::to_string(node)}}}});
  }
}

// The critical path as a process of its own, after the replayed nodes and before the observed run: one slice per
// step (its label, its class as the category, contention drawn apart), and flow arrows from each compute or copy
// step to the next, between the tracks their operations ran on.
constexpr std::uint32_t kCriticalPathPid = kObservedPid - 1;

bool in_window(const TimelineFilter& filter, replay::TimeNs begin, replay::TimeNs end) {
  return !(filter.from_ns && end < *filter.from_ns) && !(filter.to_ns && begin > *filter.to_ns);
}

// The critical path's compute and copy steps in the window, in path order (a step repeated at once named once):
// the flow arrows join their first intervals.
std::vector<graph::VertexId> critical_work(const ReplayView& v, const TimelineFilter& filter) {
  std::vector<graph::VertexId> work;
  if (!v.critical) return work;
  for (const auto& st : v.critical->steps)
    if (in_window(filter, st.begin, st.end) &&
        (st.cls == replay::PathClass::compute || st.cls == replay::PathClass::copy) &&
        (work.empty() || work.back() != st.vertex))
      work.push_back(st.vertex);
  return work;
}

void add_critical_path(const ReplayView& v, const TimelineFilter& filter,
                       const std::function<std::uint32_t(std::uint32_t)>& node_of_track,
                       const std::vector<graph::VertexId>& work,
                       const std::unordered_map<graph::VertexId, replay::Interval>& first_interval, EventStream& events) {
  if (!v.critical) return;
  bool any = false;
  for (const auto& st : v.critical->steps) {
    if (!in_window(filter, st.begin, st.end)) continue;
    events.push_back({{"name", st.label}, {"cat", replay::path_class_name(st.cls)}, {"ph", "X"},
                      {"ts", static_cast<double>(st.begin) / 1000.0}, {"dur", static_cast<double>(st.end - st.begin) / 1000.0},
                      {"pid", kCriticalPathPid}, {"tid", 0},
                      {"cname", st.cls == replay::PathClass::contention ? "terrible" : "good"},
                      {"args", {{"event", core::to_string(st.event)}, {"vertex", st.vertex}}}});
    any = true;
  }
  if (!any) return;
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", kCriticalPathPid}, {"args", {{"name", "critical path"}}}});
  events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", kCriticalPathPid}, {"tid", 0},
                    {"args", {{"name", "critical path (category: class)"}}}});
  auto interval_of = [&](graph::VertexId x) -> const replay::Interval* {
    const auto it = first_interval.find(x);
    return it == first_interval.end() ? nullptr : &it->second;
  };
  std::uint64_t flow = 0;
  for (std::size_t i = 0; i + 1 < work.size(); ++i) {
    const replay::Interval* a = interval_of(work[i]);
    const replay::Interval* b = interval_of(work[i + 1]);
    if (!a || !b) continue;
    if (!filter.nodes.empty() && (!filter.nodes.count(node_of_track(a->track)) || !filter.nodes.count(node_of_track(b->track))))
      continue;
    ++flow;
    events.push_back({{"name", "critical path"}, {"cat", "critical"}, {"ph", "s"}, {"id", flow},
                      {"ts", static_cast<double>(a->start) / 1000.0}, {"pid", node_of_track(a->track)}, {"tid", a->track}});
    events.push_back({{"name", "critical path"}, {"cat", "critical"}, {"ph", "f"}, {"bp", "e"}, {"id", flow},
                      {"ts", static_cast<double>(b->start) / 1000.0}, {"pid", node_of_track(b->track)}, {"tid", b->track}});
  }
}

// Tracks: processors first, then channel instances (ReplayResult::channels, by channel then node, which every
// rank of a replay over ranks lists alike).
std::uint32_t node_of_track(const ReplayView& v, std::uint32_t t) {
  const auto& procs = v.map.processors();
  return t < procs.size() ? procs[t].node : v.result.channels[t - procs.size()].node;
}

std::string track_name(const ReplayView& v, std::uint32_t t) {
  const auto& procs = v.map.processors();
  if (t < procs.size()) return std::string(core::processor_kind_name(procs[t].kind)) + " " + std::to_string(procs[t].index);
  return v.model.channels[v.result.channels[t - procs.size()].channel].name;
}

// A replayed interval's event, or nothing when the filter leaves it out: the one rendering of these events,
// whichever rank holds the interval (the rank of its operation, whose records give its ready time and release).
// The interval names its operation by whole id; after a replay from parts v.graph is the rank's own view and the
// records are by its part's index (replay::place_of finds both; elsewhere both are the id).
std::optional<std::string> replayed_event(const ReplayView& v, const TimelineFilter& filter, const replay::Interval& in) {
  if (!in_window(filter, in.start, in.end)) return std::nullopt;
  const std::uint32_t node = node_of_track(v, in.track);
  if (!filter.nodes.empty() && !filter.nodes.count(node)) return std::nullopt;
  const graph::EventGraph& g = v.graph;
  const replay::ReplayResult& r = v.result;
  const auto [at, record] = replay::place_of(r, in.vertex);
  std::string name;
  if (g.kind(at) == graph::OpKind::copy) {
    name = "copy " + std::to_string(replay::copy_bytes(g.copy(at), v.model)) + " B";
  } else {
    const graph::VertexId task = g.task_of(at);
    name = g.function_name(g.task(task).func_id);
    if (task != at) name += " (resumed)";
  }
  const nlohmann::json event = {
      {"name", name}, {"ph", "X"}, {"ts", static_cast<double>(in.start) / 1000.0},
      {"dur", static_cast<double>(in.end - in.start) / 1000.0}, {"pid", node}, {"tid", in.track},
      {"args",
       {{"event", core::to_string(g.event(at))},
        {"vertex", in.vertex},
        {"ready_us", static_cast<double>(r.ready(record)) / 1000.0},
        {"released_by", r.released_by(record) == graph::kNoVertex ? -1 : static_cast<std::int64_t>(r.released_by(record))},
        {"release", replay::release_name(r.release(record))}}}};
  return event.dump();
}

}  // namespace

void write_timeline(const ReplayView& v, const TimelineFilter& filter, const std::function<void(std::string_view)>& out) {
  const auto& r = v.result;
  const replay::RenderInterval render = [&](const replay::Interval& in) { return replayed_event(v, filter, in); };
  if (!replay::writes_timeline(r)) {
    replay::stream_timeline(r, {}, render, {});
    if (replay::from_parts(r) && v.graph.has_observed()) gathered_tracks(v, filter);  // (rank 0 writes them)
    return;
  }
  // The document as nlohmann would dump it whole (object keys in order), written piece by piece.
  const nlohmann::json other = {{"machine", v.model.name}, {"estimated_time_ns", r.makespan_ns}};
  out("{\"displayTimeUnit\":\"ns\",\"otherData\":");
  out(other.dump());
  out(",\"traceEvents\":[");
  EventStream events(out);
  const std::vector<graph::VertexId> work = critical_work(v, filter);
  const replay::EmitEvent emit = [&](std::string_view event) { events.push_text(event); };
  const replay::ReplayedEvents replayed = replay::split_over_ranks(r) ? replay::stream_timeline(r, work, render, emit)
                                                                      : replay::render_intervals(r, work, render, emit);
  std::set<std::uint32_t> named_nodes;
  for (auto t : replayed.used_tracks) {
    const std::uint32_t node = node_of_track(v, t);
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", node}, {"tid", t}, {"args", {{"name", track_name(v, t)}}}});
    if (named_nodes.insert(node).second)
      events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", node}, {"args", {{"name", (v.graph.has_observed() ? "replayed node " : "node ") + std::to_string(node)}}}});
  }
  add_critical_path(v, filter, [&](std::uint32_t t) { return node_of_track(v, t); }, work, replayed.first_interval, events);
  if (v.graph.has_observed()) add_observed_run(v, filter, events);
  out("]}\n");
}

void TimelineFile::write(const std::string& path, const ReplayView& v, const TimelineFilter& filter) {
  if (replay::writes_timeline(v.result)) error_ = target_.open(path);
  write_timeline(v, filter, [&](std::string_view text) {
    if (error_.empty()) target_.write(text);
  });
}

std::string TimelineFile::commit() { return error_.empty() ? target_.commit() : error_; }

}  // namespace rr::app
