// The packed trace file: a 64-byte header, a table of sections, then the sections, each 64-byte aligned and
// checksummed (XXH3). Section 0 holds the small parts (pack_fields.hpp); then come the graph's arrays in
// EventGraph::visit_parts order, mapped in place on load, the node index (node_index.hpp) and the arrays' block
// checksums (block_checksums.hpp). The layout is pack_layout.hpp; opening and its checks are opened_file.cpp.
#include "packed/packed_trace.hpp"
#include "packed/packed_graph_part.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include "packed/src/block_checksums.hpp"
#include "packed/src/node_index.hpp"
#include "packed/src/opened_file.hpp"
#include "packed/src/pack_fields.hpp"

namespace rr::packed {

namespace {

using namespace layout;
using detail::checksum;
using detail::error_in;

// What a packed trace keeps of the records: each file's statistics and machine records, and of a Legion Prof
// file its header facts and join problems. The graph records are in the graph; a batch counts them.
core::TraceRecords kept_records(const core::TraceRecords& all) {
  core::TraceRecords kept;
  kept.format = all.format;
  kept.failed_files = all.failed_files;
  kept.width = all.width;
  kept.mixed_widths = all.mixed_widths;
  kept.era = all.era;
  kept.era_evidence = all.era_evidence;
  for (const core::FileRecords& f : all.files) {
    core::FileRecords& k = kept.files.emplace_back();
    k.path = f.path;
    k.node = f.node;
    k.compression = f.compression;
    k.stored_bytes = f.stored_bytes;
    k.format = f.format;
    k.stats = f.stats;
    for (const core::RecordBatch& b : f.batches) {
      core::RecordBatch& kb = k.batches.emplace_back();
      kb.first_line = b.first_line;
      kb.processors = b.processors;
      kb.groups = b.groups;
      kb.group_members = b.group_members;
      kb.memories = b.memories;
      kb.released_records = b.record_count() - kb.record_count();
    }
    const core::ProfileRecords& p = f.profile;
    core::ProfileRecords& kp = k.profile;
    kp.file_type_version = p.file_type_version;
    kp.max_dim = p.max_dim;
    kp.header_bytes = p.header_bytes;
    kp.data_bytes = p.data_bytes;
    kp.record_types = p.record_types;
    kp.machine = p.machine;
    kp.zero_time = p.zero_time;
    kp.calibration_err = p.calibration_err;
    kp.strings = p.strings;
    kp.processors = p.processors;
    kp.memories = p.memories;
    kp.affinities = p.affinities;
    kp.counts = p.counts;
    kp.join_messages = p.join_messages;
  }
  return kept;
}

// visit_parts for writing: the arrays become sections, the other members go with the small parts.
struct PartsWriter {
  pack::Writer& parts;
  std::vector<SectionEntry>& entries;
  std::vector<const void*>& data;
  template <class T>
  void column(const graph::Column<T>& c) {
    entries.push_back({kFirstColumnSection + static_cast<std::uint32_t>(data.size() - 1), sizeof(T), 0,
                       c.size() * sizeof(T), 0});
    data.push_back(c.data());
  }
  template <class T>
  void value(const T& x) {
    parts(x);
  }
};

// visit_parts for reading: each array views its section of the mapping (kinds and element sizes were checked on
// opening).
struct PartsReader {
  pack::Reader& parts;
  const detail::OpenedFile& file;
  std::size_t next = 0;
  template <class T>
  void column(graph::Column<T>& c) {
    const std::span<const T> s = file.column<T>(next++);
    c = graph::Column<T>::viewing(s.data(), s.size(), file.mapping);
  }
  template <class T>
  void value(T& x) {
    parts(x);
  }
};

// visit_parts for the small parts alone: the graph's values, its arrays left where they are.
struct ValuesReader {
  pack::Reader& parts;
  template <class T>
  void column(graph::Column<T>&) {}
  template <class T>
  void value(T& x) {
    parts(x);
  }
};

// A measured fact the traced machine's TOML is written from: a finite, non-negative number, and words without
// control characters (they go into TOML comments).
bool is_sound(const std::optional<machine::MeasuredValue>& m) {
  if (!m) return true;
  const auto printable = [](const std::string& s) {
    return std::none_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  };
  return std::isfinite(m->value) && m->value >= 0 && m->value <= 1e15 && printable(m->tag) && printable(m->note);
}

// What the graph's structure check does not cover: the records, summaries and counts that reports and the
// machine map index with, and the traced machine's facts. Empty when they hold together.
std::string records_problem(const PackedTrace& t) {
  const machine::TracedFacts& f = t.traced_facts;
  for (const auto* m : {&f.network_latency_ns, &f.local_bandwidth_gbs, &f.local_latency_ns, &f.remote_bandwidth_gbs,
                        &f.segment_overhead_ns[0], &f.segment_overhead_ns[1], &f.segment_overhead_ns[2]})
    if (!is_sound(*m)) return "a measured value of the traced machine that is no number";
  if (t.nodes == 0 || t.nodes > core::kMaxNode + 1) return "a node count out of range";
  const bool text = t.records.format == core::TraceFormat::realm_text;
  if (t.summary.has_value() != text || t.profile_summary.has_value() == text) return "no summary of the trace's format";
  for (const core::FileRecords& f : t.records.files) {
    if (f.node < -1 || f.node > static_cast<std::int32_t>(core::kMaxNode)) return "a file of a node out of range";
    for (const auto& [node, lines] : f.stats.prefix_nodes)
      if (node > core::kMaxNode) return "a prefix node out of range";
    for (const core::RecordBatch& b : f.batches)
      for (const core::GroupRecord& g : b.groups)
        if (std::uint64_t{g.first_member} + g.member_count > b.group_members.size()) return "a group whose members are missing";
  }
  return {};
}

// The small parts, in the order write_packed_trace lays them down, the graph's values last with its arrays as
// `columns` takes them; and the checks on the records. An error names the file and the small parts' place.
template <class Columns>
std::optional<core::InputError> decode_small_parts(const detail::OpenedFile& file, pack::Reader& parts,
                                                   Columns& columns, PackedTrace& t) {
  try {
    parts(t.label);
    parts(t.nodes);
    parts(t.findings);
    parts(t.records);
    parts(t.summary);
    parts(t.profile_summary);
    parts(t.traced_facts);
    parts(t.traced_machine);
    t.graph.visit_parts(columns);
    if (!parts.done()) parts.fail("bytes after the last part");
  } catch (const pack::Undecodable& e) {
    return error_in(file.path, std::string("damaged: the trace's records and findings cannot be decoded: ") + e.what(),
                    file.entries[0].offset);
  } catch (const std::bad_alloc&) {
    return error_in(file.path, "damaged: the trace's records and findings ask for more memory than there is",
                    file.entries[0].offset);
  }
  if (std::string problem = records_problem(t); !problem.empty())
    return error_in(file.path, "damaged: the trace's records hold " + problem, file.entries[0].offset);
  return std::nullopt;
}

}  // namespace

bool is_packed_trace(const std::string& path) {
  // Only a regular file is probed: reading the first bytes of a pipe or a FIFO would take them from the reader.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  std::array<char, kSignature.size()> head{};
  if (!in.read(head.data(), head.size())) return false;
  return std::memcmp(head.data(), kSignature.data(), head.size()) == 0;
}

core::Expected<PackedTraceInfo> write_packed_trace(const TraceToPack& trace, platform::OutputTarget& out) {
  if (!trace.summary && !trace.profile_summary)
    return error_in(trace.label, "cannot pack a trace read without its summary (ReadingOptions::summarise)");
  pack::Writer parts;
  parts(trace.label);
  parts(trace.nodes);
  parts(trace.findings);  // before the records: a reader of one rank's part decodes no further
  parts(kept_records(trace.records));
  parts(trace.summary);
  parts(trace.profile_summary);
  parts(trace.traced_facts);
  parts(trace.traced_machine);
  std::vector<SectionEntry> entries{{kPartsSection, 1, 0, 0, 0}};
  std::vector<const void*> data{nullptr};
  PartsWriter columns{parts, entries, data};
  trace.graph.visit_parts(columns);
  entries[0].bytes = parts.bytes().size();
  data[0] = parts.bytes().data();

  const detail::NodeIndex index = detail::index_by_node(
      {static_cast<const std::uint32_t*>(data[kFirstColumn + kNodesColumn]), trace.graph.vertex_count()});
  entries.push_back({kNodeEntriesSection, sizeof(NodeEntry), 0, index.entries.size() * sizeof(NodeEntry), 0});
  data.push_back(index.entries.data());
  entries.push_back({kVertexRunsSection, sizeof(VertexRun), 0, index.runs.size() * sizeof(VertexRun), 0});
  data.push_back(index.runs.data());
  std::vector<std::span<const std::byte>> column_bytes;
  for (std::size_t c = 0; c < kColumns; ++c)
    column_bytes.emplace_back(static_cast<const std::byte*>(data[kFirstColumn + c]), entries[kFirstColumn + c].bytes);
  const std::vector<std::uint64_t> blocks = detail::block_checksums_of(column_bytes);
  entries.push_back({kBlockChecksumsSection, sizeof(std::uint64_t), 0, blocks.size() * sizeof(std::uint64_t), 0});
  data.push_back(blocks.data());

  std::uint64_t at = aligned(sizeof(Header) + entries.size() * sizeof(SectionEntry));
  std::uint64_t first_block = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    SectionEntry& e = entries[i];
    e.offset = at;
    at = aligned(at + e.bytes);
    if (i >= kFirstColumn && i < kNodeEntries) {  // an array's checksum is that of its blocks' checksums
      const std::uint64_t n = blocks_of(e.bytes);
      e.checksum = checksum(blocks.data() + first_block, n * sizeof(std::uint64_t));
      first_block += n;
    } else {
      e.checksum = checksum(data[i], e.bytes);
    }
  }
  Header h{};
  h.signature = kSignature;
  h.version = kPackedTraceVersion;
  h.byte_order = kByteOrderMark;
  h.file_bytes = at;
  h.section_count = static_cast<std::uint32_t>(entries.size());
  h.table_checksum = checksum(entries.data(), entries.size() * sizeof(SectionEntry));
  h.header_checksum = checksum(&h, offsetof(Header, header_checksum));

