// Program order of each task's actions, and the split of tasks at their Task Waits.
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>

#include "platform/huge_pages.hpp"

#include "graph/src/builder/graph_builder_impl.hpp"
#include "graph/src/builder/wait_split.hpp"

namespace rr::graph::build_detail {

// Program order of each task's actions: by file and line (one thread logs them all: docs/realm-log-format.md, Order).
// Every (issuer, file, line) is distinct, so the parallel sort gives one order.
void GraphBuilder::order_actions() {
  tbb::parallel_sort(actions_.begin(), actions_.end(), [](const Action& a, const Action& b) {
    return a.issuer != b.issuer ? a.issuer < b.issuer : a.where < b.where;
  });
  // Positions are stored only now, when the records are no longer held: that keeps them off the peak.
  // Vertices added later (task_resume) get theirs in freeze().
  platform::assign_on_huge_pages(v_.position, std::size_t{v_.size()}, std::uint32_t{0});
  for (std::size_t i = 0; i < actions_.size;) {
    std::size_t j = i;
    while (j < actions_.size && actions_.data[j].issuer == actions_.data[i].issuer) ++j;
    TaskInfo& task = v_.tasks[v_.payload[actions_.data[i].issuer]];
    task.action_count = static_cast<std::uint32_t>(j - i);
    for (std::size_t k = i; k < j; ++k) {
      const Action& a = actions_.data[k];
      if (a.is_wait())
        v_.waits[a.index()].position = static_cast<std::uint32_t>(k - i);
      else
        v_.position[a.index()] = static_cast<std::uint32_t>(k - i);
    }
    i = j;
  }
  actions_ = {};
  action_slab_.reset();
  // Waits grouped by task, in program order, so each task owns a contiguous range.
  std::stable_sort(v_.waits.begin(), v_.waits.end(), [](const WaitInfo& a, const WaitInfo& b) {
    return a.task != b.task ? a.task < b.task : a.position < b.position;
  });
  for (std::uint32_t i = 0; i < v_.waits.size(); ++i) {
    const WaitInfo& w = v_.waits[i];
    TaskInfo& t = v_.tasks[v_.payload[w.task]];
    if (t.first_wait == kNoWait) t.first_wait = i;
  }
}

// Tasks split at their waits (wait_split.hpp); each batch's edges moved onto their segments in parallel.
void GraphBuilder::split_tasks_at_waits() {
  if (v_.waits.empty()) return;
  WaitSplit split;
  tail_edges_ = split.add_resumes(v_);
  split.move_sources(v_, barrier_edges_);
  tbb::parallel_for(std::size_t{0}, work_.size(),
                    [&](std::size_t i) { split.move_sources(v_, {work_[i].edges.data, work_[i].edges.size}); });
}

}  // namespace rr::graph::build_detail
