// The log's own timeline gives, at every instant, how many of the process's threads ran; each running interval's
// work is the integral of min(1, cores / running) over it.
#include "graph/prof_span_work.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace rr::graph {

namespace {

using core::TimeNs;

bool takes_core(const core::ProfWorkItem& w) {
  switch (w.kind) {
    case core::ProfWorkKind::task:
    case core::ProfWorkKind::meta_task:
    case core::ProfWorkKind::message:
    case core::ProfWorkKind::partition: return true;
    case core::ProfWorkKind::gpu_task:       // the device runs it
    case core::ProfWorkKind::implicit_task:  // the program's thread waits for the run to end
    case core::ProfWorkKind::prof_task: return false;
  }
  return false;
}

// The intervals item w ran: start to stop, less its waits (clipped to the span, in order).
template <typename F>
void for_each_run(const core::ProfileRecords& p, const core::ProfWorkItem& w, F&& f) {
  TimeNs from = w.start;
  if (w.kind != core::ProfWorkKind::partition)
    for (std::uint32_t i = 0; i < w.wait_count; ++i) {
      const core::ProfWait& wait = p.waits[w.first_wait + i];
      const TimeNs blocked = std::clamp(wait.wait_start, from, w.stop);
      if (blocked > from) f(from, blocked);
      from = std::max(from, std::min(wait.wait_end, w.stop));
    }
  if (w.stop > from) f(from, w.stop);
}

// W(t): the work one running thread has done by t, piecewise linear between the instants the running count
// changes (kept as those instants and W at each).
class WorkClock {
 public:
  WorkClock(std::vector<std::pair<TimeNs, int>> changes, std::uint32_t cores) {
    std::sort(changes.begin(), changes.end());
    int running = 0;
    double work = 0;
    for (std::size_t i = 0; i < changes.size();) {
      const TimeNs t = changes[i].first;
      if (!at_.empty()) work += static_cast<double>(t - at_.back()) * rate_.back();
      while (i < changes.size() && changes[i].first == t) running += changes[i++].second;
      at_.push_back(t);
      work_.push_back(work);
      rate_.push_back(running <= static_cast<int>(cores) ? 1.0 : static_cast<double>(cores) / running);
    }
  }
  double work_at(TimeNs t) const {
    auto it = std::upper_bound(at_.begin(), at_.end(), t);
    if (it == at_.begin()) return 0;
    const std::size_t i = static_cast<std::size_t>(it - at_.begin()) - 1;
    return work_[i] + static_cast<double>(t - at_[i]) * rate_[i];
  }

 private:
  std::vector<TimeNs> at_;
  std::vector<double> work_;
  std::vector<double> rate_;  // from at_[i] to at_[i + 1]
};

}  // namespace

std::vector<TimeNs> span_time_not_worked(const core::ProfileRecords& p, std::uint32_t cores,
                                         const std::vector<SilentWindow>& windows) {
  std::vector<TimeNs> lost(p.work.size(), 0);
  if (cores == 0) return lost;
  std::vector<std::pair<TimeNs, int>> changes;
  for (const auto& w : p.work)
    if (takes_core(w))
      for_each_run(p, w, [&](TimeNs a, TimeNs b) {
        changes.emplace_back(a, +1);
        changes.emplace_back(b, -1);
      });
  const WorkClock clock(std::move(changes), cores);
  for (std::size_t i = 0; i < p.work.size(); ++i) {
    const core::ProfWorkItem& w = p.work[i];
    if (!takes_core(w)) continue;
    double ran = 0, worked = 0;
    for_each_run(p, w, [&](TimeNs a, TimeNs b) {
      ran += static_cast<double>(b - a);
      worked += clock.work_at(b) - clock.work_at(a);
      for (const SilentWindow& s : windows)
        if (s.from < b && a < s.to)
          worked -= clock.work_at(std::min(b, s.to)) - clock.work_at(std::max(a, s.from));
    });
    if (ran > 0) lost[i] = static_cast<TimeNs>(std::llround(ran * (1 - std::clamp(worked / ran, 0.0, 1.0))));
  }
  return lost;
}