  static constexpr std::array<char, kAlign> kZeros{};
  std::uint64_t written = 0;
  auto put = [&](const void* bytes, std::uint64_t n) {
    written += n;
    return out.write(std::string_view(static_cast<const char*>(bytes), n));
  };
  bool ok = put(&h, sizeof h) && put(entries.data(), entries.size() * sizeof(SectionEntry));
  for (std::size_t i = 0; ok && i < entries.size(); ++i) {
    ok = put(kZeros.data(), entries[i].offset - written);
    // Large arrays go out in pieces of 64 MiB: one write of gigabytes buys nothing and some systems refuse it.
    const auto* bytes = static_cast<const char*>(data[i]);
    for (std::uint64_t done = 0; ok && done < entries[i].bytes;) {
      const std::uint64_t n = std::min<std::uint64_t>(entries[i].bytes - done, std::uint64_t{64} << 20);
      ok = put(bytes + done, n);
      done += n;
    }
  }
  if (ok) ok = put(kZeros.data(), h.file_bytes - written);
  if (!ok) return error_in(trace.label, "the packed trace could not be written");  // the target has the reason
  return PackedTraceInfo{h.file_bytes, h.section_count};
}

core::Expected<PackedTrace> read_packed_trace(const std::string& path) {
  auto opened = detail::open_packed_file(path, detail::Reading::whole);
  if (!opened) return opened.error();
  const detail::OpenedFile& file = **opened;
  if (const auto damaged = detail::first_damaged_section(file))
    return error_in(path, "damaged: the checksum of " + section_name(*damaged) + " does not match",
                    file.entries[*damaged].offset);

  PackedTrace t;
  pack::Reader parts(file.section(0));
  PartsReader columns{parts, file};
  if (auto error = decode_small_parts(file, parts, columns, t)) return *error;
  if (std::string problem = t.graph.structure_problem(); !problem.empty())
    return error_in(path, "damaged: the graph has " + problem);
  for (graph::VertexId v : t.findings.cycle)
    if (v >= t.graph.vertex_count()) return error_in(path, "damaged: the cycle found names no vertex");
  // The index was checked as a partition on opening; here every vertex is read, so each must be under its node.
  const std::span<const std::uint32_t> nodes = file.column<std::uint32_t>(kNodesColumn);
  for (const NodeEntry& e : file.node_entries)
    if (std::string problem = detail::disagreement(e, file.runs, nodes); !problem.empty())
      return error_in(path, "damaged: " + section_name(kVertexRuns) + ": " + problem, file.entries[kVertexRuns].offset);
  // The file holds the functions' names; their labels are derived from them, here as when the graph was built.
  t.graph.set_function_names(graph::FunctionNames(t.graph.function_names()));
  return t;
}

core::Expected<PackedTraceContext> read_packed_context(const MappedPackedTrace& trace) {
  const detail::OpenedFile& file = trace.file();
  const std::span<const std::byte> small = file.section(0);
  if (detail::checksum(small.data(), small.size()) != file.entries[0].checksum)
    return error_in(file.path, "damaged: the checksum of " + section_name(0) + " does not match", file.entries[0].offset);
  PackedTrace t;  // (its graph takes the values alone: what records_problem checks needs no array)
  pack::Reader parts(small);
  ValuesReader values{parts};
  if (auto error = decode_small_parts(file, parts, values, t)) return *error;
  for (graph::VertexId v : t.findings.cycle)
    if (v >= file.vertices) return error_in(file.path, "damaged: the cycle found names no vertex");
  return PackedTraceContext{std::move(t.label),         std::move(t.records),
                            std::move(t.findings),      graph::FunctionNames(t.graph.function_names()),
                            t.nodes,                    std::move(t.traced_facts),
                            std::move(t.traced_machine)};
}

}  // namespace rr::packed
