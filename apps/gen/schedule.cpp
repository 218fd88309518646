// The generator's own scheduler for the ground truth: a small discrete-event simulation, written apart from
// the replay engine so that replaying the generated logs measures the replay's fidelity.
#include <map>
#include <queue>
#include <set>

#include "program.hpp"

namespace rr::gen {

namespace {
struct Event {
  std::int64_t time;
  std::uint32_t op;
  int what;  // 0 ready, 1 done
  bool operator>(const Event& o) const {
    if (time != o.time) return time > o.time;
    if (op != o.op) return op > o.op;
    return what > o.what;
  }
};
struct Waiting {
  std::int32_t priority;
  std::int64_t ready;
  std::uint32_t op;
  bool operator<(const Waiting& o) const {
    if (priority != o.priority) return priority > o.priority;
    if (ready != o.ready) return ready < o.ready;
    return op < o.op;
  }
};
}  // namespace

Truth schedule(const Program& p, const TruthMachine& m) {
  const std::size_t n = p.ops.size();
  Truth t;
  t.start.assign(n, -1);
  t.end.assign(n, -1);
  std::vector<std::vector<std::uint32_t>> consumers(n);
  std::vector<std::uint32_t> missing(n, 0);
  std::vector<std::int64_t> ready(n, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    for (auto in : p.ops[i].inputs) consumers[in].push_back(i);
    missing[i] = static_cast<std::uint32_t>(p.ops[i].inputs.size());
  }
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  for (std::uint32_t i = 0; i < n; ++i)
    if (missing[i] == 0) events.push({0, i, 0});

  std::vector<std::set<Waiting>> cpu_queue(p.processors.size());
  std::vector<bool> cpu_busy(p.processors.size(), false);
  // Channels: (node, remote?) -> free lanes and the transfers waiting in request order.
  std::map<std::pair<std::uint32_t, bool>, std::uint32_t> free_lanes;
  std::map<std::pair<std::uint32_t, bool>, std::set<std::pair<std::int64_t, std::uint32_t>>> waiting_copies;
  std::set<std::uint32_t> dirty_cpus;
  std::set<std::pair<std::uint32_t, bool>> dirty_channels;

  auto seen_delay = [&](std::uint32_t from, std::uint32_t to) {
    return p.ops[from].node == p.ops[to].node ? m.trigger_local_ns : m.network_latency_ns + m.trigger_remote_ns;
  };
  std::int64_t now = 0;
  while (!events.empty()) {
    now = events.top().time;
    while (!events.empty() && events.top().time == now) {
      Event e = events.top();
      events.pop();
      const GenOp& op = p.ops[e.op];
      if (e.what == 0) {  // ready
        if (op.kind == GenKind::task) {
          cpu_queue[op.processor].insert({op.priority, now, e.op});
          dirty_cpus.insert(op.processor);
        } else if (op.kind == GenKind::copy) {
          auto key = std::make_pair(op.node, op.dst_node != op.node);
          free_lanes.try_emplace(key, m.lanes);
          waiting_copies[key].insert({now, e.op});
          dirty_channels.insert(key);
        } else {
          t.start[e.op] = now;
          events.push({now + m.merge_ns, e.op, 1});
        }
      } else {  // done
        t.end[e.op] = now;
        t.makespan_ns = std::max(t.makespan_ns, now);
        if (op.kind == GenKind::task) {
          cpu_busy[op.processor] = false;
          dirty_cpus.insert(op.processor);
        } else if (op.kind == GenKind::copy) {
          auto key = std::make_pair(op.node, op.dst_node != op.node);
          ++free_lanes[key];
          dirty_channels.insert(key);
        }
        for (auto c : consumers[e.op]) {
          ready[c] = std::max(ready[c], now + seen_delay(e.op, c));
          if (--missing[c] == 0) events.push({ready[c], c, 0});
        }
      }
    }
    for (auto cpu : dirty_cpus) {
      if (cpu_busy[cpu] || cpu_queue[cpu].empty()) continue;
      auto first = cpu_queue[cpu].begin();
      const std::uint32_t task = first->op;
      cpu_queue[cpu].erase(first);
      cpu_busy[cpu] = true;
      t.start[task] = now;
      events.push({now + p.ops[task].busy_us * 1000, task, 1});
    }
    dirty_cpus.clear();
    for (const auto& key : dirty_channels) {
      auto& queue = waiting_copies[key];
      while (free_lanes[key] > 0 && !queue.empty()) {
        const std::uint32_t copy = queue.begin()->second;
        queue.erase(queue.begin());
        --free_lanes[key];
        t.start[copy] = now;
        const std::int64_t latency = key.second ? m.nic_latency_ns : m.memcpy_latency_ns;
        events.push({now + latency + static_cast<std::int64_t>(p.ops[copy].bytes), copy, 1});
      }
    }
    dirty_channels.clear();
  }
  return t;
}

}  // namespace rr::gen
