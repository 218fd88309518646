// `stats` of Legion Prof logs: record types per node file and in total, the machine, the work done, joins.
#include "prof_stats_report.hpp"

#include <cstdio>
#include <sstream>

#include "stats_json.hpp"
#include "text_format.hpp"

namespace rr::app {
namespace {

using parser::ProfileSummary;
using parser::ProfWorkCounts;

// Readable names of the work kinds, in ProfWorkKind order.
constexpr const char* kWorkLabels[core::kProfWorkKindCount] = {
    "tasks", "GPU tasks", "implicit tasks", "meta-tasks", "messages", "partition ops", "profiler tasks"};
constexpr const char* kWorkTimeLabels[core::kProfWorkKindCount] = {
    "task time (s)",          "GPU task time (s)",     "implicit task time (s)", "meta-task time (s)",
    "message time (s)",       "partition op time (s)", "profiler task time (s)"};

std::string seconds(std::int64_t ns) { return fixed(static_cast<double>(ns) / 1e9, 6); }

std::string human_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  for (; v >= 1024 && u < 4; ++u) v /= 1024;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

// Right-aligned columns under a header row; the first column is left-aligned.
std::string table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width;
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (width.size() <= i) width.push_back(0);
      width[i] = std::max(width[i], r[i].size());
    }
  std::string out;
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < r.size(); ++i) {
      const std::string pad(width[i] - r[i].size(), ' ');
      out += i == 0 ? "  " + r[i] + pad : "  " + pad + r[i];
    }
    out += "\n";
  }
  return out;
}

std::string file_label(const parser::ProfFileSummary& f) {
  return f.node < 0 ? "node ?" : "node " + std::to_string(f.node);
}

template <typename T>
std::string join(const std::vector<T>& v, const char* none = "none") {
  std::ostringstream o;
  for (std::size_t i = 0; i < v.size(); ++i) o << (i ? ", " : "") << v[i];
  return v.empty() ? none : o.str();
}

std::string kind_list(const std::map<std::string, std::uint64_t>& m) {
  std::string out;
  for (const auto& [k, v] : m) out += (out.empty() ? "" : ", ") + std::to_string(v) + " " + k;
  return out.empty() ? "none" : out;
}

// "2 wait records not after a task of theirs, 1 MachineDesc repeated": each stat by its description.
std::string joins_text(const core::StatCounts& counts) {
  std::vector<std::string> parts;
  for (core::Stat stat : core::unjoined_record_stats())
    if (counts[stat]) parts.push_back(std::to_string(counts[stat]) + " " + std::string(core::stat_description(stat)));
  return join(parts, "none: every wait, copy and fill instance record follows its parent");
}

nlohmann::ordered_json work_json(const ProfWorkCounts& w) {
  nlohmann::ordered_json j;
  for (std::size_t k = 0; k < core::kProfWorkKindCount; ++k)
    j[std::string(core::prof_work_kind_key(static_cast<core::ProfWorkKind>(k)))] = {
        {"count", w.work[k].count}, {"run_ns", w.work[k].run_ns}};
  j["copies"] = {{"count", w.copies.count}, {"run_ns", w.copies.run_ns}, {"bytes", w.copy_bytes}};
  j["fills"] = {{"count", w.fills.count}, {"run_ns", w.fills.run_ns}, {"bytes", w.fill_bytes}};
  j["waits"] = {{"count", w.waits.count}, {"wait_ns", w.waits.run_ns}};
  return j;
}

// Every stat of the Legion Prof reader: the records not joined, then the repeated descriptions.
nlohmann::ordered_json joins_json(const core::StatCounts& counts) {
  nlohmann::ordered_json j = stats_json(counts, core::unjoined_record_stats());
  j.update(stats_json(counts, core::stats_of(core::StatSource::legion_prof_reader, core::StatSeverity::info)));
  return j;
}

}  // namespace

