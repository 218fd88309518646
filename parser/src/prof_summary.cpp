// Aggregates Legion Prof records per file and over the trace (processors and memories counted once per id).
#include "parser/prof_summary.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace rr::parser {

void ProfWorkCounts::add(const ProfWorkCounts& o) {
  for (std::size_t k = 0; k < work.size(); ++k) {
    work[k].count += o.work[k].count;
    work[k].run_ns += o.work[k].run_ns;
  }
  for (auto [into, from] : {std::pair{&copies, &o.copies}, {&fills, &o.fills}, {&waits, &o.waits}}) {
    into->count += from->count;
    into->run_ns += from->run_ns;
  }
  copy_bytes += o.copy_bytes;
  fill_bytes += o.fill_bytes;
}

namespace {

ProfWorkCounts count_work(const core::ProfileRecords& p) {
  ProfWorkCounts c;
  for (const auto& w : p.work) c.work[static_cast<std::size_t>(w.kind)].add(w.start, w.stop);
  for (const auto& x : p.copies) {
    c.copies.add(x.start, x.stop);
    c.copy_bytes += x.size;
  }
  for (const auto& x : p.fills) {
    c.fills.add(x.start, x.stop);
    c.fill_bytes += x.size;
  }
  for (const auto& w : p.waits) c.waits.add(w.wait_start, w.wait_end);
  return c;
}

template <typename T>
void add_distinct(std::vector<T>& v, const T& x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

}  // namespace

ProfileSummary summarise_profiles(const core::TraceRecords& trace) {
  ProfileSummary s;
  s.failed_files = trace.failed_files;
  std::unordered_map<std::uint64_t, core::RealmProcKind> processors;
  std::unordered_map<std::uint64_t, core::RealmMemKind> memories;
  std::set<std::pair<std::uint64_t, std::uint64_t>> affinities;
  std::set<std::int32_t> present;
  for (const auto& f : trace.files) {
    if (f.format != core::TraceFormat::legion_prof) continue;
    const core::ProfileRecords& p = f.profile;
    ProfFileSummary fs;
    fs.path = f.path;
    fs.node = f.node;
    fs.records = p.record_count();
    fs.data_bytes = p.data_bytes;
    fs.stored_bytes = f.stored_bytes;
    for (const auto& t : p.record_types) {
      fs.record_counts.emplace_back(t.name, t.count);
      auto it = std::find_if(s.record_totals.begin(), s.record_totals.end(),
                             [&](const auto& e) { return e.first == t.name; });
      if (it == s.record_totals.end())
        s.record_totals.emplace_back(t.name, t.count);
      else
        it->second += t.count;
    }
    fs.work = count_work(p);
    fs.stats = p.counts;
    s.records += fs.records;
    s.data_bytes += fs.data_bytes;
    s.stored_bytes += fs.stored_bytes;
    s.work.add(fs.work);
    s.stats += p.counts;
    s.messages.insert(s.messages.end(), p.join_messages.begin(), p.join_messages.end());
    add_distinct(s.file_type_versions, p.file_type_version);
    if (p.machine) {
      add_distinct(s.versions, p.machine->version);
      s.num_nodes = std::max(s.num_nodes, p.machine->num_nodes);
    }
    if (f.node >= 0) present.insert(f.node);
    for (const auto& x : p.processors) processors.emplace(x.id.value(), x.kind);
    for (const auto& x : p.memories) memories.emplace(x.id.value(), x.kind);
    for (const auto& x : p.affinities) affinities.emplace(x.proc.value(), x.mem.value());
    s.files.push_back(std::move(fs));
  }
  std::stable_sort(s.files.begin(), s.files.end(), [](const auto& a, const auto& b) { return a.node < b.node; });
  s.nodes_present.assign(present.begin(), present.end());
  // Realm node ids have 16 bits: a larger count is a corrupt MachineDesc, not a list to print.
  if (s.num_nodes <= (1u << 16))
    for (std::uint32_t n = 0; n < s.num_nodes; ++n)
      if (!present.count(static_cast<std::int32_t>(n))) s.nodes_missing.push_back(n);
  for (const auto& [id, kind] : processors) ++s.processors_by_kind[core::realm_proc_kind_name(kind)];
  for (const auto& [id, kind] : memories) ++s.memories_by_kind[core::realm_mem_kind_name(kind)];
  s.affinities = affinities.size();
  return s;
}

}  // namespace rr::parser