std::vector<SilentWindow> silent_windows(const core::ProfileRecords& p) {
  std::vector<TimeNs> times;
  TimeNs first = 0, last = 0;
  bool any = false;
  for (const auto& w : p.work) {
    if (w.kind == core::ProfWorkKind::implicit_task || w.kind == core::ProfWorkKind::prof_task) continue;
    times.insert(times.end(), {w.create, w.ready, w.start, w.stop});
    first = any ? std::min(first, w.start) : w.start;
    last = any ? std::max(last, w.stop) : w.stop;
    any = true;
  }
  if (!any) return {};
  for (const auto& w : p.waits) times.insert(times.end(), {w.wait_start, w.wait_ready, w.wait_end});
  for (const auto& c : p.copies) times.insert(times.end(), {c.create, c.ready, c.start, c.stop});
  for (const auto& c : p.fills) times.insert(times.end(), {c.create, c.ready, c.start, c.stop});
  for (const auto& i : p.instances) times.insert(times.end(), {i.create, i.ready});
  for (const auto& m : p.mergers) times.push_back(m.performed);
  for (const auto& t : p.triggers) times.push_back(t.performed);
  for (const auto& t : p.poisons) times.push_back(t.performed);
  for (const auto& t : p.arrivals) times.push_back(t.performed);
  for (const auto& t : p.reservation_acquires) times.push_back(t.performed);
  for (const auto& t : p.instance_readies) times.push_back(t.performed);
  for (const auto& t : p.instance_redistricts) times.push_back(t.performed);
  for (const auto& q : p.completion_queues) times.push_back(q.performed);
  std::erase_if(times, [&](TimeNs t) { return t < first || t > last; });
  std::sort(times.begin(), times.end());
  // A silence is a start-up only while a processor is in its first work item or between it and its second (the
  // stall of a tiny first task comes after its stop, before its finish event triggers): a long task running alone
  // is silent too, on a processor that ran before. Each processor starts up once.
  std::map<std::uint64_t, std::pair<TimeNs, TimeNs>> first_two;  // by processor: its first two items' starts
  constexpr TimeNs kNever = std::numeric_limits<TimeNs>::max();
  for (const auto& w : p.work) {
    if (!takes_core(w) || w.proc.value() == 0) continue;
    auto [it, fresh] = first_two.try_emplace(w.proc.value(), w.start, kNever);
    if (fresh) continue;
    auto& [first, second] = it->second;
    if (w.start < first) {
      second = first;
      first = w.start;
    } else {
      second = std::min(second, w.start);
    }
  }
  std::vector<SilentWindow> out;
  for (std::size_t i = 1; i < times.size(); ++i) {
    if (times[i] - times[i - 1] < kStartupSilenceNs) continue;
    const SilentWindow silence{times[i - 1], times[i], 0};
    for (auto it = first_two.begin(); it != first_two.end(); ++it)
      if (it->second.first <= silence.from && silence.to <= it->second.second) {
        out.push_back({silence.from, silence.to, it->first});
        first_two.erase(it);
        break;
      }
  }
  return out;
}

MeasuredStartUps measured_start_ups(const std::vector<std::vector<SilentWindow>>& windows_by_log) {
  // The lower median: of two, the shorter, since a start-up is only ever lengthened (by threads spinning beside it).
  auto median = [](std::vector<TimeNs> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? TimeNs{0} : v[(v.size() - 1) / 2];
  };
  MeasuredStartUps out;
  std::vector<TimeNs> firsts, later;
  for (std::size_t k = 0;; ++k) {
    std::vector<TimeNs> kth;
    for (const auto& windows : windows_by_log)
      if (k < windows.size()) kth.push_back(windows[k].to - windows[k].from);
    if (kth.empty()) break;
    (k == 0 ? firsts : later).insert((k == 0 ? firsts : later).end(), kth.begin(), kth.end());
    out.silences += kth.size();
    out.in_order.push_back(median(std::move(kth)));
  }
  out.typical = median(later.empty() ? std::move(firsts) : std::move(later));
  return out;
}

TimeNs silent_overlap(const std::vector<SilentWindow>& windows, TimeNs from, TimeNs to) {
  TimeNs sum = 0;
  for (const SilentWindow& s : windows)
    if (s.from < to && from < s.to) sum += std::min(to, s.to) - std::max(from, s.from);
  return sum;
}

}  // namespace rr::graph
