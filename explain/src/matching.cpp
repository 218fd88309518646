// Matching the operations of two runs (explain/matching.hpp): keys sorted, then runs of one key paired in order.
#include "explain/matching.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace rr::explain {

namespace {

struct Entry {
  GroupKey key;
  std::int64_t order = 0;
  graph::VertexId v = 0;
};

OpClass class_of_kind(core::ProcessorKind k) {
  switch (k) {
    case core::ProcessorKind::gpu: return OpClass::gpu;
    case core::ProcessorKind::utility: return OpClass::utility;
    case core::ProcessorKind::external: return OpClass::external;
    default: return OpClass::cpu;
  }
}

// One run's compared operations with names local to it (indices into `local`), then made global.
struct SideBuilder {
  const graph::EventGraph& g;
  const replay::MachineMap& map;
  std::vector<std::string> local;
  std::unordered_map<std::uint32_t, std::uint32_t> by_function;
  std::map<std::string, std::uint32_t> by_path;
  std::vector<Entry> entries;

  std::uint32_t function_name(std::uint32_t func) {
    auto [it, fresh] = by_function.try_emplace(func, static_cast<std::uint32_t>(local.size()));
    if (fresh) local.push_back(g.function_name(func));
    return it->second;
  }
  std::uint32_t path_name(const graph::CopyInfo& c) {
    const replay::MemoryPlace src = map.memory(c.src_memory.value()), dst = map.memory(c.dst_memory.value());
    const bool remote = src.spans_nodes || dst.spans_nodes || src.node != dst.node;
    std::string name = copy_path_name(src.kind, dst.kind, remote);
    auto [it, fresh] = by_path.try_emplace(name, static_cast<std::uint32_t>(local.size()));
    if (fresh) local.push_back(std::move(name));
    return it->second;
  }

  void collect(MatchSide& side) {
    const graph::VertexId n = g.vertex_count();
    side.name.assign(n, kNoGroup);
    side.op_class.assign(n, OpClass::cpu);
    side.other.assign(n, graph::kNoVertex);
    for (graph::VertexId v = 0; v < n; ++v) {
      const graph::OpKind k = g.kind(v);
      GroupKey key;
      key.node = g.node(v);
      if (k == graph::OpKind::task || k == graph::OpKind::background) {
        const graph::TaskInfo& t = g.task(v);
        key.name = function_name(t.func_id);
        key.op_class = k == graph::OpKind::background ? OpClass::background
                                                      : class_of_kind(map.traced_kind(t.processor.value()));
      } else if (k == graph::OpKind::copy) {
        key.name = path_name(g.copy(v));
        key.op_class = OpClass::copy;
      } else {
        continue;
      }
      const std::int64_t order = g.has_observed() ? g.observed_start(v) : 0;
      entries.push_back({key, order, v});
    }
    side.compared = entries.size();
  }

  // Local names to indices into the sorted union `names`; entries sorted by key, then launch order.
  void globalise(const std::vector<std::string>& names, MatchSide& side) {
    std::vector<std::uint32_t> to_global(local.size());
    for (std::size_t i = 0; i < local.size(); ++i)
      to_global[i] = static_cast<std::uint32_t>(std::lower_bound(names.begin(), names.end(), local[i]) - names.begin());
    for (Entry& e : entries) {
      e.key.name = to_global[e.key.name];
      side.name[e.v] = e.key.name;
      side.op_class[e.v] = e.key.op_class;
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) {
      return std::tie(x.key, x.order, x.v) < std::tie(y.key, y.order, y.v);
    });
  }
};

}  // namespace

const char* op_class_name(OpClass c) {
  switch (c) {
    case OpClass::gpu: return "GPU";
    case OpClass::cpu: return "CPU";
    case OpClass::utility: return "utility";
    case OpClass::external: return "program";
    case OpClass::background: return "background";
    case OpClass::copy: return "copy";
  }
  return "?";
}

std::string copy_path_name(core::MemoryKind src, core::MemoryKind dst, bool remote) {
  return "copy " + std::string(core::memory_kind_name(src)) + "->" + std::string(core::memory_kind_name(dst)) +
         (remote ? " remote" : "");
}

double Matching::matched_share() const {
  const std::uint64_t compared = a.compared + b.compared;
  return compared ? 2.0 * static_cast<double>(matched) / static_cast<double>(compared) : 1.0;
}

Matching match_operations(const graph::EventGraph& a, const replay::MachineMap& map_a, const graph::EventGraph& b,
                          const replay::MachineMap& map_b) {
  Matching m;
  SideBuilder sa{a, map_a, {}, {}, {}, {}}, sb{b, map_b, {}, {}, {}, {}};
  sa.collect(m.a);
  sb.collect(m.b);
  m.names = sa.local;
  m.names.insert(m.names.end(), sb.local.begin(), sb.local.end());
  std::sort(m.names.begin(), m.names.end());
  m.names.erase(std::unique(m.names.begin(), m.names.end()), m.names.end());
  sa.globalise(m.names, m.a);
  sb.globalise(m.names, m.b);
  // Walk both sorted lists: the runs of one key pair up in order, the longer run's tail stays unmatched.
  std::size_t i = 0, j = 0;
  const auto& ea = sa.entries;
  const auto& eb = sb.entries;
  while (i < ea.size() && j < eb.size()) {
    if (ea[i].key < eb[j].key) { ++i; continue; }
    if (eb[j].key < ea[i].key) { ++j; continue; }
    const GroupKey key = ea[i].key;
    for (; i < ea.size() && j < eb.size() && ea[i].key == key && eb[j].key == key; ++i, ++j) {
      m.a.other[ea[i].v] = eb[j].v;
      m.b.other[eb[j].v] = ea[i].v;
      ++m.matched;
    }
    while (i < ea.size() && ea[i].key == key) ++i;
    while (j < eb.size() && eb[j].key == key) ++j;
  }
  m.a.unmatched = m.a.compared - m.matched;
  m.b.unmatched = m.b.compared - m.matched;
  return m;
}

}  // namespace rr::explain
