// SQLite export (docs/sql.md): the replay's tables, written through apps/sqlite_writer.hpp (one transaction, the
// file renamed into place only when everything is written).
#include "sql_export.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/stats.hpp"
#include "replay/copy_route.hpp"
#include "replay/slack.hpp"
#include "replay/operation_columns.hpp"
#include "replay/utilisation.hpp"
#include "sqlite_writer.hpp"

namespace rr::app {
namespace {

// The schema, one statement per table and index; docs/sql.md describes every column.
constexpr std::string_view kSchema = R"sql(
PRAGMA user_version = 3;
CREATE TABLE runs (
  run_id INTEGER PRIMARY KEY, trace TEXT NOT NULL, trace_path TEXT NOT NULL, machine TEXT NOT NULL,
  machine_file TEXT NOT NULL, overrides TEXT NOT NULL, placement TEXT NOT NULL, traced_nodes INTEGER NOT NULL,
  model_nodes INTEGER NOT NULL, estimated_time_ns INTEGER NOT NULL, lower_bound_ns INTEGER,
  operations INTEGER NOT NULL, completed INTEGER NOT NULL, stuck INTEGER NOT NULL, tool_version TEXT NOT NULL);
CREATE TABLE processors (
  run_id INTEGER NOT NULL, processor INTEGER NOT NULL, node INTEGER NOT NULL, kind TEXT NOT NULL,
  kind_index INTEGER NOT NULL, busy_ns INTEGER NOT NULL, segments INTEGER NOT NULL, utilisation REAL NOT NULL,
  PRIMARY KEY (run_id, processor));
CREATE TABLE memories (
  run_id INTEGER NOT NULL, memory TEXT NOT NULL, kind TEXT NOT NULL, traced_node INTEGER NOT NULL,
  node INTEGER NOT NULL, spans_nodes INTEGER NOT NULL, capacity_bytes INTEGER, PRIMARY KEY (run_id, memory));
CREATE TABLE operations (
  run_id INTEGER NOT NULL, op INTEGER NOT NULL, kind TEXT NOT NULL, event TEXT NOT NULL, node INTEGER,
  processor INTEGER, function INTEGER, function_name TEXT, issuer INTEGER, ready_ns INTEGER, start_ns INTEGER,
  end_ns INTEGER, queued_ns INTEGER, released_by INTEGER, release TEXT NOT NULL, bytes INTEGER,
  in_estimate INTEGER NOT NULL, slack_ns INTEGER, PRIMARY KEY (run_id, op));
CREATE TABLE edges (
  run_id INTEGER NOT NULL, src INTEGER NOT NULL, dst INTEGER NOT NULL, kind TEXT NOT NULL);
CREATE TABLE copies (
  run_id INTEGER NOT NULL, op INTEGER NOT NULL, src_memory TEXT, dst_memory TEXT, src_kind TEXT NOT NULL,
  dst_kind TEXT NOT NULL, src_node INTEGER NOT NULL, dst_node INTEGER NOT NULL, remote INTEGER NOT NULL,
  path TEXT NOT NULL, bytes INTEGER NOT NULL, bytes_known INTEGER NOT NULL, ready_ns INTEGER, start_ns INTEGER,
  end_ns INTEGER, PRIMARY KEY (run_id, op));
CREATE TABLE critical_path (
  run_id INTEGER NOT NULL, step INTEGER NOT NULL, op INTEGER NOT NULL, class TEXT NOT NULL, label TEXT NOT NULL,
  begin_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, PRIMARY KEY (run_id, step));
CREATE TABLE findings (
  run_id INTEGER NOT NULL, kind TEXT NOT NULL, total INTEGER NOT NULL, event TEXT, detail TEXT,
  explanation TEXT);
CREATE TABLE stats (
  run_id INTEGER NOT NULL, name TEXT NOT NULL, source TEXT NOT NULL, severity TEXT NOT NULL,
  value INTEGER NOT NULL, description TEXT NOT NULL, PRIMARY KEY (run_id, name));
)sql";

// Made after the rows are in: building an index once is faster than keeping it up to date row by row.
constexpr std::string_view kIndexes = R"sql(
CREATE INDEX operations_by_node ON operations (run_id, node, kind);
CREATE INDEX operations_by_processor ON operations (run_id, processor, start_ns);
CREATE INDEX operations_by_function ON operations (run_id, function);
CREATE INDEX edges_by_dst ON edges (run_id, dst);
CREATE INDEX edges_by_src ON edges (run_id, src);
CREATE INDEX copies_by_path ON copies (run_id, path, dst_node);
CREATE INDEX critical_path_by_op ON critical_path (run_id, op);
)sql";

