// The node index: built from the node column when packing, checked as a partition of the vertex ids on reading.
#include "packed/src/node_index.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace rr::packed::detail {

using layout::NodeEntry;
using layout::VertexRun;

NodeIndex index_by_node(std::span<const std::uint32_t> nodes) {
  // Maximal runs in id order with their node, then grouped by node; a stable sort keeps each node's runs ascending.
  struct NodeRun {
    std::uint32_t node;
    VertexRun run;
  };
  std::vector<NodeRun> found;
  for (std::uint32_t v = 0; v < nodes.size();) {
    std::uint32_t end = v + 1;
    while (end < nodes.size() && nodes[end] == nodes[v]) ++end;
    found.push_back({nodes[v], {v, end - v}});
    v = end;
  }
  std::stable_sort(found.begin(), found.end(), [](const NodeRun& a, const NodeRun& b) { return a.node < b.node; });
  NodeIndex index;
  index.runs.reserve(found.size());
  for (const NodeRun& r : found) {
    if (index.entries.empty() || index.entries.back().node != r.node)
      index.entries.push_back({r.node, static_cast<std::uint32_t>(index.runs.size()), 0, 0});
    ++index.entries.back().runs;
    index.entries.back().vertices += r.run.count;
    index.runs.push_back(r.run);
  }
  return index;
}

std::string index_problem(std::span<const NodeEntry> entries, std::span<const VertexRun> runs, std::uint64_t vertices) {
  std::uint64_t next_run = 0, total = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const NodeEntry& e = entries[i];
    const std::string at = " at entry " + std::to_string(i);
    if (i > 0 && e.node <= entries[i - 1].node) return "nodes not in ascending order" + at;
    if (e.first_run != next_run || e.runs == 0 || e.runs > runs.size() - next_run)
      return "runs that do not follow on from the entry before" + at;
    std::uint64_t counted = 0, end = 0;
    for (std::uint64_t r = e.first_run; r < next_run + e.runs; ++r) {
      const VertexRun& run = runs[r];
      const std::string run_at = " at run " + std::to_string(r);
      if (run.count == 0 || std::uint64_t{run.first} + run.count > vertices) return "a run outside the graph" + run_at;
      if (r > e.first_run && run.first < end) return "runs of one node not in ascending order" + run_at;
      end = std::uint64_t{run.first} + run.count;
      counted += run.count;
    }
    if (counted != e.vertices) return "a vertex count that is not its runs'" + at;
    next_run += e.runs;
    total += counted;
  }
  if (next_run != runs.size()) return "runs that no entry lists";
  if (total != vertices) return "runs of " + std::to_string(total) + " vertices in a graph of " + std::to_string(vertices);
  // Every node's runs ascending: merged by their first id, they must tile [0, vertices). Memory per entry only.
  using Cursor = std::pair<std::uint32_t, std::uint32_t>;  // (first id of its next run, that run)
  std::priority_queue<Cursor, std::vector<Cursor>, std::greater<>> next;
  for (const NodeEntry& e : entries) next.emplace(runs[e.first_run].first, e.first_run);
  std::uint64_t covered = 0;
  while (!next.empty()) {
    const auto [first, r] = next.top();
    next.pop();
    if (first != covered)
      return first < covered ? "runs that overlap at vertex " + std::to_string(first)
                             : "vertex " + std::to_string(covered) + " in no run";
    covered += runs[r].count;
    // The entry's next run, if it has one (entries list their runs in order: the owner is found by first_run).
    const auto owner = std::upper_bound(entries.begin(), entries.end(), r,
                                        [](std::uint32_t run, const NodeEntry& e) { return run < e.first_run; }) - 1;
    if (r + 1 < owner->first_run + owner->runs) next.emplace(runs[r + 1].first, r + 1);
  }
  return {};
}

std::string disagreement(const NodeEntry& entry, std::span<const VertexRun> runs, std::span<const std::uint32_t> nodes) {
  for (std::uint64_t r = entry.first_run; r < std::uint64_t{entry.first_run} + entry.runs; ++r)
    for (std::uint32_t v = runs[r].first; v < runs[r].first + runs[r].count; ++v)
      if (nodes[v] != entry.node)
        return "vertex " + std::to_string(v) + " listed under node " + std::to_string(entry.node) + " has node " +
               std::to_string(nodes[v]);
  return {};
}

}  // namespace rr::packed::detail
