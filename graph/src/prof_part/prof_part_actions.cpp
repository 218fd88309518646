// Step 6 of the Legion Prof part build: program order. Each owner puts its creators' actions in observed order (the
// whole build's order_actions: time, then input order), which gives each launched operation its position and
// launch fraction and each wait its own; the waits are numbered as the whole build numbers them (by task, then
// position: one exchange of how many waits each waiting task has), each task is split at its waits (WaitSplit's
// rules), and the launched operations' owners and the awaited producers' owners get their positions and wait edges.
#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "graph/src/part/part_wire.hpp"
#include "graph/src/prof_part/prof_part_builder.hpp"

namespace rr::graph::prof_part {

namespace {

using part_detail::WireReader;
using part_detail::WireWriter;

}  // namespace

// over 120 lines because it is the whole build's order_actions and WaitSplit over one owner's creators, with the
// two exchanges they need (the waiting tasks, then the positions and wait edges), one step after the other.
void ProfPartBuilder::order_actions() {
  std::sort(actions_.begin(), actions_.end(), [](const ActionNote& a, const ActionNote& b) {
    return std::tie(a.creator, a.at, a.key) < std::tie(b.creator, b.at, b.key);
  });
  auto note_of = [&](VertexId v) -> VertexNote& {
    auto it = std::lower_bound(vertices_.begin(), vertices_.end(), v, [](const VertexNote& n, VertexId id) { return n.id < id; });
    if (it == vertices_.end() || it->id != v) throw std::logic_error("part build: an action of a creator this rank does not own");
    return *it;
  };
  std::vector<WaitCount> waiting;  // own tasks with waits, and how many
  for (std::size_t i = 0; i < actions_.size();) {
    std::size_t j = i;
    std::uint32_t waits = 0;
    for (; j < actions_.size() && actions_[j].creator == actions_[i].creator; ++j) waits += actions_[j].op == kNoVertex;
    if (waits) waiting.push_back({actions_[i].creator, waits});
    i = j;
  }
  number_waits(waiting);  // sets each waiting task's first wait (TaskInfo::first_wait) and total_waits_

  ByRank<PositionNote> positions(ranks());
  ByRank<EdgeNote> wait_edges(ranks());
  std::unordered_map<VertexId, std::uint32_t> position_of;  // operations launched by own tasks that wait
  for (std::size_t i = 0; i < actions_.size();) {
    std::size_t j = i;
    while (j < actions_.size() && actions_[j].creator == actions_[i].creator) ++j;
    const VertexId c = actions_[i].creator;
    VertexNote& creator = note_of(c);
    TaskInfo& t = creator.task;
    t.action_count = static_cast<std::uint32_t>(j - i);
    TimeNs waited = 0;
    for (std::size_t k = i; k < j; ++k)
      if (actions_[k].op == kNoVertex) waited += std::max<TimeNs>(0, actions_[k].wait_end - actions_[k].at);
    const double busy = static_cast<double>(std::max<TimeNs>(1, t.time_ns - waited));
    TimeNs waits_before = 0;
    std::uint32_t wait = t.first_wait;
    for (std::size_t k = i; k < j; ++k) {
      const ActionNote& a = actions_[k];
      const auto position = static_cast<std::uint32_t>(k - i);
      const double offset = static_cast<double>(a.at - creator.start - waits_before);
      const float fraction = static_cast<float>(std::clamp(offset / busy, 0.0, 1.0));
      if (a.op != kNoVertex) {
        positions[a.op_owner].push_back({a.op, c, position, fraction});
        if (t.first_wait != kNoWait) position_of.emplace(a.op, position);
        continue;
      }
      WaitInfo w;
      w.task = c;
      w.resume = first_resume_ + wait;
      w.awaited = a.awaited;
      w.event = a.event;
      w.wait_ns = a.wait_ns;
      w.position = position;
      w.fraction = fraction;
      // The segment before it continues into its resume; the awaited producer's edge enters the resume.
      const VertexId previous = wait == t.first_wait ? c : waits_owned_.back().resume;
      out_edges_.push_back({previous, w.resume, rank(), rank(), EdgeKind::continuation, EdgeRun::wait_split, {},
                            2 * std::uint64_t{wait}});
      if (w.awaited != kNoVertex)
        wait_edges[a.awaited_owner].push_back({w.awaited, w.resume, a.awaited_owner, rank(), EdgeKind::wait,
                                               EdgeRun::wait_split, {}, 2 * std::uint64_t{wait} + 1});
      waits_owned_.push_back(w);
      wait_ends_.push_back(a.wait_end);
      ++wait;
      waits_before += a.wait_ns;
    }
    i = j;
  }
  // The split: an edge leaving a task that waits leaves the segment its action falls in (a launch) or the last one
  // (everything else); the tail's continuation and wait edges stay where they are.
  std::unordered_map<VertexId, std::pair<std::size_t, std::size_t>> waits_of;  // task -> its run of waits_owned_
  for (std::size_t k = 0; k < waits_owned_.size(); ++k) {
    auto [it, fresh] = waits_of.try_emplace(waits_owned_[k].task, k, k + 1);
    if (!fresh) it->second.second = k + 1;
  }
  for (EdgeNote& e : out_edges_) {
    if (e.run == EdgeRun::wait_split) continue;
    auto it = waits_of.find(e.from);
    if (it == waits_of.end()) continue;
    const auto [first, end] = it->second;
    if (e.kind == EdgeKind::issue) {
      const std::uint32_t k = position_of.at(e.to);
      std::size_t after = first;
      while (after < end && waits_owned_[after].position < k) ++after;
      e.from = after == first ? e.from : waits_owned_[after - 1].resume;
    } else {
      e.from = waits_owned_[end - 1].resume;
    }
  }
  std::vector<std::vector<std::byte>> to_each(ranks());
  for (std::uint32_t r = 0; r < ranks(); ++r) {
    if (r == rank()) continue;
    WireWriter message;
    message.array(positions[r]);
    message.array(wait_edges[r]);
    to_each[r] = message.take();
  }
  const auto from_each = channel_.exchange(std::move(to_each));
  for (std::uint32_t r = 0; r < ranks(); ++r) {
    if (r == rank()) {
      positions_.insert(positions_.end(), positions[r].begin(), positions[r].end());
      out_edges_.insert(out_edges_.end(), wait_edges[r].begin(), wait_edges[r].end());
      continue;
    }
    WireReader message(from_each[r]);
    message.append_to(positions_);
    message.append_to(out_edges_);
  }
  std::sort(positions_.begin(), positions_.end(), [](const PositionNote& a, const PositionNote& b) { return a.op < b.op; });
  std::sort(out_edges_.begin(), out_edges_.end(), [](const EdgeNote& a, const EdgeNote& b) {
    return std::tie(a.from, a.run, a.seq) < std::tie(b.from, b.run, b.seq);
  });
}

// Every rank lists the waiting tasks and how many waits each has: the whole graph's waits are by task, then
// position, so a task's first wait is the count of the waits of the tasks before it.
void ProfPartBuilder::number_waits(const std::vector<WaitCount>& mine) {
  WireWriter out;
  out.array(mine);
  const std::vector<std::byte> message = out.take();
  const auto from_each = channel_.exchange(std::vector<std::vector<std::byte>>(ranks(), message));
  std::vector<WaitCount> all;
  for (std::uint32_t r = 0; r < ranks(); ++r) {
    WireReader in(r == rank() ? message : from_each[r]);
    in.append_to(all);
  }
  std::sort(all.begin(), all.end(), [](const WaitCount& a, const WaitCount& b) { return a.task < b.task; });
  waiting_tasks_ = all.size();
  std::uint64_t before = 0;
  std::size_t own = 0;  // `mine` is by task too
  for (const WaitCount& w : all) {
    if (own < mine.size() && mine[own].task == w.task) {
      auto it = std::lower_bound(vertices_.begin(), vertices_.end(), w.task, [](const VertexNote& n, VertexId id) { return n.id < id; });
      it->task.first_wait = static_cast<std::uint32_t>(before);
      ++own;
    }
    before += w.waits;
  }
  total_waits_ = before;
  if (first_resume_ + before > kNoVertex - 1) throw std::length_error("part build: more vertices than 32-bit ids hold");
}

}  // namespace rr::graph::prof_part
