// The packed trace file: a 64-byte header, a table of sections, then the sections, each 64-byte aligned and
// checksummed (XXH3). Section 0 holds the small parts (pack_fields.hpp); the others are the graph's arrays in
// EventGraph::visit_parts order, mapped in place on load.
#include "packed/packed_trace.hpp"

#include <tbb/parallel_for.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "parser/trace_inputs.hpp"
#include "platform/mapped_file.hpp"
#include "packed/src/pack_fields.hpp"

namespace rr::packed {

namespace {

constexpr auto kSignature = parser::kPackedTraceSignature;  // where the parser recognises a packed file
constexpr std::uint32_t kByteOrderMark = 0x01020304;
constexpr std::uint64_t kAlign = 64;
constexpr std::uint32_t kPartsSection = 1;
constexpr std::uint32_t kFirstColumnSection = 16;
// The graph's arrays, named in EventGraph::visit_parts order (for messages about a damaged one).
constexpr std::array<const char*, 19> kColumnNames = {
    "kinds",          "nodes",           "events",          "issuers",        "positions",
    "payloads",       "tasks",           "copies",          "barrier phases", "barrier values",
    "waits",          "issue fractions", "observed starts", "observed ends",  "external delays",
    "outside work",   "successor offsets", "successors",    "successor kinds"};

struct Header {
  std::array<unsigned char, 8> signature;
  std::uint32_t version;
  std::uint32_t byte_order;
  std::uint64_t file_bytes;
  std::uint32_t section_count;
  std::uint32_t reserved;
  std::uint64_t table_checksum;
  std::uint64_t header_checksum;  // of the 40 bytes before it
  std::array<std::uint64_t, 2> zero;
};
static_assert(sizeof(Header) == 64 && offsetof(Header, header_checksum) == 40);

struct SectionEntry {
  std::uint32_t kind;
  std::uint32_t element_bytes;
  std::uint64_t offset;
  std::uint64_t bytes;
  std::uint64_t checksum;
};
static_assert(sizeof(SectionEntry) == 32);

std::uint64_t checksum(const void* data, std::size_t bytes) { return XXH3_64bits(data, bytes); }
std::uint64_t aligned(std::uint64_t at) { return (at + kAlign - 1) / kAlign * kAlign; }

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

// visit_parts for reading: each array views its section of the mapping.
struct PartsReader {
  pack::Reader& parts;
  std::span<const SectionEntry> entries;  // the columns' entries, in order
  std::span<const std::byte> file;
  std::shared_ptr<const void> keeper;
  std::size_t next = 0;
  std::string problem;
  template <class T>
  void column(graph::Column<T>& c) {
    const SectionEntry& e = entries[next];
    if (problem.empty() && (e.kind != kFirstColumnSection + next || e.element_bytes != sizeof(T)))
      problem = std::string("the section of the graph's ") + kColumnNames[next] + " is not where this version has it";
    if (problem.empty())
      c = graph::Column<T>::viewing(reinterpret_cast<const T*>(file.data() + e.offset), e.bytes / sizeof(T), keeper);
    ++next;
  }
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

core::InputError error_in(const std::string& path, const std::string& message, std::optional<std::uint64_t> at = {}) {
  return core::InputError{core::SourceLocation{path, 0, at}, message};
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
  parts(kept_records(trace.records));
  parts(trace.summary);
  parts(trace.profile_summary);
  parts(trace.findings);
  parts(trace.traced_facts);
  parts(trace.traced_machine);
  std::vector<SectionEntry> entries{{kPartsSection, 1, 0, 0, 0}};
  std::vector<const void*> data{nullptr};
  PartsWriter columns{parts, entries, data};
  trace.graph.visit_parts(columns);
  entries[0].bytes = parts.bytes().size();
  data[0] = parts.bytes().data();

  std::uint64_t at = aligned(sizeof(Header) + entries.size() * sizeof(SectionEntry));
  for (SectionEntry& e : entries) {
    e.offset = at;
    at = aligned(at + e.bytes);
  }
  tbb::parallel_for(std::size_t{0}, entries.size(), [&](std::size_t i) {
    entries[i].checksum = checksum(data[i], entries[i].bytes);
  });
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
  std::string open_error;
  auto mapped = platform::MappedFile::open(path, open_error);
  if (!mapped) return error_in(path, open_error);
  const std::span<const std::byte> file = mapped->bytes();
  const std::string size_text = std::to_string(file.size());
  if (file.size() < sizeof(Header))
    return error_in(path, "truncated: " + size_text + " bytes, fewer than a packed trace's header");
  Header h;
  std::memcpy(&h, file.data(), sizeof h);
  if (h.signature != kSignature) return error_in(path, "not a packed trace (its first bytes are not the signature)", 0);
  if (h.version != kPackedTraceVersion)
    return error_in(path, "a packed trace of format version " + std::to_string(h.version) + "; this realm-replay reads version " +
                              std::to_string(kPackedTraceVersion) + ": pack the trace again");
  if (h.byte_order != kByteOrderMark) return error_in(path, "a packed trace written on a machine of another byte order");
  if (h.header_checksum != checksum(&h, offsetof(Header, header_checksum)))
    return error_in(path, "damaged: the header's checksum does not match", 0);
  // The checksum covers bytes 0-39 only; the zero bytes after it are checked here, so that a later version can
  // give them a meaning without old files holding junk there.
  if (h.zero != decltype(h.zero){})
    return error_in(path, "damaged: header bytes 48-63 are not zero", offsetof(Header, zero));
  if (h.file_bytes != file.size())
    return error_in(path, std::string(file.size() < h.file_bytes ? "truncated" : "damaged") + ": the header says " +
                              std::to_string(h.file_bytes) + " bytes, the file has " + size_text);
  const std::uint64_t table_bytes = std::uint64_t{h.section_count} * sizeof(SectionEntry);
  if (h.section_count != 1 + kColumnNames.size() || sizeof(Header) + table_bytes > file.size())
    return error_in(path, "damaged: a table of " + std::to_string(h.section_count) + " sections, this version has " +
                              std::to_string(1 + kColumnNames.size()), sizeof(Header));
  std::vector<SectionEntry> entries(h.section_count);
  std::memcpy(entries.data(), file.data() + sizeof(Header), table_bytes);
  if (h.table_checksum != checksum(entries.data(), table_bytes))
    return error_in(path, "damaged: the section table's checksum does not match", sizeof(Header));
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const SectionEntry& e = entries[i];
    if (e.offset % kAlign != 0 || e.offset > file.size() || e.bytes > file.size() - e.offset || e.element_bytes == 0 ||
        e.bytes % e.element_bytes != 0)
      return error_in(path, "damaged: section " + std::to_string(i) + " lies outside the file", sizeof(Header) + i * sizeof(SectionEntry));
  }
  std::vector<std::uint8_t> intact(entries.size());
  tbb::parallel_for(std::size_t{0}, entries.size(), [&](std::size_t i) {
    intact[i] = checksum(file.data() + entries[i].offset, entries[i].bytes) == entries[i].checksum;
  });
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (!intact[i])
      return error_in(path, std::string("damaged: the checksum of ") +
                                (i == 0 ? "the trace's records and findings" : std::string("the graph's ") + kColumnNames[i - 1]) +
                                " does not match", entries[i].offset);

