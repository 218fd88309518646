// `stats` output: a per-node table of record counts and totals, and the same facts as versioned JSON.
#include "stats_report.hpp"

#include <cstdio>
#include <sstream>

#include "stats_json.hpp"

namespace rr::app {
namespace {

using parser::CountsBlock;
using parser::TraceSummary;

// Trace microseconds as milliseconds, the unit of every text report's times (three decimals keep each µs).
std::string fmt_ms_from_us(std::uint64_t us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(us) / 1e3);
  return buf;
}

std::string human_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

// A right-aligned table: first column labels, then one column per node and a total.
class Table {
 public:
  explicit Table(std::vector<std::string> header) { rows_.push_back(std::move(header)); }
  void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  std::string str() const {
    std::vector<std::size_t> width;
    for (const auto& r : rows_)
      for (std::size_t i = 0; i < r.size(); ++i) {
        if (width.size() <= i) width.push_back(0);
        width[i] = std::max(width[i], r[i].size());
      }
    std::string out;
    for (const auto& r : rows_) {
      for (std::size_t i = 0; i < r.size(); ++i) {
        std::string pad(width[i] - r[i].size(), ' ');
        out += i == 0 ? "  " + r[i] + pad : "  " + pad + r[i];
      }
      out += "\n";
    }
    return out;
  }

 private:
  std::vector<std::vector<std::string>> rows_;
};

std::string node_label(std::int32_t node) { return node < 0 ? "node ?" : "node " + std::to_string(node); }

template <typename F>
void count_row(Table& t, const TraceSummary& s, const std::string& label, F&& get) {
  std::vector<std::string> cells{label};
  for (const auto& n : s.nodes) cells.push_back(std::to_string(get(n.counts)));
  cells.push_back(std::to_string(get(s.total)));
  t.row(std::move(cells));
}

std::string era_evidence_text(const core::EraEvidence& e) {
  std::vector<std::string> parts;
  if (e.merges_with_zero_inputs) parts.push_back(std::to_string(e.merges_with_zero_inputs) + " 0-input merges");
  if (e.merges_with_one_input) parts.push_back(std::to_string(e.merges_with_one_input) + " 1-input merges");
  if (e.spaced_preconditions) parts.push_back(std::to_string(e.spaced_preconditions) + " \"(id, gen)\" preconditions");
  if (e.pending_dump_blocks) parts.push_back(std::to_string(e.pending_dump_blocks) + " pending-event dumps");
  if (e.barrier_type3_ids) parts.push_back(std::to_string(e.barrier_type3_ids) + " type-3 barrier ids");
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out.empty() ? "no distinguishing records" : out;
}

std::string kind_list(const std::map<std::string, std::uint64_t>& m) {
  std::string out;
  for (const auto& [k, v] : m) out += (out.empty() ? "" : ", ") + std::to_string(v) + " " + k;
  return out.empty() ? "none" : out;
}

}  // namespace

std::string render_stats_text(const TraceSummary& s) {
  std::ostringstream out;
  out << "Trace: " << s.files.size() << " file(s), " << s.nodes.size() << " node(s), "
      << core::to_string(s.width) << " ids" << (s.mixed_widths ? " (MIXED widths!)" : "") << ", era "
      << core::era_name(s.era) << " (" << era_evidence_text(s.era_evidence) << ")\n";
  for (const auto& f : s.failed_files) out << "  FAILED: " << f.to_string() << "\n";
  out << "Machine: processors " << kind_list(s.processors_by_kind) << "; memories " << kind_list(s.memories_by_kind)
      << "; " << s.groups << " processor group(s) with " << s.group_members << " member(s)\n\n";

  std::vector<std::string> header{"records"};
  for (const auto& n : s.nodes) header.push_back(node_label(n.node));
  header.push_back("total");
  Table t(header);
  for (auto kind : core::all_record_kinds())
    count_row(t, s, std::string(core::record_kind_name(kind)), [&](const CountsBlock& c) { return c.records[kind]; });
  count_row(t, s, "all records", [](const CountsBlock& c) { return c.records.total(); });
  t.row({""});
  count_row(t, s, "lines", [](const CountsBlock& c) { return c.lines; });
  for (core::Stat stat : core::skipped_line_stats())
    count_row(t, s, "skipped: " + std::string(core::stat_key(stat)),
              [&](const CountsBlock& c) { return c.stats[stat]; });
  count_row(t, s, "malformed", [](const CountsBlock& c) { return c.stats.total(core::malformed_line_stats()); });
  count_row(t, s, "threads", [](const CountsBlock& c) { return c.threads; });
  count_row(t, s, "text bytes", [](const CountsBlock& c) { return c.text_bytes; });
  count_row(t, s, "stored bytes", [](const CountsBlock& c) { return c.stored_bytes; });
  t.row({""});
  count_row(t, s, "tasks (requests)", [](const CountsBlock& c) { return c.records[core::RecordKind::task_request]; });
  count_row(t, s, "copies (requests)", [](const CountsBlock& c) { return c.records[core::RecordKind::copy_request]; });
  count_row(t, s, "bytes copied", [](const CountsBlock& c) { return c.copy_bytes; });
  count_row(t, s, "0-byte Copy Sizes", [](const CountsBlock& c) { return c.zero_byte_copy_sizes; });
  count_row(t, s, "(nil) args", [](const CountsBlock& c) { return c.null_args; });
  out << t.str();

  std::vector<std::string> theader{"task time (ms)"};
  for (const auto& n : s.nodes) theader.push_back(node_label(n.node));
  theader.push_back("total");
  Table tt(theader);
  for (std::size_t k = 0; k < parser::kTimeKindCount; ++k) {
    std::vector<std::string> cells{std::string(parser::time_kind_key(k))};
    for (const auto& n : s.nodes) cells.push_back(fmt_ms_from_us(n.counts.task_time_us[k]));
    cells.push_back(fmt_ms_from_us(s.total.task_time_us[k]));
    tt.row(std::move(cells));
  }
  out << "\n" << tt.str();

  if (!s.total.other_categories.empty()) {
    out << "\nOther logger categories skipped:";
    for (const auto& [k, v] : s.total.other_categories) out << " " << k << "=" << v;
    out << "\n";
  }
  if (s.total.stats.total(core::malformed_line_stats()) > 0) {
    out << "\nMalformed lines by reason:";
    for (core::Stat stat : core::malformed_line_stats())
      if (s.total.stats[stat]) out << " " << core::stat_key(stat) << "=" << s.total.stats[stat];
    out << "\n";
    for (const auto& d : s.messages) out << "  " << core::format_diagnostic(d) << "\n";
  }
  if (s.total.unexpected_level) out << "\nRecords at an unexpected logger level: " << s.total.unexpected_level << "\n";
  if (s.total.lines_from_other_nodes)
    out << "Lines whose prefix names another node than their file's: " << s.total.lines_from_other_nodes << "\n";
  out << "\n";
  return out.str();
}