using std::int64_t;
constexpr int64_t kRunId = 1;  // one run per file
std::optional<int64_t> time_or_null(replay::TimeNs t) {
  return t == replay::kNever ? std::nullopt : std::optional<int64_t>(t);
}
std::string_view sv(std::string_view s) { return s; }

void write_tables(Database& db, const session::LoadedTrace& trace, const session::ReplayRun& run,
                  const ExportedRun& info) {
  const graph::EventGraph& g = trace.graph();
  const replay::ReplayResult& r = run.result;
  const replay::MachineMap& map = run.map;
  const auto& procs = map.processors();
  const int64_t run_id = kRunId;

  {
    Inserter ins(db, "runs", 15);
    std::optional<int64_t> lower;
    if (run.critical && run.critical->lower_bound_ns >= 0) lower = run.critical->lower_bound_ns;
    ins << run_id << sv(info.trace) << sv(info.trace_path) << sv(info.machine) << sv(info.machine_file)
        << sv(info.overrides) << sv(info.placement) << static_cast<int64_t>(trace.nodes)
        << static_cast<int64_t>(map.model_nodes()) << static_cast<int64_t>(r.makespan_ns) << lower
        << static_cast<int64_t>(g.vertex_count()) << static_cast<int64_t>(r.operations)
        << static_cast<int64_t>(r.stuck) << sv(RR_VERSION);
    ins.row();
  }
  {
    Inserter ins(db, "processors", 8);
    for (std::size_t p = 0; p < procs.size(); ++p) {
      const auto& usage = r.processors[p];
      const double utilisation = replay::processor_utilisation(r, static_cast<std::uint32_t>(p));
      ins << run_id << static_cast<int64_t>(p) << static_cast<int64_t>(procs[p].node)
          << core::processor_kind_name(procs[p].kind) << static_cast<int64_t>(procs[p].index)
          << static_cast<int64_t>(usage.busy_ns) << static_cast<int64_t>(usage.segments) << utilisation;
      ins.row();
    }
  }
  {
    Inserter ins(db, "memories", 7);
    const core::MachineRecords machine = core::machine_records(trace.records);
    const core::IdLayout layout = core::IdLayout::for_width(trace.records.width);
    for (std::size_t i = 0; i < machine.memories.size(); ++i) {
      const auto& m = machine.memories[i];
      const replay::MemoryPlace place = map.memory(m.id.value());
      std::optional<int64_t> capacity;
      if (i < machine.memory_capacities.size() && machine.memory_capacities[i] > 0)
        capacity = static_cast<int64_t>(machine.memory_capacities[i]);
      ins << run_id << sv(core::hex(m.id.value())) << core::memory_kind_name(m.kind)
          << static_cast<int64_t>(layout.node_of(m.id.value())) << static_cast<int64_t>(place.node)
          << static_cast<int64_t>(place.spans_nodes) << capacity;
      ins.row();
    }
  }
  {
    const replay::OperationColumns columns = replay::operation_columns(g, map, run.model, r);
    const std::vector<replay::TimeNs> slack = replay::operation_slack(g, map, run.model, r);
    auto or_null = [](auto value) { return value < 0 ? std::nullopt : std::optional<int64_t>(value); };
    Inserter ops(db, "operations", 18);
    Inserter copies(db, "copies", 15);
    for (graph::VertexId v = 0; v < g.vertex_count(); ++v) {
      const graph::OpKind kind = g.kind(v);
      std::optional<std::string> function_name;
      if (columns.function[v] >= 0) function_name = g.function_name(static_cast<std::uint32_t>(columns.function[v]));
      if (kind == graph::OpKind::copy) {
        const replay::CopyRoute route = replay::copy_route(g, map, v);
        const graph::CopyInfo& c = g.copy(v);
        copies << run_id << static_cast<int64_t>(v) << std::optional<std::string_view>(core::hex(c.src_memory.value()))
               << std::optional<std::string_view>(core::hex(c.dst_memory.value()))
               << core::memory_kind_name(route.src.kind) << core::memory_kind_name(route.dst.kind)
               << static_cast<int64_t>(route.src_node) << static_cast<int64_t>(route.dst_node)
               << static_cast<int64_t>(route.remote) << sv(replay::route_name(route)) << columns.bytes[v]
               << static_cast<int64_t>(columns.bytes_known[v]) << time_or_null(r.ready(v)) << time_or_null(r.start(v))
               << time_or_null(r.end(v));
        copies.row();
      }
      std::optional<int64_t> queued;
      if (r.start(v) != replay::kNever && r.ready(v) != replay::kNever) queued = r.start(v) - r.ready(v);
      std::optional<int64_t> issuer;
      if (g.issuer(v) != graph::kNoVertex) issuer = g.issuer(v);
      std::optional<int64_t> released_by;
      if (r.released_by(v) != graph::kNoVertex) released_by = r.released_by(v);
      ops << run_id << static_cast<int64_t>(v) << graph::op_kind_name(kind) << sv(core::to_string(g.event(v)))
          << or_null(columns.node[v]) << or_null(columns.processor[v]) << or_null(columns.function[v])
          << (function_name ? std::optional<std::string_view>(*function_name) : std::nullopt) << issuer
          << time_or_null(r.ready(v)) << time_or_null(r.start(v)) << time_or_null(r.end(v)) << queued << released_by
          << replay::release_name(r.release(v)) << or_null(columns.bytes[v]) << static_cast<int64_t>(r.counts(v))
          << (slack[v] == replay::kUnboundedSlack ? std::nullopt : std::optional<int64_t>(slack[v]));
      ops.row();
    }
  }
  {
    Inserter ins(db, "edges", 4);
    for (graph::VertexId v = 0; v < g.vertex_count(); ++v) {
      const auto succ = g.successors(v);
      const auto kinds = g.successor_kinds(v);
      for (std::size_t i = 0; i < succ.size(); ++i) {
        ins << run_id << static_cast<int64_t>(v) << static_cast<int64_t>(succ[i]) << graph::edge_kind_name(kinds[i]);
        ins.row();
      }
    }
  }
  if (run.critical) {
    Inserter ins(db, "critical_path", 7);
    int64_t step = 0;
    for (const auto& st : run.critical->steps) {
      ins << run_id << step++ << static_cast<int64_t>(st.vertex) << replay::path_class_name(st.cls) << sv(st.label)
          << static_cast<int64_t>(st.begin) << static_cast<int64_t>(st.end);
      ins.row();
    }
  }
}