  if (entries[0].kind != kPartsSection) return error_in(path, "damaged: the first section is not the trace's records");
  PackedTrace t;
  pack::Reader parts(file.subspan(entries[0].offset, entries[0].bytes));
  PartsReader columns{parts, std::span(entries).subspan(1), file, mapped, 0, {}};
  try {
    parts(t.label);
    parts(t.nodes);
    parts(t.records);
    parts(t.summary);
    parts(t.profile_summary);
    parts(t.findings);
    parts(t.traced_facts);
    parts(t.traced_machine);
    t.graph.visit_parts(columns);
    if (!parts.done()) parts.fail("bytes after the last part");
  } catch (const pack::Undecodable& e) {
    return error_in(path, std::string("damaged: the trace's records and findings cannot be decoded: ") + e.what(), entries[0].offset);
  } catch (const std::bad_alloc&) {
    return error_in(path, "damaged: the trace's records and findings ask for more memory than there is", entries[0].offset);
  }
  if (std::string problem = records_problem(t); !problem.empty())
    return error_in(path, "damaged: the trace's records hold " + problem, entries[0].offset);
  if (!columns.problem.empty()) return error_in(path, "damaged: " + columns.problem);
  if (std::string problem = t.graph.structure_problem(); !problem.empty())
    return error_in(path, "damaged: the graph has " + problem);
  for (graph::VertexId v : t.findings.cycle)
    if (v >= t.graph.vertex_count()) return error_in(path, "damaged: the cycle found names no vertex");
  // The file holds the functions' names; their labels are derived from them, here as when the graph was built.
  t.graph.set_function_names(graph::FunctionNames(t.graph.function_names()));
  return t;
}

}  // namespace rr::packed
