// `validate` output: graph totals, then each kind of finding with its count, meaning and example ids.
#include "validate_report.hpp"

#include <sstream>

#include "stats_json.hpp"

namespace rr::app {

nlohmann::ordered_json graph_totals_json(const graph::EventGraph& g) {
  std::array<std::uint64_t, graph::kOpKindCount> ops{};
  for (graph::VertexId v = 0; v < g.vertex_count(); ++v) ++ops[static_cast<std::size_t>(g.kind(v))];
  std::array<std::uint64_t, graph::kEdgeKindCount> edges{};
  for (graph::VertexId v = 0; v < g.vertex_count(); ++v)
    for (auto k : g.successor_kinds(v)) ++edges[static_cast<std::size_t>(k)];
  nlohmann::ordered_json j;
  j["vertices"] = g.vertex_count();
  j["edges"] = g.edge_count();
  nlohmann::ordered_json by_op, by_edge;
  for (std::size_t i = 0; i < graph::kOpKindCount; ++i) by_op[graph::op_kind_name(static_cast<graph::OpKind>(i))] = ops[i];
  for (std::size_t i = 0; i < graph::kEdgeKindCount; ++i)
    by_edge[graph::edge_kind_name(static_cast<graph::EdgeKind>(i))] = edges[i];
  j["operations"] = by_op;
  j["edges_by_kind"] = by_edge;
  j["task_waits"] = g.waits().size();
  return j;
}

nlohmann::ordered_json graph_summary_json(const graph::BuildResult& r) {
  nlohmann::ordered_json j = graph_totals_json(r.graph);
  j["findings"] = stats_json(r.findings.counts, core::finding_stats());
  j["finding_total"] = r.findings.total();
  return j;
}

std::string render_graph_summary_text(const graph::BuildResult& r) {
  std::string out = "Graph: " + std::to_string(r.graph.vertex_count()) + " operations, " +
                    std::to_string(r.graph.edge_count()) + " edges; ";
  if (r.findings.total() == 0) return out + "no validation findings\n";
  std::string list;
  for (core::Stat kind : core::finding_stats())
    if (r.findings.count(kind))
      list += (list.empty() ? "" : ", ") + std::string(core::stat_key(kind)) + "=" +
              std::to_string(r.findings.count(kind));
  return out + "findings: " + list + " (details: realm-replay validate)\n";
}

std::string render_validate_text(const core::TraceRecords& trace, const graph::BuildResult& r, const RunContext& ctx) {
  std::ostringstream out;
  const auto totals = graph_totals_json(r.graph);
  out << "Graph: " << r.graph.vertex_count() << " operations, " << r.graph.edge_count() << " edges, from "
      << trace.record_count() << " records in " << trace.files.size() << " file(s)\n  operations:";
  for (const auto& [k, v] : totals["operations"].items()) out << " " << k << "=" << v.get<std::uint64_t>();
  out << "\n  edges:";
  for (const auto& [k, v] : totals["edges_by_kind"].items()) out << " " << k << "=" << v.get<std::uint64_t>();
  out << "\n\n";
  if (r.findings.total() == 0) {
    out << "No findings: every event is produced once, every join matches, no cycle.\n";
  } else {
    out << "Findings:\n";
    for (core::Stat kind : core::finding_stats()) {
      if (r.findings.count(kind) == 0) continue;
      out << "  " << core::stat_key(kind) << ": " << r.findings.count(kind) << " — " << core::stat_description(kind)
          << "\n";
      for (const auto& f : r.findings.examples)
        if (f.kind == kind)
          out << "      " << core::to_string(f.event) << (f.detail.empty() ? "" : "  " + f.detail) << "\n";
      if (auto why = r.findings.explanation(kind, trace.format); !why.empty())
        out << "    explained: " << why << "\n";
    }
    if (r.findings.external_references)
      out << "  (" << r.findings.external_references << " references to external events in all)\n";
    if (r.findings.unexplained(trace.format) != r.findings.total())
      out << "Unexplained findings: " << r.findings.unexplained(trace.format) << " of " << r.findings.total() << "\n";
  }
  for (const auto& note : r.findings.notes) out << "\nNote: " << note << "\n";
  if (r.findings.pre_first_phase_references)
    out << "  (" << r.findings.pre_first_phase_references
        << " references to a barrier generation before its first phase: fired at t=0)\n";
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, "%.3f", ctx.elapsed_seconds);
  out << "\nDone in " << elapsed << " s\n";
  return out.str();
}

nlohmann::ordered_json render_validate_json(const core::TraceRecords& trace, const graph::BuildResult& r,
                                            const RunContext& ctx) {
  nlohmann::ordered_json j;
  j["schema"] = "realm-replay/validate";
  j["schema_version"] = 1;
  j["context"] = context_json(ctx);
  j["records"] = trace.record_count();
  j["graph"] = graph_totals_json(r.graph);
  nlohmann::ordered_json examples;
  for (core::Stat kind : core::finding_stats()) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& f : r.findings.examples)
      if (f.kind == kind) list.push_back({{"event", core::to_string(f.event)}, {"detail", f.detail}});
    if (!list.empty()) examples[std::string(core::stat_key(kind))] = list;
  }
  j["findings"] = stats_json(r.findings.counts, core::finding_stats());
  j["finding_total"] = r.findings.total();
  j["unexplained_total"] = r.findings.unexplained(trace.format);
  nlohmann::ordered_json explained = nlohmann::ordered_json::object();
  for (core::Stat kind : core::finding_stats())
    if (auto why = r.findings.explanation(kind, trace.format); !why.empty() && r.findings.count(kind))
      explained[std::string(core::stat_key(kind))] = why;
  j["explained"] = explained;
  j["notes"] = r.findings.notes;
  j["examples"] = examples.is_null() ? nlohmann::ordered_json::object() : examples;
  j["external_references"] = r.findings.external_references;
  j["pre_first_phase_references"] = r.findings.pre_first_phase_references;
  nlohmann::ordered_json cycle = nlohmann::ordered_json::array();
  for (auto v : r.findings.cycle)
    cycle.push_back({{"operation", graph::op_kind_name(r.graph.kind(v))}, {"event", core::to_string(r.graph.event(v))}});
  j["cycle"] = cycle;
  j["elapsed_seconds"] = ctx.elapsed_seconds;
  return j;
}

}  // namespace rr::app
