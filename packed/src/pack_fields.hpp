// The fields of every struct a packed trace keeps besides the graph's arrays, in one list per struct that the
// Writer and the Reader (pack_archive.hpp) both walk. Each list is pinned to its struct's size: a field added
// to a struct fails the build here until it is packed too (and kPackedTraceVersion is raised).
#pragma once

#include "core/trace_records.hpp"
#include "graph/graph_findings.hpp"
#include "machine_models/traced_machine.hpp"
#include "parser/prof_summary.hpp"
#include "parser/trace_summary.hpp"
#include "packed/src/pack_archive.hpp"

namespace rr::packed::pack {

// ---- core: ids, locations, machine records ----
template <class A> void fields(A& a, core::Handle& h) { a(h.lo), a(h.hi); }
template <class A> void fields(A& a, core::EventKey& e) { a(e.id_lo), a(e.id_hi), a(e.gen); }
template <class A> void fields(A& a, core::SourceLocation& s) { a(s.file), a(s.line), a(s.byte_offset), a(s.decoded_offset); }
template <class A> void fields(A& a, core::StatCounts& c) { a(c.values); }
// Counts are packed in the list's order (core/stats.hpp), so the list is pinned too: a stat added, removed,
// renamed or moved fails the build here until kPackedTraceVersion is raised and the fingerprint updated.
constexpr std::uint64_t stat_list_fingerprint() {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over "key," for every stat in order
  for (const core::StatInfo& s : core::kStatInfo)
    for (char c : std::string(s.key) + ",") h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h;
}
static_assert(core::kStatCount == 38 && stat_list_fingerprint() == 0x93a119cb8211fad7ull);
template <class A> void fields(A& a, core::Diagnostic& d) {
  a(d.stat), a(d.where), a(d.message), a(d.quote);
  check_enum(a, d.stat, core::kStatCount);
}
template <class A> void fields(A& a, core::InputError& e) { a(e.where), a(e.message); }
template <class A> void fields(A& a, core::ProcessorRecord& r) { a(r.line), a(r.id), a(r.kind); }
template <class A> void fields(A& a, core::GroupRecord& r) { a(r.line), a(r.id), a(r.first_member), a(r.member_count); }
template <class A> void fields(A& a, core::MemoryRecord& r) { a(r.line), a(r.id), a(r.kind); }
static_assert(sizeof(core::StatCounts) == core::kStatCount * 8);
static_assert(sizeof(core::SourceLocation) == 32 + 8 + 16 + 16 && sizeof(core::Diagnostic) == 8 + 72 + 64);
static_assert(sizeof(core::ProcessorRecord) == 16 && sizeof(core::GroupRecord) == 20 && sizeof(core::MemoryRecord) == 16);

// ---- core: what was read of each file ----
template <class A> void fields(A& a, core::EraEvidence& e) {
  a(e.merges_with_zero_inputs), a(e.merges_with_one_input), a(e.spaced_preconditions), a(e.pending_dump_blocks);
  a(e.barrier_type3_ids);
}
static_assert(sizeof(core::EraEvidence) == 5 * 8);
template <class A> void fields(A& a, core::FileStats& s) {
  a(s.records), a(s.counts), a(s.malformed_by_kind), a(s.other_categories), a(s.era), a(s.lines);
  a(s.text_bytes), a(s.null_args), a(s.unexpected_level), a(s.prefix_nodes), a(s.min_nonzero_id), a(s.max_id);
  a(s.threads), a(s.first_messages);
}
static_assert(sizeof(core::FileStats) == 2 * 14 * 8 + sizeof(core::StatCounts) + 48 + 40 + 6 * 8 + 3 * 24);

// A batch keeps its machine records; its graph records are gone after the build, counted in released_records.
template <class A> void fields(A& a, core::RecordBatch& b) {
  a(b.first_line), a(b.processors), a(b.groups), a(b.group_members), a(b.memories), a(b.released_records);
}

template <class A> void fields(A& a, core::ProfMachine& m) {
  a(m.node_id), a(m.num_nodes), a(m.version), a(m.process_id), a(m.host_id), a(m.hostname);
}
template <class A> void fields(A& a, core::ProfProcessor& p) { a(p.id), a(p.kind), a(p.program_thread); }
template <class A> void fields(A& a, core::ProfMemory& m) { a(m.id), a(m.kind), a(m.capacity); }
template <class A> void fields(A& a, core::ProfAffinity& x) { a(x.proc), a(x.mem), a(x.bandwidth), a(x.latency); }
template <class A> void fields(A& a, core::ProfRecordTypeCount& t) { a(t.name), a(t.id), a(t.count), a(t.bytes); }
static_assert(sizeof(core::ProfMachine) == 32 && sizeof(core::ProfProcessor) == 16 && sizeof(core::ProfMemory) == 24);
static_assert(sizeof(core::ProfAffinity) == 24 && sizeof(core::ProfRecordTypeCount) == 56);

// A Legion Prof file keeps its header facts, its machine and its join problems; its work, copies and event
// records are in the graph (and the traced machine, fitted when the trace was packed).
template <class A> void fields(A& a, core::ProfileRecords& p) {
  a(p.file_type_version), a(p.max_dim), a(p.header_bytes), a(p.data_bytes), a(p.record_types), a(p.machine);
  a(p.zero_time), a(p.calibration_err), a(p.strings), a(p.processors), a(p.memories), a(p.affinities), a(p.counts);
  a(p.join_messages);
}

template <class A> void fields(A& a, core::FileRecords& f) {
  a(f.path), a(f.node), a(f.compression), a(f.stored_bytes), a(f.format), a(f.batches), a(f.stats), a(f.profile);
  check_enum(a, f.compression, 4);
  check_enum(a, f.format, 2);
}
static_assert(sizeof(core::FileRecords) == 32 + 16 + 8 + 24 + sizeof(core::FileStats) + sizeof(core::ProfileRecords));

template <class A> void fields(A& a, core::TraceRecords& t) {
  a(t.format), a(t.files), a(t.failed_files), a(t.width), a(t.mixed_widths), a(t.era), a(t.era_evidence);
  check_enum(a, t.format, 2);
  check_enum(a, t.era, 6);
  if (t.width != core::IdWidth::unknown && t.width != core::IdWidth::bits32 && t.width != core::IdWidth::bits64 &&
      t.width != core::IdWidth::realm)
    check_enum(a, t.width, 0);
}
static_assert(sizeof(core::TraceRecords) == 8 + 2 * 24 + 8 + sizeof(core::EraEvidence));

// ---- parser: the counts `stats` reports ----
template <class A> void fields(A& a, parser::CountsBlock& c) {
  a(c.records), a(c.stats), a(c.malformed_by_kind), a(c.other_categories), a(c.lines);
  a(c.text_bytes), a(c.stored_bytes), a(c.threads), a(c.null_args), a(c.unexpected_level);
  a(c.lines_from_other_nodes), a(c.copy_bytes), a(c.zero_byte_copy_sizes), a(c.task_time_us);
}
static_assert(sizeof(parser::CountsBlock) == 2 * 14 * 8 + sizeof(core::StatCounts) + 48 + 9 * 8 + 5 * 8);
template <class A> void fields(A& a, parser::NodeSummary& n) { a(n.node), a(n.files), a(n.counts); }
static_assert(sizeof(parser::NodeSummary) == 8 + 24 + sizeof(parser::CountsBlock));
template <class A> void fields(A& a, parser::TraceSummary& s) {
  a(s.nodes), a(s.total), a(s.files), a(s.failed_files), a(s.width), a(s.mixed_widths), a(s.era), a(s.era_evidence);
  a(s.processors_by_kind), a(s.memories_by_kind), a(s.groups), a(s.group_members), a(s.messages);
}
static_assert(sizeof(parser::TraceSummary) == 4 * 24 + sizeof(parser::CountsBlock) + 8 + sizeof(core::EraEvidence) +
                                                  2 * 48 + 2 * 8);

template <class A> void fields(A& a, parser::ProfWorkTotal& t) { a(t.count), a(t.run_ns); }
template <class A> void fields(A& a, parser::ProfWorkCounts& w) {
  a(w.work), a(w.copies), a(w.fills), a(w.copy_bytes), a(w.fill_bytes), a(w.waits);
}
static_assert(sizeof(parser::ProfWorkCounts) == (core::kProfWorkKindCount + 3) * 16 + 16);
template <class A> void fields(A& a, parser::ProfFileSummary& f) {
  a(f.path), a(f.node), a(f.records), a(f.data_bytes), a(f.stored_bytes), a(f.record_counts), a(f.work), a(f.stats);
}
static_assert(sizeof(parser::ProfFileSummary) ==
              32 + 8 + 3 * 8 + 24 + sizeof(parser::ProfWorkCounts) + sizeof(core::StatCounts));
template <class A> void fields(A& a, parser::ProfileSummary& s) {
  a(s.files), a(s.failed_files), a(s.record_totals), a(s.records), a(s.data_bytes), a(s.stored_bytes);
  a(s.file_type_versions), a(s.versions), a(s.num_nodes), a(s.nodes_present), a(s.nodes_missing);
  a(s.processors_by_kind), a(s.memories_by_kind), a(s.affinities), a(s.work), a(s.stats), a(s.messages);
}
static_assert(sizeof(parser::ProfileSummary) == 8 * 24 + 3 * 8 + 8 + 2 * 48 + 8 + sizeof(parser::ProfWorkCounts) +
                                                    sizeof(core::StatCounts));

// ---- machine: what the trace measured of its machine ----
template <class A> void fields(A& a, machine::MeasuredValue& m) { a(m.value), a(m.tag), a(m.note); }
template <class A> void fields(A& a, machine::TracedFacts& f) {
  a(f.median_copy_bytes), a(f.network_latency_ns), a(f.local_bandwidth_gbs), a(f.local_latency_ns);
  a(f.remote_bandwidth_gbs), a(f.segment_overhead_ns), a(f.cores), a(f.processor_start_ns), a(f.processor_starts_ns);
}
static_assert(sizeof(machine::MeasuredValue) == 8 + 2 * 32);
static_assert(sizeof(machine::TracedFacts) == 16 + 9 * sizeof(std::optional<machine::MeasuredValue>) + 24);

// ---- graph: what validation found ----
template <class A> void fields(A& a, graph::Finding& f) {
  a(f.kind), a(f.event), a(f.detail);
  check_enum(a, f.kind, core::kStatCount);
  if (core::stat_severity(f.kind) != core::StatSeverity::finding) check_enum(a, f.kind, 0);  // not a finding
}
static_assert(sizeof(graph::Finding) == 16 + 32);
template <class A> void fields(A& a, graph::GraphFindings& g) {
  a(g.counts), a(g.examples), a(g.cycle), a(g.external_references), a(g.pre_first_phase_references), a(g.notes);
  a(g.explained_here);
}
static_assert(sizeof(graph::GraphFindings) == core::kStatCount * (8 + 32) + 3 * 24 + 2 * 8);

}  // namespace rr::packed::pack
