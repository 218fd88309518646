// What changed between two runs (explain/src/changes.hpp).
#include "changes.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "facts.hpp"

namespace rr::explain {

namespace {

std::int64_t median_of(std::vector<std::int64_t>& x) {
  if (x.empty()) return 0;
  const std::size_t mid = x.size() / 2;
  std::nth_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(mid), x.end());
  return x[mid];
}

bool waits_differ(const graph::EventGraph& a, graph::VertexId v, const graph::EventGraph& b, graph::VertexId u) {
  const graph::OpKind k = a.kind(v);
  if (k != graph::OpKind::task) return false;
  const auto wa = a.waits_of(v), wb = b.waits_of(u);
  if (wa.size() != wb.size()) return true;
  for (std::size_t i = 0; i < wa.size(); ++i)
    if (wa[i].wait_ns != wb[i].wait_ns) return true;
  return false;
}

// One side's facts per name: count and total into `stats`, the values into `values`.
void tally(const graph::EventGraph& g, const MatchSide& side, bool is_a, std::vector<NameStats>& stats,
           std::vector<std::vector<std::int64_t>>& values) {
  for (graph::VertexId v = 0; v < g.vertex_count(); ++v) {
    const std::uint32_t n = side.name[v];
    if (n == kNoGroup) continue;
    WorkChange& w = stats[n].work;
    w.op_class = side.op_class[v];
    const std::int64_t f = std::max<std::int64_t>(0, fact_of(g, v));
    (is_a ? w.count_a : w.count_b)++;
    (is_a ? w.total_a : w.total_b) += f;
    values[n].push_back(f);
  }
}

}  // namespace

std::vector<NameStats> name_stats(const graph::EventGraph& a, const graph::EventGraph& b, const Matching& m) {
  std::vector<NameStats> stats(m.names.size());
  for (std::size_t i = 0; i < m.names.size(); ++i) stats[i].work.name = m.names[i];
  {
    std::vector<std::vector<std::int64_t>> values(m.names.size());
    tally(a, m.a, true, stats, values);
    for (std::size_t i = 0; i < values.size(); ++i) stats[i].work.median_a = median_of(values[i]);
  }
  {
    std::vector<std::vector<std::int64_t>> values(m.names.size());
    tally(b, m.b, false, stats, values);
    for (std::size_t i = 0; i < values.size(); ++i) stats[i].work.median_b = median_of(values[i]);
  }
  std::vector<std::vector<double>> ratios(m.names.size());
  for (graph::VertexId v = 0; v < a.vertex_count(); ++v) {
    const graph::VertexId u = m.a.other[v];
    if (u == graph::kNoVertex) continue;
    NameStats& s = stats[m.a.name[v]];
    ++s.work.matched;
    const std::int64_t x = fact_of(a, v), y = fact_of(b, u);
    if (x != y || waits_differ(a, v, b, u)) s.differs = true;
    if (x >= 0 && y >= 0) s.matched_delta += y - x;
    if (x > 0 && y >= 0) ratios[m.a.name[v]].push_back(static_cast<double>(y) / static_cast<double>(x));
  }
  for (std::size_t i = 0; i < ratios.size(); ++i) {
    auto& r = ratios[i];
    if (r.empty()) continue;
    std::nth_element(r.begin(), r.begin() + static_cast<std::ptrdiff_t>(r.size() / 2), r.end());
    stats[i].work.median_ratio = r[r.size() / 2];
  }
  return stats;
}

namespace {

std::vector<ProcessorChange> processor_changes(const replay::MachineMap& map_a, const replay::MachineMap& map_b) {
  std::map<std::pair<std::uint32_t, std::string>, ProcessorChange> by;
  for (const auto& p : map_a.placed()) {
    auto& c = by[{p.traced_node, std::string(core::processor_kind_name(p.kind))}];
    c.node = p.traced_node;
    c.kind = core::processor_kind_name(p.kind);
    c.a += p.count;
  }
  for (const auto& p : map_b.placed()) {
    auto& c = by[{p.traced_node, std::string(core::processor_kind_name(p.kind))}];
    c.node = p.traced_node;
    c.kind = core::processor_kind_name(p.kind);
    c.b += p.count;
  }
  std::vector<ProcessorChange> out;
  for (auto& [key, c] : by) out.push_back(c);
  return out;
}

std::int64_t change_of(const WorkChange& w) { return std::llabs(w.total_b - w.total_a); }

}  // namespace

Changes summarise_changes(const graph::EventGraph& a, const replay::MachineMap& map_a, const graph::EventGraph& b,
                          const replay::MachineMap& map_b, const Matching& m, const std::vector<NameStats>& stats,
                          const MachineDifferences& machines) {
  Changes c;
  c.nodes_a = map_a.traced_nodes();
  c.nodes_b = map_b.traced_nodes();
  c.operations_a = a.vertex_count();
  c.operations_b = b.vertex_count();
  c.compared_a = m.a.compared;
  c.compared_b = m.b.compared;
  c.matched = m.matched;
  std::map<OpClass, WorkChange> kinds;
  for (const NameStats& s : stats) {
    const WorkChange& w = s.work;
    if (w.count_a != w.matched || w.count_b != w.matched) c.unmatched.push_back(w);
    (w.op_class == OpClass::copy ? c.copy_paths : c.functions).push_back(w);
    WorkChange& k = kinds[w.op_class];
    k.name = op_class_name(w.op_class);
    k.op_class = w.op_class;
    k.count_a += w.count_a;
    k.count_b += w.count_b;
    k.matched += w.matched;
    k.total_a += w.total_a;
    k.total_b += w.total_b;
  }
  for (auto& [key, k] : kinds) {
    if (k.total_a > 0) k.median_ratio = static_cast<double>(k.total_b) / static_cast<double>(k.total_a);
    c.kinds.push_back(k);
  }
  const auto by_change = [](const WorkChange& x, const WorkChange& y) {
    return change_of(x) != change_of(y) ? change_of(x) > change_of(y) : x.name < y.name;
  };
  std::stable_sort(c.functions.begin(), c.functions.end(), by_change);
  std::stable_sort(c.copy_paths.begin(), c.copy_paths.end(), by_change);
  const auto unmatched_count = [](const WorkChange& w) { return w.count_a + w.count_b - 2 * w.matched; };
  std::stable_sort(c.unmatched.begin(), c.unmatched.end(), [&](const WorkChange& x, const WorkChange& y) {
    return unmatched_count(x) > unmatched_count(y);
  });
  c.processors = processor_changes(map_a, map_b);
  c.machine = machines.costs;
  c.machine.insert(c.machine.end(), machines.processors.begin(), machines.processors.end());
  return c;
}

}  // namespace rr::explain
