// Opening a packed trace: the header, the section table and the node index, checked before either reader reads an
// array of the graph.
#include "packed/src/opened_file.hpp"

#include <cstring>

#include "packed/packed_trace.hpp"
#include "packed/src/block_checksums.hpp"
#include "packed/src/node_index.hpp"

namespace rr::packed::detail {

using namespace layout;

namespace {

// Each graph array's element size in this build, in visit order.
struct ElementSizes {
  std::vector<std::uint32_t> sizes;
  template <class T>
  void column(const graph::Column<T>&) {
    sizes.push_back(sizeof(T));
  }
  template <class T>
  void value(const T&) {}
};

std::uint32_t expected_kind(std::size_t i) {
  if (i == 0) return kPartsSection;
  if (i < kNodeEntries) return kFirstColumnSection + static_cast<std::uint32_t>(i - kFirstColumn);
  return i == kNodeEntries ? kNodeEntriesSection : i == kVertexRuns ? kVertexRunsSection : kBlockChecksumsSection;
}

std::uint32_t expected_element_bytes(std::size_t i) {
  static const std::vector<std::uint32_t> columns = [] {
    ElementSizes s;
    graph::EventGraph().visit_parts(s);
    return s.sizes;
  }();
  if (i == 0) return 1;
  if (i < kNodeEntries) return columns[i - kFirstColumn];
  return i == kNodeEntries ? sizeof(NodeEntry) : i == kVertexRuns ? sizeof(VertexRun) : sizeof(std::uint64_t);
}

// What is wrong and at which byte of the file, if it is known; no message: nothing is.
struct Problem {
  std::string message;
  std::optional<std::uint64_t> at = std::nullopt;
};

// The header and the file's size.
Problem header_problem(const Header& h, std::uint64_t file_bytes) {
  if (h.signature != kSignature) return {"not a packed trace (its first bytes are not the signature)", 0};
  if (h.version != kPackedTraceVersion)
    return {"a packed trace of format version " + std::to_string(h.version) + "; this realm-replay reads version " +
            std::to_string(kPackedTraceVersion) + ": pack the trace again"};
  if (h.byte_order != kByteOrderMark) return {"a packed trace written on a machine of another byte order"};
  if (h.header_checksum != checksum(&h, offsetof(Header, header_checksum)))
    return {"damaged: the header's checksum does not match", 0};
  // The checksum covers bytes 0-39 only; the zero bytes after it are checked here, so that a later version can
  // give them a meaning without old files holding junk there.
  if (h.zero != decltype(h.zero){}) return {"damaged: header bytes 48-63 are not zero", offsetof(Header, zero)};
  if (h.file_bytes != file_bytes)
    return {std::string(file_bytes < h.file_bytes ? "truncated" : "damaged") + ": the header says " +
            std::to_string(h.file_bytes) + " bytes, the file has " + std::to_string(file_bytes)};
  return {};
}

// Every section inside the file, aligned, of this version's kind and element size.
Problem table_problem(const OpenedFile& f) {
  for (std::size_t i = 0; i < f.entries.size(); ++i) {
    const SectionEntry& e = f.entries[i];
    const std::uint64_t at = sizeof(Header) + i * sizeof(SectionEntry);
    if (e.offset % kAlign != 0 || e.offset > f.bytes.size() || e.bytes > f.bytes.size() - e.offset ||
        e.element_bytes == 0 || e.bytes % e.element_bytes != 0)
      return {"damaged: section " + std::to_string(i) + " lies outside the file", at};
    if (e.kind != expected_kind(i) || e.element_bytes != expected_element_bytes(i))
      return {"damaged: the section of " + section_name(i) + " is not where this version has it", at};
  }
  return {};
}

// The checksums of what opening reads: the node index and the block checksums, and each array's checksum of its
// blocks' list. Also sets where each array's blocks start.
Problem checksums_problem(OpenedFile& f) {
  for (std::size_t i : {kNodeEntries, kVertexRuns, kBlockChecksums}) {
    const std::span<const std::byte> s = f.section(i);
    if (checksum(s.data(), s.size()) != f.entries[i].checksum)
      return {"damaged: the checksum of " + section_name(i) + " does not match", f.entries[i].offset};
  }
  for (std::size_t c = 0; c < kColumns; ++c)
    f.first_block[c + 1] = f.first_block[c] + blocks_of(f.entries[kFirstColumn + c].bytes);
  if (f.first_block[kColumns] * sizeof(std::uint64_t) != f.entries[kBlockChecksums].bytes)
    return {"damaged: " + section_name(kBlockChecksums) + " do not list every block of the graph's arrays"};
  for (std::size_t c = 0; c < kColumns; ++c) {
    const std::span<const std::uint64_t> blocks = f.block_checksums(c);
    if (checksum(blocks.data(), blocks.size_bytes()) != f.entries[kFirstColumn + c].checksum)
      return {"damaged: the checksum of " + section_name(kFirstColumn + c) + " does not match",
              f.entries[kFirstColumn + c].offset};
  }
  return {};
}

// The lengths a reader indexes the per-vertex arrays and the edges by, before it reads any of them.
std::string lengths_problem(const OpenedFile& f) {
  const std::uint64_t n = f.vertices;
  for (std::size_t c : {kNodesColumn, kEventsColumn, kIssuersColumn, kPositionsColumn, kPayloadsColumn})
    if (f.entries[kFirstColumn + c].bytes / f.entries[kFirstColumn + c].element_bytes != n)
      return "a per-vertex array whose length is not the vertex count";
  const std::uint64_t offsets = f.entries[kFirstColumn + kOffsetsColumn].bytes / sizeof(graph::EdgeOffset);
  const std::uint64_t edges = f.entries[kFirstColumn + kSuccessorsColumn].bytes / sizeof(graph::VertexId);
  if (offsets != n + 1) return "successor offsets that do not cover every vertex";
  if (edges != f.entries[kFirstColumn + kSuccessorKindsColumn].bytes / sizeof(graph::EdgeKind))
    return "successor offsets that do not add up to the edge count";
  return {};
}

}  // namespace

core::InputError error_in(const std::string& path, const std::string& message, std::optional<std::uint64_t> at) {
  return core::InputError{core::SourceLocation{path, 0, at}, message};
}

core::Expected<std::shared_ptr<const OpenedFile>> open_packed_file(const std::string& path, Reading reading) {
  auto f = std::make_shared<OpenedFile>();
  f->path = path;
  std::string open_error;
  f->mapping = platform::MappedFile::open(path, open_error,
                                          reading == Reading::whole ? platform::MappedFile::Advice::read_all
                                                                    : platform::MappedFile::Advice::read_ranges);
  if (!f->mapping) return error_in(path, open_error);
  f->bytes = f->mapping->bytes();
  if (f->bytes.size() < sizeof(Header))
    return error_in(path, "truncated: " + std::to_string(f->bytes.size()) + " bytes, fewer than a packed trace's header");
  std::memcpy(&f->header, f->bytes.data(), sizeof(Header));
  if (const Problem p = header_problem(f->header, f->bytes.size()); !p.message.empty()) return error_in(path, p.message, p.at);
  const std::uint64_t table_bytes = std::uint64_t{f->header.section_count} * sizeof(SectionEntry);
  if (f->header.section_count != kSections || sizeof(Header) + table_bytes > f->bytes.size())
    return error_in(path, "damaged: a table of " + std::to_string(f->header.section_count) + " sections, this version has " +
                              std::to_string(kSections), sizeof(Header));
  f->entries.resize(kSections);
  std::memcpy(f->entries.data(), f->bytes.data() + sizeof(Header), table_bytes);
  if (f->header.table_checksum != checksum(f->entries.data(), table_bytes))
    return error_in(path, "damaged: the section table's checksum does not match", sizeof(Header));
  if (const Problem p = table_problem(*f); !p.message.empty()) return error_in(path, p.message, p.at);
  if (const Problem p = checksums_problem(*f); !p.message.empty()) return error_in(path, p.message, p.at);

  const std::uint64_t vertices = f->entries[kFirstColumn + kKindsColumn].bytes;
  if (vertices >= graph::kNoVertex) return error_in(path, "damaged: more vertices than a vertex id can number");
  f->vertices = static_cast<graph::VertexId>(vertices);
  if (std::string problem = lengths_problem(*f); !problem.empty()) return error_in(path, "damaged: the graph has " + problem);
  const std::span<const std::byte> entries = f->section(kNodeEntries), runs = f->section(kVertexRuns);
  f->node_entries = {reinterpret_cast<const NodeEntry*>(entries.data()), entries.size() / sizeof(NodeEntry)};
  f->runs = {reinterpret_cast<const VertexRun*>(runs.data()), runs.size() / sizeof(VertexRun)};
  if (std::string problem = index_problem(f->node_entries, f->runs, vertices); !problem.empty())
    return error_in(path, "damaged: " + section_name(kNodeEntries) + ": " + problem, f->entries[kNodeEntries].offset);
  return std::shared_ptr<const OpenedFile>(std::move(f));
}

}  // namespace rr::packed::detail
