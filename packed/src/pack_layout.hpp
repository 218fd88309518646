// The packed trace file's fixed layout (docs/packed-trace.md, Layout): the header, the section table's entries,
// the kinds of sections in their order, and the sizes both readers and the writer agree on.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "parser/trace_inputs.hpp"

namespace rr::packed::layout {

inline constexpr auto kSignature = parser::kPackedTraceSignature;  // where the parser recognises a packed file
inline constexpr std::uint32_t kByteOrderMark = 0x01020304;
inline constexpr std::uint64_t kAlign = 64;
// The graph's arrays are checksummed by blocks of this many bytes, so that a reader of one rank's part checks
// the pages it reads and no others (a 64 KiB block is 16 pages: its checksum costs 8 bytes).
inline constexpr std::uint64_t kBlockBytes = 64 * 1024;

// Section kinds, in the order the sections lie: the small parts, the graph's arrays (EventGraph::visit_parts
// order), the node index (its entries, then their runs of vertex ids), the graph's block checksums.
inline constexpr std::uint32_t kPartsSection = 1;
inline constexpr std::uint32_t kFirstColumnSection = 16;
inline constexpr std::uint32_t kNodeEntriesSection = 35;
inline constexpr std::uint32_t kVertexRunsSection = 36;
inline constexpr std::uint32_t kBlockChecksumsSection = 37;

// The graph's arrays, named in EventGraph::visit_parts order (for messages about a damaged one).
inline constexpr std::array<const char*, 19> kColumnNames = {
    "kinds",          "nodes",           "events",          "issuers",        "positions",
    "payloads",       "tasks",           "copies",          "barrier phases", "barrier values",
    "waits",          "issue fractions", "observed starts", "observed ends",  "external delays",
    "outside work",   "successor offsets", "successors",    "successor kinds"};
inline constexpr std::size_t kColumns = kColumnNames.size();
// Section numbers (places in the table).
inline constexpr std::size_t kFirstColumn = 1;
inline constexpr std::size_t kNodeEntries = kFirstColumn + kColumns;
inline constexpr std::size_t kVertexRuns = kNodeEntries + 1;
inline constexpr std::size_t kBlockChecksums = kVertexRuns + 1;
inline constexpr std::size_t kSections = kBlockChecksums + 1;
// Columns by their place in visit order.
inline constexpr std::size_t kKindsColumn = 0, kNodesColumn = 1, kEventsColumn = 2, kIssuersColumn = 3,
                             kPositionsColumn = 4, kPayloadsColumn = 5, kTasksColumn = 6, kCopiesColumn = 7,
                             kPhasesColumn = 8, kBarrierValuesColumn = 9, kWaitsColumn = 10, kOffsetsColumn = 16,
                             kSuccessorsColumn = 17, kSuccessorKindsColumn = 18;

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
  std::uint64_t checksum;  // of the bytes; of a graph array, of its blocks' checksums
};
static_assert(sizeof(SectionEntry) == 32);

// One node's vertices in the node index: its runs are runs[first_run, first_run + runs), ascending.
struct NodeEntry {
  std::uint32_t node;  // graph::kNoNode for the vertices without a node, last
  std::uint32_t first_run;
  std::uint32_t runs;
  std::uint32_t vertices;
  friend bool operator==(const NodeEntry&, const NodeEntry&) = default;
};
static_assert(sizeof(NodeEntry) == 16);

// Vertex ids [first, first + count).
struct VertexRun {
  std::uint32_t first;
  std::uint32_t count;
  friend bool operator==(const VertexRun&, const VertexRun&) = default;
};
static_assert(sizeof(VertexRun) == 8);

inline std::uint64_t aligned(std::uint64_t at) { return (at + kAlign - 1) / kAlign * kAlign; }
inline std::uint64_t blocks_of(std::uint64_t bytes) { return (bytes + kBlockBytes - 1) / kBlockBytes; }

// How a message names section i: "the trace's records and findings", "the graph's successors", ...
inline std::string section_name(std::size_t i) {
  if (i == 0) return "the trace's records and findings";
  if (i < kNodeEntries) return std::string("the graph's ") + kColumnNames[i - kFirstColumn];
  if (i == kNodeEntries) return "the graph's node index";
  if (i == kVertexRuns) return "the graph's vertex runs by node";
  return "the graph's block checksums";
}

}  // namespace rr::packed::layout