std::string render_read_line(const TraceSummary& s, const RunContext& ctx) {
  char elapsed[64];
  std::snprintf(elapsed, sizeof elapsed, "%.3f", ctx.elapsed_seconds);
  return "Read " + human_bytes(s.total.text_bytes) + " of text (" + human_bytes(s.total.stored_bytes) +
         " stored) in " + elapsed + " s\n";
}

namespace {

nlohmann::ordered_json counts_json(const CountsBlock& c) {
  nlohmann::ordered_json j;
  nlohmann::ordered_json records;
  for (auto kind : core::all_record_kinds()) records[std::string(core::record_kind_key(kind))] = c.records[kind];
  j["records"] = records;
  j["record_total"] = c.records.total();
  j["lines"] = c.lines;
  j["skipped"] = stats_json(c.stats, core::skipped_line_stats());
  j["other_categories"] = c.other_categories;
  j["malformed"] = stats_json(c.stats, core::malformed_line_stats());
  nlohmann::ordered_json malformed_kind = nlohmann::ordered_json::object();
  for (auto kind : core::all_record_kinds())
    if (c.malformed_by_kind[kind]) malformed_kind[std::string(core::record_kind_key(kind))] = c.malformed_by_kind[kind];
  j["malformed_by_record_kind"] = malformed_kind;
  j["threads"] = c.threads;
  j["text_bytes"] = c.text_bytes;
  j["stored_bytes"] = c.stored_bytes;
  j["tasks"] = c.records[core::RecordKind::task_request];
  j["copies"] = c.records[core::RecordKind::copy_request];
  j["bytes_copied"] = c.copy_bytes;
  j["zero_byte_copy_sizes"] = c.zero_byte_copy_sizes;
  j["null_args"] = c.null_args;
  j["unexpected_level"] = c.unexpected_level;
  j["lines_from_other_nodes"] = c.lines_from_other_nodes;
  nlohmann::ordered_json time;
  for (std::size_t k = 0; k < parser::kTimeKindCount; ++k)
    time[std::string(parser::time_kind_key(k))] = c.task_time_us[k];
  j["task_time_us"] = time;
  return j;
}

}  // namespace

nlohmann::ordered_json render_stats_json(const TraceSummary& s, const RunContext& ctx) {
  nlohmann::ordered_json j;
  j["schema"] = "realm-replay/stats";
  j["schema_version"] = 1;
  j["context"] = context_json(ctx);
  j["files"] = s.files;
  nlohmann::ordered_json failed = nlohmann::ordered_json::array();
  for (const auto& f : s.failed_files) failed.push_back({{"file", f.where.file}, {"message", f.to_string()}});
  j["failed_files"] = failed;
  j["id_width"] = s.width == core::IdWidth::unknown ? 0 : static_cast<int>(s.width);
  j["mixed_id_widths"] = s.mixed_widths;
  j["era"] = core::era_name(s.era);
  j["era_evidence"] = {{"merges_with_zero_inputs", s.era_evidence.merges_with_zero_inputs},
                       {"merges_with_one_input", s.era_evidence.merges_with_one_input},
                       {"spaced_preconditions", s.era_evidence.spaced_preconditions},
                       {"pending_dump_blocks", s.era_evidence.pending_dump_blocks},
                       {"barrier_type3_ids", s.era_evidence.barrier_type3_ids}};
  j["processors_by_kind"] = s.processors_by_kind;
  j["memories_by_kind"] = s.memories_by_kind;
  j["groups"] = s.groups;
  j["group_members"] = s.group_members;
  nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
  for (const auto& n : s.nodes) {
    nlohmann::ordered_json nj;
    nj["node"] = n.node;
    nj["files"] = n.files;
    nj.update(counts_json(n.counts));
    nodes.push_back(nj);
  }
  j["nodes"] = nodes;
  j["total"] = counts_json(s.total);
  nlohmann::ordered_json messages = nlohmann::ordered_json::array();
  for (const auto& d : s.messages)
    messages.push_back({{"file", d.where.file}, {"line", d.where.line}, {"message", d.message}, {"quote", d.quote}});
  j["messages"] = messages;
  j["elapsed_seconds"] = ctx.elapsed_seconds;
  return j;
}

}  // namespace rr::app
