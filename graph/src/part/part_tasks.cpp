// Step 4 of the part build: each task's owner puts its actions in program order (by file and line, as the whole
// build's order_actions), numbers its Task Waits as the whole graph does (its waits sorted by task, then position:
// one more exchange tells every rank how many waits each waiting task has), adds a task_resume vertex per wait and
// moves the edges leaving a task that waits onto its segments (wait_split.cpp there). The positions go back to the
// issued operations' owners, the wait edges to the awaited producers' owners.
#include <algorithm>

#include "graph/src/part/part_builder.hpp"
#include "graph/src/part/part_wire.hpp"

namespace rr::graph::part_detail {

namespace {

bool by_task(const WaitCount& a, const WaitCount& b) { return a.task < b.task; }

}  // namespace

// over 120 lines because program order, wait numbering, the split and its exchange share one task's run of
// actions; taken apart they would each walk it again.
void PartBuilder::order_tasks() {
  const std::uint32_t ranks = exchange_.ranks();
  std::sort(actions_.begin(), actions_.end(),
            [](const ActionNote& a, const ActionNote& b) { return a.task != b.task ? a.task < b.task : a.where < b.where; });
  std::vector<WaitCount> mine;
  for (std::size_t i = 0; i < actions_.size();) {
    std::size_t j = i;
    std::uint32_t waits = 0;
    for (; j < actions_.size() && actions_[j].task == actions_[i].task; ++j) waits += actions_[j].op == kNoVertex;
    task_order_.push_back({actions_[i].task, static_cast<std::uint32_t>(j - i), kNoWait});
    if (waits > 0) mine.push_back({actions_[i].task, waits});
    i = j;
  }
  count_waits(mine);
  first_resume_ = record_vertices_ + static_cast<VertexId>(phase_keys_.size());
  const std::uint64_t tail_run = 1 + std::uint64_t{total_batches_};

  ByRank<PositionNote> positions(ranks);
  ByRank<EdgeNote> wait_edges(ranks);
  // The segments of each task that waits: its task vertex, then a resume per wait; by task, for the moves below.
  struct Split {
    VertexId task;
    std::size_t first, count;  // its waits in waits_
  };
  std::vector<Split> splits;
  // Each action adds one edge here (an issue, or a wait's continuation), and each wait of the whole graph at most one
  // wait edge (its own or another rank's), all without growing the array again.
  const std::size_t delivered = edges_.size();
  grow_room(edges_, delivered + actions_.size() + total_waits_);
  for (auto& p : positions) p.reserve(actions_.size());
  for (std::size_t i = 0, t = 0; i < actions_.size(); ++t) {
    const VertexId task = actions_[i].task;
    std::size_t j = i;
    while (j < actions_.size() && actions_[j].task == task) ++j;
    const auto before = std::lower_bound(waits_before_.begin(), waits_before_.end(), WaitCount{task, 0}, by_task);
    const bool waits = before != waits_before_.end() && before->task == task;
    const std::size_t first_wait = waits_.size();
    for (std::size_t k = i; k < j; ++k) {
      discard_read(actions_, k);  // read in order, once: their pages go back as positions and edges grow
      const ActionNote& a = actions_[k];
      const auto position = static_cast<std::uint32_t>(k - i);
      if (a.op != kNoVertex) {
        positions[a.owner].push_back({a.op, task, position});
        // The segment the action falls in: the resume after the last wait before it.
        const VertexId from = waits_.size() > first_wait ? waits_.back().resume : task;
        edges_.push_back({from, a.op, a.key, EdgeKind::issue});
        continue;
      }
      const std::uint32_t g = before->waits + static_cast<std::uint32_t>(waits_.size() - first_wait);
      const VertexId resume = first_resume_ + g;
      const VertexId previous = waits_.size() > first_wait ? waits_.back().resume : task;
      const WaitDetail& detail = wait_details_.at(a.key);
      waits_.push_back({task, resume, a.awaited, detail.event, detail.wait_ns, position, -1.0f});
      wait_index_.push_back(g);
      edges_.push_back({previous, resume, edge_key(tail_run, 2 * std::uint64_t{g}), EdgeKind::continuation});
      if (a.awaited != kNoVertex)
        wait_edges[a.owner].push_back({a.awaited, resume, edge_key(tail_run, 2 * std::uint64_t{g} + 1), EdgeKind::wait});
    }
    if (waits) {
      task_order_[t].first_wait = before->waits;
      splits.push_back({task, first_wait, waits_.size() - first_wait});
    }
    i = j;
  }
  release(actions_);
  release(wait_details_);
  // Delivered edges that leave a task that waits leave its last segment: its finish event fires when that ends.
  for (std::size_t i = 0; i < delivered; ++i) {
    EdgeNote& e = edges_[i];
    const auto s = std::lower_bound(splits.begin(), splits.end(), e.from,
                                    [](const Split& x, VertexId v) { return x.task < v; });
    if (s != splits.end() && s->task == e.from) e.from = waits_[s->first + s->count - 1].resume;
  }
  std::vector<std::vector<std::byte>> to_each(ranks);
  for (std::uint32_t r = 0; r < ranks; ++r) {
    if (r == rank()) continue;  // this rank's own share is never written out
    WireWriter out;
    out.array(positions[r]);
    out.array(wait_edges[r]);
    to_each[r] = out.take();
    release(positions[r]);
    release(wait_edges[r]);
  }
  positions_ = std::move(positions[rank()]);
  edges_.insert(edges_.end(), wait_edges[rank()].begin(), wait_edges[rank()].end());  // not moved, as in the whole build
  wait_edges = {};
  std::vector<std::vector<std::byte>> from_each = exchange(std::move(to_each));
  for (std::uint32_t r = 0; r < from_each.size(); ++r) {
    if (r == rank()) continue;
    WireReader in(from_each[r]);
    in.append_to(positions_);
    const std::size_t edges = edges_.size();
    in.append_to(edges_);
    traffic_.edges_from_others += edges_.size() - edges;
    release(from_each[r]);
  }
}

// Every rank's waiting tasks, so that each knows where its tasks' waits fall among the whole graph's: those of tasks
// with lower ids come first. Few tasks wait (drivers), so every rank holds the list.
void PartBuilder::count_waits(const std::vector<WaitCount>& mine) {
  WireWriter out;
  out.array(mine);
  const std::vector<std::vector<std::byte>> from_each = exchange(std::vector(exchange_.ranks(), out.take()));
  for (const auto& bytes : from_each) {
    WireReader in(bytes);
    const auto got = in.array<WaitCount>();
    waits_before_.insert(waits_before_.end(), got.begin(), got.end());
  }
  std::sort(waits_before_.begin(), waits_before_.end(), by_task);
  for (WaitCount& w : waits_before_) {
    const std::uint32_t count = w.waits;
    w.waits = static_cast<std::uint32_t>(total_waits_);
    total_waits_ += count;
  }
}

}  // namespace rr::graph::part_detail
