#include "replay/result_difference.hpp"

#include <tuple>

namespace rr::replay {

namespace {

template <typename T>
std::optional<std::string> differ_at(const char* field, const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size())
    return std::string(field) + ": " + std::to_string(a.size()) + " against " + std::to_string(b.size()) + " entries";
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i])) return std::string(field) + "[" + std::to_string(i) + "]";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> first_difference(const ReplayResult& a, const ReplayResult& b) {
  if (a.ops.size() != b.ops.size()) return "times: different operation counts";
  for (graph::VertexId v = 0; v < a.ops.size(); ++v)
    if (a.ready(v) != b.ready(v) || a.start(v) != b.start(v) || a.end(v) != b.end(v))
      return "times of operation " + std::to_string(v) + ": ready " + std::to_string(a.ready(v)) + "/" +
             std::to_string(b.ready(v)) + ", start " + std::to_string(a.start(v)) + "/" + std::to_string(b.start(v)) +
             ", end " + std::to_string(a.end(v)) + "/" + std::to_string(b.end(v));
  for (graph::VertexId v = 0; v < a.ops.size(); ++v) {
    if (a.released_by(v) != b.released_by(v)) return "released_by[" + std::to_string(v) + "]";
    if (a.release(v) != b.release(v)) return "release[" + std::to_string(v) + "]";
  }
  if (auto d = differ_at("processor_of", a.processor_of, b.processor_of)) return d;
  if (auto d = differ_at("outside_estimate", a.outside_estimate, b.outside_estimate)) return d;
  if (auto d = differ_at("issued_at", a.issued_at, b.issued_at)) return d;
  auto start_up = [](const StartUp& s) { return std::tie(s.node, s.processor, s.from, s.to); };
  if (a.start_ups.size() != b.start_ups.size()) return "start_ups: different counts";
  for (std::size_t i = 0; i < a.start_ups.size(); ++i)
    if (start_up(a.start_ups[i]) != start_up(b.start_ups[i])) return "start_ups[" + std::to_string(i) + "]";
  auto same_processor = [](const ProcessorUsage& x, const ProcessorUsage& y) {
    return x.busy_ns == y.busy_ns && x.segments == y.segments;
  };
  if (a.processors.size() != b.processors.size()) return "processors: different counts";
  for (std::size_t i = 0; i < a.processors.size(); ++i)
    if (!same_processor(a.processors[i], b.processors[i])) return "processors[" + std::to_string(i) + "]";
  auto channel = [](const ChannelUsage& c) { return std::tie(c.channel, c.node, c.busy_ns, c.transfers, c.bytes); };
  if (a.channels.size() != b.channels.size()) return "channels: different counts";
  for (std::size_t i = 0; i < a.channels.size(); ++i)
    if (channel(a.channels[i]) != channel(b.channels[i])) return "channels[" + std::to_string(i) + "]";
  auto path = [](const PathUsage& p) { return std::tie(p.copies, p.bytes, p.time_ns); };
  if (a.paths.size() != b.paths.size()) return "paths: different counts";
  for (auto i = a.paths.begin(), j = b.paths.begin(); i != a.paths.end(); ++i, ++j)
    if (i->first != j->first || path(i->second) != path(j->second)) return "paths[" + i->first + "]";
  auto interval = [](const Interval& x) { return std::tie(x.track, x.vertex, x.start, x.end); };
  if (a.intervals.size() != b.intervals.size()) return "intervals: different counts";
  for (std::size_t i = 0; i < a.intervals.size(); ++i)
    if (interval(a.intervals[i]) != interval(b.intervals[i])) return "intervals[" + std::to_string(i) + "]";
  if (a.stuck_examples.size() != b.stuck_examples.size()) return "stuck_examples: different counts";
  for (std::size_t i = 0; i < a.stuck_examples.size(); ++i)
    if (a.stuck_examples[i].vertex != b.stuck_examples[i].vertex || a.stuck_examples[i].reason != b.stuck_examples[i].reason)
      return "stuck_examples[" + std::to_string(i) + "]";
  auto scalars = [](const ReplayResult& r) {
    return std::make_tuple(r.makespan_ns, r.noise.sigma, r.noise.seed, r.operations, r.stuck, r.tasks_without_time,
                           r.outside_work, r.after_untimed, r.last_end_ns, r.measured_waits, r.measured_wait_ns,
                           r.copies_default_size, r.copies_retargeted, r.copies_removed, r.implied_copies,
                           r.implied_copy_ns, r.clamped_waits, r.cut_off);
  };
  if (scalars(a) != scalars(b)) return "a count or sum (makespan, operations, waits, copies...)";
  return std::nullopt;
}

}  // namespace rr::replay