// One row per example of each kind of finding, or one without an event for a kind without examples.
void write_findings(Database& db, const session::LoadedTrace& trace, int64_t run_id) {
  Inserter ins(db, "findings", 6);
  const graph::GraphFindings& f = trace.built.findings;
  for (core::Stat kind : core::finding_stats()) {
    if (f.count(kind) == 0) continue;
    std::optional<std::string_view> explanation;
    if (const std::string_view why = f.explanation(kind, trace.records.format); !why.empty()) explanation = why;
    bool any = false;
    for (const auto& e : f.examples) {
      if (e.kind != kind) continue;
      any = true;
      ins << run_id << core::stat_key(kind) << static_cast<int64_t>(f.count(kind))
          << std::optional<std::string_view>(core::to_string(e.event)) << std::optional<std::string_view>(e.detail)
          << explanation;
      ins.row();
    }
    if (!any) {
      ins << run_id << core::stat_key(kind) << static_cast<int64_t>(f.count(kind)) << std::optional<std::string_view>()
          << std::optional<std::string_view>() << explanation;
      ins.row();
    }
  }
}

// Every stat of the list, zero or not, with the trace's count.
void write_stats(Database& db, const session::LoadedTrace& trace, int64_t run_id) {
  Inserter ins(db, "stats", 6);
  const core::StatCounts counts = graph::trace_stats(trace.records, trace.built.findings);
  for (core::Stat stat : core::kAllStats) {
    ins << run_id << core::stat_key(stat) << core::source_name(core::stat_source(stat))
        << core::severity_name(core::stat_severity(stat)) << static_cast<int64_t>(counts[stat])
        << core::stat_description(stat);
    ins.row();
  }
}

}  // namespace

std::string export_sqlite(const std::string& path, const session::LoadedTrace& trace, const session::ReplayRun& run,
                          const ExportedRun& info) {
  return write_database(path, [&](Database& db) {
    db.exec(kSchema);
    write_tables(db, trace, run, info);
    write_findings(db, trace, kRunId);
    write_stats(db, trace, kRunId);
    db.exec(kIndexes);
  });
}

}  // namespace rr::app
