// Reading one rank's part of a packed graph: its runs from the node index, its rows (part_rows.cpp), the part's
// structure, and on rank 0 the whole trace's findings.
#include "packed/packed_graph_part.hpp"

#include <algorithm>

#include "packed/src/opened_file.hpp"
#include "packed/src/pack_fields.hpp"
#include "packed/src/part_rows.hpp"

namespace rr::packed {

using namespace layout;
using detail::error_in;

core::Expected<MappedPackedTrace> MappedPackedTrace::open(const std::string& path) {
  auto file = detail::open_packed_file(path, detail::Reading::parts);
  if (!file) return file.error();
  return MappedPackedTrace(std::move(*file));
}

const std::string& MappedPackedTrace::path() const { return file_->path; }
graph::VertexId MappedPackedTrace::vertex_count() const { return file_->vertices; }

std::uint32_t MappedPackedTrace::graph_nodes() const {
  for (auto e = file_->node_entries.rbegin(); e != file_->node_entries.rend(); ++e)
    if (e->node != graph::kNoNode) return e->node + 1;
  return 0;
}

namespace {

// The whole trace's findings, which the small parts hold after the label and the node count. Only rank 0 reads them.
core::Expected<graph::GraphFindings> whole_findings(const detail::OpenedFile& file) {
  const std::span<const std::byte> parts = file.section(0);
  if (detail::checksum(parts.data(), parts.size()) != file.entries[0].checksum)
    return error_in(file.path, "damaged: the checksum of " + section_name(0) + " does not match", file.entries[0].offset);
  graph::GraphFindings findings;
  try {
    pack::Reader reader(parts);
    std::string label;
    std::uint32_t nodes = 0;
    reader(label);
    reader(nodes);
    reader(findings);
  } catch (const pack::Undecodable& e) {
    return error_in(file.path, std::string("damaged: the trace's records and findings cannot be decoded: ") + e.what(),
                    file.entries[0].offset);
  } catch (const std::bad_alloc&) {
    return error_in(file.path, "damaged: the trace's records and findings ask for more memory than there is", file.entries[0].offset);
  }
  for (graph::VertexId v : findings.cycle)
    if (v >= file.vertices) return error_in(file.path, "damaged: the cycle found names no vertex");
  return findings;
}

}  // namespace

core::Expected<graph::GraphPart> read_graph_part(const MappedPackedTrace& trace, const graph::NodeRanks& ranks,
                                                 std::uint32_t rank) {
  const detail::OpenedFile& file = trace.file();
  if (ranks.ranks == 0 || rank >= ranks.ranks)
    return error_in(file.path, "no rank " + std::to_string(rank) + " among " + std::to_string(ranks.ranks));
  // The index lists each node's runs ascending; this rank's nodes' runs, merged, give its ids ascending.
  std::vector<detail::OwnRun> own;
  std::uint64_t vertices = 0;
  for (const NodeEntry& e : file.node_entries) {
    if (ranks.rank_of(e.node) != rank) continue;
    for (std::uint32_t r = e.first_run; r < e.first_run + e.runs; ++r) own.push_back({file.runs[r], e.node});
    vertices += e.vertices;
  }
  std::sort(own.begin(), own.end(), [](const detail::OwnRun& a, const detail::OwnRun& b) { return a.run.first < b.run.first; });

  graph::GraphPart part;
  part.rank = rank;
  part.whole_vertices = file.vertices;
  for (auto* column : {&part.ids, &part.issuer, &part.position, &part.payload, &part.node}) column->reserve(vertices);
  part.kind.reserve(vertices);
  part.event.reserve(vertices);
  part.edge_offset.reserve(vertices + 1);
  part.edge_offset.push_back(0);
  detail::BlockChecker checker(file);
  try {
    for (const detail::OwnRun& r : own) detail::append_rows(file, checker, r, part);
    detail::append_payloads(file, checker, part);
  } catch (const detail::PartDamage& d) {
    return error_in(file.path, std::string("damaged: ") + d.what(), file.entries[d.section].offset);
  }
  if (std::string problem = part.structure_problem(); !problem.empty())
    return error_in(file.path, "damaged: the graph has " + problem);
  if (rank == 0) {
    auto findings = whole_findings(file);
    if (!findings) return findings.error();
    part.findings = std::move(*findings);
  }
  return part;
}

}  // namespace rr::packed
