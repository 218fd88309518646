// The log's own timeline gives, at every instant, how many of the process's threads ran; each running interval's
// work is the integral of min(1, cores / running) over it.
#include "graph/prof_span_work.hpp"

#include <algorithm>
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

std::vector<double> span_work_shares(const core::ProfileRecords& p, std::uint32_t cores) {
  std::vector<double> share(p.work.size(), 1.0);
  if (cores == 0) return share;
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
    });
    if (ran > 0) share[i] = std::clamp(worked / ran, 0.0, 1.0);
  }
  return share;
}

}  // namespace rr::graph
