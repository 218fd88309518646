// Graph dumps. Vertex ids in the output are the graph's own dense ids, so a dump can be joined to reports.
#include "graph/graph_export.hpp"

#include <algorithm>
#include <string>

#include "graph/graph_algorithms.hpp"

namespace rr::graph {

std::vector<VertexId> select_vertices(const EventGraph& g, const Selection& sel) {
  std::vector<char> keep(g.vertex_count(), 1);
  if (sel.slice_begin || sel.slice_end) {
    std::fill(keep.begin(), keep.end(), 0);
    auto order = topological_order(g);
    const std::uint64_t begin = std::min<std::uint64_t>(sel.slice_begin.value_or(0), order.size());
    const std::uint64_t end = std::min<std::uint64_t>(sel.slice_end.value_or(order.size()), order.size());
    for (std::uint64_t i = begin; i < end; ++i) keep[order[i]] = 1;
  }
  std::vector<VertexId> out;
  for (VertexId v = 0; v < g.vertex_count(); ++v)
    if (keep[v] && (!sel.node || g.node(v) == *sel.node)) out.push_back(v);
  return out;
}

namespace {

std::string label(const EventGraph& g, VertexId v) {
  std::string s = op_kind_name(g.kind(v));
  if (g.kind(v) == OpKind::task) s += " f" + std::to_string(g.task(v).func_id);
  s += " " + core::to_string(g.event(v));
  if (g.kind(v) == OpKind::copy && g.copy(v).bytes != kNoValue) s += " " + std::to_string(g.copy(v).bytes) + "B";
  return s;
}

const char* dot_style(EdgeKind k) {
  switch (k) {
    case EdgeKind::precondition: return "";
    case EdgeKind::issue: return " [style=dashed,color=gray40]";
    case EdgeKind::merge_input: return " [color=blue]";
    case EdgeKind::wait: return " [color=red]";
    case EdgeKind::arrival: return " [color=darkgreen]";
    case EdgeKind::phase_order: return " [color=darkgreen,style=bold]";
    case EdgeKind::continuation: return " [style=dotted]";
  }
  return "";
}

const char* dot_shape(OpKind k) {
  switch (k) {
    case OpKind::task:
    case OpKind::task_resume: return "box";
    case OpKind::copy: return "parallelogram";
    case OpKind::merge: return "invtriangle";
    case OpKind::barrier_phase: return "doubleoctagon";
    default: return "ellipse";
  }
}

template <typename F>
void for_each_selected_edge(const EventGraph& g, const std::vector<VertexId>& vertices, F&& f) {
  std::vector<char> in(g.vertex_count(), 0);
  for (VertexId v : vertices) in[v] = 1;
  for (VertexId v : vertices) {
    auto succ = g.successors(v);
    auto kinds = g.successor_kinds(v);
    for (std::size_t i = 0; i < succ.size(); ++i)
      if (in[succ[i]]) f(v, succ[i], kinds[i]);
  }
}

}  // namespace

std::string to_dot(const EventGraph& g, const std::vector<VertexId>& vertices) {
  std::string out = "digraph realm_events {\n  rankdir=LR;\n  node [fontsize=10];\n";
  for (VertexId v : vertices) {
    out += "  v" + std::to_string(v) + " [label=\"" + label(g, v) + "\\nnode " +
           (g.node(v) == kNoNode ? std::string("?") : std::to_string(g.node(v))) + "\",shape=" + dot_shape(g.kind(v)) +
           "];\n";
  }
  for_each_selected_edge(g, vertices, [&](VertexId a, VertexId b, EdgeKind k) {
    out += "  v" + std::to_string(a) + " -> v" + std::to_string(b) + dot_style(k) + ";\n";
  });
  out += "}\n";
  return out;
}

std::string to_json(const EventGraph& g, const std::vector<VertexId>& vertices) {
  std::string out = "{\"schema\":\"realm-replay/graph\",\"schema_version\":1,\"vertices\":[";
  bool first = true;
  for (VertexId v : vertices) {
    out += first ? "\n" : ",\n";
    first = false;
    out += "{\"id\":" + std::to_string(v) + ",\"kind\":\"" + op_kind_name(g.kind(v)) + "\",\"event\":\"" +
           core::to_string(g.event(v)) + "\",\"node\":" +
           (g.node(v) == kNoNode ? std::string("null") : std::to_string(g.node(v))) + ",\"issuer\":" +
           (g.issuer(v) == kNoVertex ? std::string("null") : std::to_string(g.issuer(v))) +
           ",\"position\":" + std::to_string(g.position(v));
    if (g.kind(v) == OpKind::task) {
      const TaskInfo& t = g.task(v);
      out += ",\"func\":" + std::to_string(t.func_id) + ",\"priority\":" + std::to_string(t.priority) +
             ",\"processor\":\"" + core::hex(t.processor.value()) + "\",\"time_ns\":" +
             (t.time_ns == kNoTime ? std::string("null") : std::to_string(t.time_ns)) +
             ",\"wait_ns\":" + std::to_string(g.wait_ns(v)) + ",\"actions\":" + std::to_string(t.action_count);
    } else if (g.kind(v) == OpKind::copy) {
      const CopyInfo& c = g.copy(v);
      out += ",\"src\":\"" + core::hex(c.src_memory.value()) + "\",\"dst\":\"" + core::hex(c.dst_memory.value()) +
             "\",\"bytes\":" + (c.bytes == kNoValue ? std::string("null") : std::to_string(c.bytes));
    } else if (g.kind(v) == OpKind::merge) {
      out += ",\"inputs\":" + std::to_string(g.payload(v));
    } else if (g.kind(v) == OpKind::barrier_phase) {
      out += ",\"required\":" + std::to_string(g.phase(v).required) +
             ",\"arrived\":" + std::to_string(g.phase(v).arrived);
    } else if (g.kind(v) == OpKind::barrier_arrive || g.kind(v) == OpKind::barrier_alter) {
      out += ",\"value\":" + std::to_string(g.barrier_value(v));
    } else if (g.kind(v) == OpKind::task_resume) {
      const WaitInfo& w = g.resume_wait(v);
      out += ",\"task\":" + std::to_string(w.task) + ",\"awaited\":\"" + core::to_string(w.event) +
             "\",\"wait_ns\":" + std::to_string(w.wait_ns);
    }
    out += "}";
  }
  out += "\n],\"edges\":[";
  first = true;
  for_each_selected_edge(g, vertices, [&](VertexId a, VertexId b, EdgeKind k) {
    out += first ? "\n" : ",\n";
    first = false;
    out += "[" + std::to_string(a) + "," + std::to_string(b) + ",\"" + edge_kind_name(k) + "\"]";
  });
  out += "\n]}\n";
  return out;
}

}  // namespace rr::graph
