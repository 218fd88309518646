// Graphs with facts replaced, through EventGraph::visit_parts: the arrays are visited in one fixed order, so a
// first visit of the base collects them and a second, of the new graph, views them or puts the new ones in.
#include "graph_variant.hpp"

#include <cstring>
#include <memory>
#include <type_traits>

namespace rr::explain {

namespace {

struct Collected {
  std::vector<std::pair<const void*, std::size_t>> columns;  // data, elements
  std::vector<const void*> values;
};

struct Collector {
  Collected& out;
  template <class T>
  void column(graph::Column<T>& c) {
    out.columns.emplace_back(c.data(), c.size());
  }
  template <class T>
  void value(T& x) {
    out.values.push_back(&x);
  }
};

struct Assigner {
  const Collected& in;
  std::shared_ptr<const void> keeper;
  std::vector<graph::TaskInfo>& tasks;
  std::vector<graph::CopyInfo>& copies;
  std::vector<graph::WaitInfo>& waits;
  std::size_t next_column = 0;
  std::size_t next_value = 0;
  template <class T>
  void column(graph::Column<T>& c) {
    const auto [data, size] = in.columns[next_column++];
    if constexpr (std::is_same_v<T, graph::TaskInfo>) c = graph::Column<T>(std::move(tasks));
    else if constexpr (std::is_same_v<T, graph::CopyInfo>) c = graph::Column<T>(std::move(copies));
    else if constexpr (std::is_same_v<T, graph::WaitInfo>) c = graph::Column<T>(std::move(waits));
    else c = graph::Column<T>::viewing(static_cast<const T*>(data), size, keeper);
  }
  template <class T>
  void value(T& x) {
    x = *static_cast<const T*>(in.values[next_value++]);
  }
};

template <class T>
bool same_bytes(const std::pair<const void*, std::size_t>& a, const std::pair<const void*, std::size_t>& b) {
  return a.second == b.second && (a.second == 0 || std::memcmp(a.first, b.first, a.second * sizeof(T)) == 0);
}

struct ColumnComparer {
  const Collected& other;
  std::size_t next = 0;
  bool same = true;
  template <class T>
  void column(graph::Column<T>& c) {
    const auto& theirs = other.columns[next++];
    // The facts a replay takes from the other run are compared by same_program itself.
    if constexpr (std::is_same_v<T, graph::TaskInfo> || std::is_same_v<T, graph::CopyInfo> ||
                  std::is_same_v<T, graph::WaitInfo>)
      same = same && c.size() == theirs.second;
    else
      same = same && same_bytes<T>({c.data(), c.size()}, theirs);
  }
  template <class T>
  void value(T&) {}
};

struct CopyFinder {
  std::vector<graph::CopyInfo>& out;
  template <class T>
  void column(graph::Column<T>& c) {
    if constexpr (std::is_same_v<T, graph::CopyInfo>) out.assign(c.begin(), c.end());
  }
  template <class T>
  void value(T&) {}
};

}  // namespace

graph::EventGraph graph_with_facts(const graph::EventGraph& base, std::vector<graph::TaskInfo> tasks,
                                   std::vector<graph::CopyInfo> copies, std::vector<graph::WaitInfo> waits) {
  Collected collected;
  Collector collector{collected};
  base.visit_parts(collector);
  graph::EventGraph g;
  // Views of the base's arrays, which the caller keeps alive: a keeper that owns nothing.
  std::shared_ptr<const void> keeper(&base, [](const void*) {});
  Assigner assign{collected, keeper, tasks, copies, waits};
  g.visit_parts(assign);
  g.set_function_names(graph::FunctionNames(base.function_names()));
  return g;
}

std::vector<graph::TaskInfo> tasks_of(const graph::EventGraph& g) {
  std::vector<graph::TaskInfo> out(g.task_count());
  for (std::uint32_t i = 0; i < g.task_count(); ++i) out[i] = g.task_at(i);
  return out;
}

std::vector<graph::CopyInfo> copies_of(const graph::EventGraph& g) {
  std::vector<graph::CopyInfo> out;
  CopyFinder find{out};  // the copies' array is the one of CopyInfo among the parts
  g.visit_parts(find);
  return out;
}

std::vector<graph::WaitInfo> waits_of(const graph::EventGraph& g) {
  const auto w = g.waits();
  return {w.begin(), w.end()};
}

bool same_program(const graph::EventGraph& a, const replay::MachineMap& map_a, const graph::EventGraph& b,
                  const replay::MachineMap& map_b, bool same_processors) {
  if (a.vertex_count() != b.vertex_count() || a.edge_count() != b.edge_count() || a.task_count() != b.task_count() ||
      a.copy_count() != b.copy_count() || a.waits().size() != b.waits().size())
    return false;
  Collected theirs;
  Collector collector{theirs};
  b.visit_parts(collector);
  ColumnComparer compare{theirs};
  a.visit_parts(compare);
  if (!compare.same) return false;
  for (std::uint32_t i = 0; i < a.task_count(); ++i) {
    const graph::TaskInfo& x = a.task_at(i);
    const graph::TaskInfo& y = b.task_at(i);
    if (x.func_id != y.func_id || x.priority != y.priority || x.action_count != y.action_count ||
        x.first_wait != y.first_wait || (x.time_ns == graph::kNoTime) != (y.time_ns == graph::kNoTime))
      return false;
    if (same_processors ? !(x.processor == y.processor)
                        : map_a.traced_kind(x.processor.value()) != map_b.traced_kind(y.processor.value()))
      return false;
  }
  const auto ca = copies_of(a), cb = copies_of(b);
  for (std::size_t i = 0; i < ca.size(); ++i)
    if (!(ca[i].src_memory == cb[i].src_memory) || !(ca[i].dst_memory == cb[i].dst_memory) ||
        (ca[i].bytes == graph::kNoValue) != (cb[i].bytes == graph::kNoValue))
      return false;
  const auto wa = a.waits(), wb = b.waits();
  for (std::size_t i = 0; i < wa.size(); ++i)
    if (wa[i].task != wb[i].task || wa[i].resume != wb[i].resume || wa[i].awaited != wb[i].awaited ||
        !(wa[i].event == wb[i].event) || wa[i].position != wb[i].position || wa[i].fraction != wb[i].fraction)
      return false;
  return true;
}

}  // namespace rr::explain
