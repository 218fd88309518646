// Context trie: each task's context is its issuer's context extended by the task's function. Contexts are
// resolved iteratively (issuer chains can be long) and children are found through one hash map.
#include "replay/context_profile.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace rr::replay {

namespace {
using graph::OpKind;
using graph::VertexId;

// The us value of a folded line: rounded to the nearest microsecond.
std::int64_t micros(TimeNs ns) { return (ns + 500) / 1000; }

constexpr std::uint32_t kNoContext = ~0u;
constexpr std::uint32_t kOnWalk = ~1u;  // a task on the issuer walk under way
}  // namespace

ContextTrie ContextTrie::build(const graph::EventGraph& g, const ReplayResult& r, const CriticalPath* path) {
  ContextTrie t;
  t.parent_.push_back(kRoot);
  t.func_.push_back(0);
  t.frame_.emplace_back();
  t.busy_.push_back(0);
  t.critical_.push_back(0);
  t.context_of_task_.assign(g.vertex_count(), kNoContext);
  std::unordered_map<std::uint64_t, std::uint32_t> child;  // (parent << 32 | func) -> node

  std::vector<VertexId> chain;
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    if (g.kind(v) != OpKind::task || t.context_of_task_[v] != kNoContext) continue;
    // Walk up to the first task whose context is known (or the root), then come back down. Tasks on the walk
    // are marked: a log whose launches go round in a loop (a task naming itself, or a later task, as its
    // creator) closes the walk there, and the loop hangs from the root.
    chain.clear();
    VertexId u = v;
    for (; u != graph::kNoVertex && t.context_of_task_[u] == kNoContext; u = g.issuer(u)) {
      chain.push_back(u);
      t.context_of_task_[u] = kOnWalk;
    }
    std::uint32_t node = u == graph::kNoVertex || t.context_of_task_[u] == kOnWalk ? kRoot : t.context_of_task_[u];
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const std::uint32_t func = g.task(*it).func_id;
      const std::uint64_t key = (std::uint64_t{node} << 32) | func;
      auto [found, fresh] = child.try_emplace(key, static_cast<std::uint32_t>(t.parent_.size()));
      if (fresh) {
        t.parent_.push_back(node);
        t.func_.push_back(func);
        t.frame_.push_back(g.function_name(func));
        t.busy_.push_back(0);
        t.critical_.push_back(0);
      }
      node = found->second;
      t.context_of_task_[*it] = node;
    }
  }
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    VertexId task = g.task_of_segment(v);
    if (task == graph::kNoVertex) continue;
    if (v != task) t.context_of_task_[v] = t.context_of_task_[task];
    if (r.end(v) != kNever && r.start(v) != kNever) t.busy_[t.context_of_task_[task]] += r.end(v) - r.start(v);
  }
  if (path) {
    for (const auto& step : path->steps) {
      VertexId task = g.task_of_segment(step.vertex);
      // Non-task steps (copies, latency, runtime) belong to the context of the task that issued them.
      if (task == graph::kNoVertex && g.issuer(step.vertex) != graph::kNoVertex) task = g.issuer(step.vertex);
      // An issuer that is no task's ancestor (background work) has no context of its own: the root's.
      std::uint32_t node = task == graph::kNoVertex || t.context_of_task_[task] == kNoContext ? kRoot : t.context_of_task_[task];
      t.critical_[node] += step.end - step.begin;
    }
  }
  return t;
}

std::string ContextTrie::stack(std::uint32_t node) const {
  std::vector<std::uint32_t> path;
  for (std::uint32_t n = node; n != kRoot; n = parent_[n]) path.push_back(n);
  std::string out;
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    if (!out.empty()) out += ';';
    out += frame_[*it];
  }
  return out;
}

std::string ContextTrie::folded(bool critical) const {
  std::map<std::string, std::int64_t> lines;
  for (std::uint32_t n = 0; n < size(); ++n) {
    std::int64_t value = micros(critical ? critical_[n] : busy_[n]);
    if (value <= 0) continue;
    lines[n == kRoot ? std::string("(no task)") : stack(n)] += value;
  }
  std::string out;
  for (const auto& [s, v] : lines) out += s + " " + std::to_string(v) + "\n";
  return out;
}

std::string folded_diff(const ContextTrie& before, const ContextTrie& after, bool critical) {
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> lines;
  for (std::uint32_t n = 0; n < before.size(); ++n)
    lines[n == ContextTrie::kRoot ? "(no task)" : before.stack(n)].first += micros(critical ? before.critical(n) : before.busy(n));
  for (std::uint32_t n = 0; n < after.size(); ++n)
    lines[n == ContextTrie::kRoot ? "(no task)" : after.stack(n)].second += micros(critical ? after.critical(n) : after.busy(n));
  std::string out;
  for (const auto& [s, v] : lines)
    if (v.first || v.second) out += s + " " + std::to_string(v.first) + " " + std::to_string(v.second) + "\n";
  return out;
}

}  // namespace rr::replay
