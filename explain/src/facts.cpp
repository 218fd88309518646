// Swapping facts between matched runs (explain/src/facts.hpp).
#include "facts.hpp"

#include <algorithm>
#include <cmath>

#include "graph_variant.hpp"

namespace rr::explain {

std::int64_t fact_of(const graph::EventGraph& g, graph::VertexId v) {
  const graph::OpKind k = g.kind(v);
  if (k == graph::OpKind::task || k == graph::OpKind::background) {
    const graph::TaskInfo& t = g.task(v);
    return t.time_ns == graph::kNoTime ? -1 : std::max<std::int64_t>(0, t.time_ns - g.wait_ns(v));
  }
  if (k == graph::OpKind::copy) {
    const std::uint64_t bytes = g.copy(v).bytes;
    return bytes == graph::kNoValue ? -1 : static_cast<std::int64_t>(std::min<std::uint64_t>(bytes, INT64_MAX));
  }
  return -1;
}

namespace {

std::int64_t scaled(std::int64_t value, double ratio) {
  return std::max<std::int64_t>(0, std::llround(static_cast<double>(value) * ratio));
}

void swap_task(const Swap& s, graph::VertexId v, double ratio, std::vector<graph::TaskInfo>& tasks,
               std::vector<graph::WaitInfo>& waits) {
  graph::TaskInfo& t = tasks[s.base.payload(v)];
  if (t.time_ns == graph::kNoTime) return;
  const std::int64_t waited = s.base.wait_ns(v);
  const graph::VertexId u = s.side.other[v];
  if (u == graph::kNoVertex || s.other.task(u).time_ns == graph::kNoTime) {
    t.time_ns = scaled(t.time_ns - waited, ratio) + waited;
    return;
  }
  const auto mine = s.base.waits_of(v), theirs = s.other.waits_of(u);
  if (mine.size() != theirs.size()) {
    t.time_ns = fact_of(s.other, u) + waited;
    return;
  }
  t.time_ns = s.other.task(u).time_ns;
  for (std::size_t i = 0; i < mine.size(); ++i) waits[t.first_wait + i].wait_ns = theirs[i].wait_ns;
}

}  // namespace

graph::EventGraph swap_facts(const Swap& s) {
  std::vector<graph::TaskInfo> tasks = tasks_of(s.base);
  std::vector<graph::CopyInfo> copies = copies_of(s.base);
  std::vector<graph::WaitInfo> waits = waits_of(s.base);
  for (graph::VertexId v = 0; v < s.base.vertex_count(); ++v) {
    const std::uint8_t c = s.class_of[v];
    if (c == kNoClass || !((s.take >> c) & 1u)) continue;
    const graph::OpKind k = s.base.kind(v);
    if (k == graph::OpKind::task || k == graph::OpKind::background) {
      swap_task(s, v, s.ratio[c], tasks, waits);
    } else if (k == graph::OpKind::copy) {
      graph::CopyInfo& copy = copies[s.base.payload(v)];
      const graph::VertexId u = s.side.other[v];
      if (u != graph::kNoVertex) copy.bytes = s.other.copy(u).bytes;
      else if (copy.bytes != graph::kNoValue)
        copy.bytes = static_cast<std::uint64_t>(scaled(static_cast<std::int64_t>(copy.bytes), s.ratio[c]));
    }
  }
  return graph_with_facts(s.base, std::move(tasks), std::move(copies), std::move(waits));
}

std::vector<double> median_ratios(const graph::EventGraph& from, const MatchSide& side,
                                  const std::vector<std::uint8_t>& class_of, const graph::EventGraph& to,
                                  std::size_t classes) {
  std::vector<std::vector<double>> values(classes);
  for (graph::VertexId v = 0; v < from.vertex_count(); ++v) {
    const std::uint8_t c = class_of[v];
    const graph::VertexId u = side.other[v];
    if (c == kNoClass || u == graph::kNoVertex) continue;
    const std::int64_t x = fact_of(from, v), y = fact_of(to, u);
    if (x > 0 && y >= 0) values[c].push_back(static_cast<double>(y) / static_cast<double>(x));
  }
  std::vector<double> ratio(classes, 1.0);
  for (std::size_t c = 0; c < classes; ++c) {
    auto& x = values[c];
    if (x.empty()) continue;
    const std::size_t mid = x.size() / 2;
    std::nth_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(mid), x.end());
    ratio[c] = x[mid];
    if (x.size() % 2 == 0) {  // the mean of the two middle values
      const double below = *std::max_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(mid));
      ratio[c] = (ratio[c] + below) / 2;
    }
  }
  return ratio;
}

}  // namespace rr::explain