std::string render_prof_stats_text(const ProfileSummary& s, const RunContext& ctx) {
  std::ostringstream out;
  std::vector<std::string> versions;
  for (auto v : s.versions) versions.push_back(std::to_string(v));
  out << "Legion Prof trace: " << s.files.size() << " file(s), BinaryLegionProf " << join(s.file_type_versions)
      << ", format version " << join(versions, "unknown (no MachineDesc)") << "; a run of " << s.num_nodes
      << " node(s), files of node(s) " << join(s.nodes_present) << ", missing: " << join(s.nodes_missing) << "\n";
  for (const auto& f : s.failed_files) out << "  FAILED: " << f.to_string() << "\n";
  out << "Machine: processors " << kind_list(s.processors_by_kind) << "; memories " << kind_list(s.memories_by_kind)
      << "; " << s.affinities << " processor-memory affinities\n\n";

  std::vector<std::string> header{"records"};
  for (const auto& f : s.files) header.push_back(file_label(f));
  header.push_back("total");
  std::vector<std::vector<std::string>> rows{header};
  std::vector<std::string> absent;
  for (const auto& [name, total] : s.record_totals) {
    if (total == 0) {
      absent.push_back(name);
      continue;
    }
    std::vector<std::string> r{name};
    for (const auto& f : s.files) {
      std::uint64_t n = 0;
      for (const auto& [fname, count] : f.record_counts)
        if (fname == name) n = count;
      r.push_back(std::to_string(n));
    }
    r.push_back(std::to_string(total));
    rows.push_back(std::move(r));
  }
  std::vector<std::string> all{"all records"};
  for (const auto& f : s.files) all.push_back(std::to_string(f.records));
  all.push_back(std::to_string(s.records));
  rows.push_back(std::move(all));
  out << table(rows);
  out << "  (declared, no record: " << join(absent) << ")\n\n";

  header[0] = "work";
  std::vector<std::vector<std::string>> work{header};
  auto row = [&](const std::string& label, auto get) {
    std::vector<std::string> r{label};
    for (const auto& f : s.files) r.push_back(get(f.work));
    r.push_back(get(s.work));
    work.push_back(std::move(r));
  };
  for (std::size_t k = 0; k < core::kProfWorkKindCount; ++k) {
    if (s.work.work[k].count == 0) continue;
    row(kWorkLabels[k], [k](const ProfWorkCounts& w) { return std::to_string(w.work[k].count); });
    row(kWorkTimeLabels[k], [k](const ProfWorkCounts& w) { return seconds(w.work[k].run_ns); });
  }
  row("copies", [](const ProfWorkCounts& w) { return std::to_string(w.copies.count); });
  row("copy time (s)", [](const ProfWorkCounts& w) { return seconds(w.copies.run_ns); });
  row("bytes copied", [](const ProfWorkCounts& w) { return std::to_string(w.copy_bytes); });
  row("fills", [](const ProfWorkCounts& w) { return std::to_string(w.fills.count); });
  row("fill time (s)", [](const ProfWorkCounts& w) { return seconds(w.fills.run_ns); });
  row("bytes filled", [](const ProfWorkCounts& w) { return std::to_string(w.fill_bytes); });
  row("waits", [](const ProfWorkCounts& w) { return std::to_string(w.waits.count); });
  row("wait time (s)", [](const ProfWorkCounts& w) { return seconds(w.waits.run_ns); });
  out << table(work) << "  (time: stop - start of each item, summed; waits: wait_end - wait_start)\n\n";

  out << "Records not joined: " << joins_text(s.stats) << "\n";
  for (const auto& d : s.messages) out << "  " << core::format_diagnostic(d) << "\n";
  out << "Repeated descriptions (first kept): " << s.stats[core::Stat::repeated_processors] << " processor, "
      << s.stats[core::Stat::repeated_memories] << " memory, " << s.stats[core::Stat::repeated_affinities]
      << " affinity\n";
  out << "Event graph: not built yet for Legion Prof logs\n\n";
  char elapsed[64];
  std::snprintf(elapsed, sizeof elapsed, "%.3f", ctx.elapsed_seconds);
  out << "Read " << human_bytes(s.data_bytes) << " of decompressed data (" << human_bytes(s.stored_bytes)
      << " stored) in " << elapsed << " s\n";
  return out.str();
}

nlohmann::ordered_json render_prof_stats_json(const ProfileSummary& s, const RunContext& ctx) {
  nlohmann::ordered_json j;
  j["schema"] = "realm-replay/legion-prof-stats";
  j["schema_version"] = 1;
  j["context"] = context_json(ctx);
  j["format"] = "legion-prof";
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (const auto& f : s.files) {
    nlohmann::ordered_json counts = nlohmann::ordered_json::object();
    for (const auto& [name, n] : f.record_counts) counts[name] = n;
    files.push_back({{"path", f.path},
                     {"node", f.node},
                     {"records", f.records},
                     {"data_bytes", f.data_bytes},
                     {"stored_bytes", f.stored_bytes},
                     {"record_counts", counts},
                     {"work", work_json(f.work)},
                     {"joins", joins_json(f.stats)}});
  }
  j["files"] = files;
  nlohmann::ordered_json failed = nlohmann::ordered_json::array();
  for (const auto& f : s.failed_files) failed.push_back({{"file", f.where.file}, {"message", f.to_string()}});
  j["failed_files"] = failed;
  j["file_type_versions"] = s.file_type_versions;
  j["versions"] = s.versions;
  j["num_nodes"] = s.num_nodes;
  j["nodes_present"] = s.nodes_present;
  j["nodes_missing"] = s.nodes_missing;
  j["processors_by_kind"] = s.processors_by_kind;
  j["memories_by_kind"] = s.memories_by_kind;
  j["affinities"] = s.affinities;
  nlohmann::ordered_json totals = nlohmann::ordered_json::object();
  for (const auto& [name, n] : s.record_totals) totals[name] = n;
  j["record_totals"] = totals;
  j["records"] = s.records;
  j["data_bytes"] = s.data_bytes;
  j["stored_bytes"] = s.stored_bytes;
  j["work"] = work_json(s.work);
  j["joins"] = joins_json(s.stats);
  nlohmann::ordered_json messages = nlohmann::ordered_json::array();
  for (const auto& d : s.messages)
    messages.push_back({{"file", d.where.file}, {"decoded_offset", d.where.decoded_offset.value_or(0)}, {"message", d.message}});
  j["messages"] = messages;
  j["graph"] = nullptr;  // not built yet for this format
  j["elapsed_seconds"] = ctx.elapsed_seconds;
  return j;
}

}  // namespace rr::app
