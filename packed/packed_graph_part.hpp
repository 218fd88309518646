// One rank's part of a packed trace's graph, read alone (docs/packed-trace.md, "Reading one rank's part"): the node
// index gives the rank's vertices as runs of ids, and only those rows of the graph's arrays, the payloads they name
// and the edges leaving them are read (each 64 KiB block checked on first use), with the index itself. The part is
// what graph::build_graph_part gives from the logs: the whole graph restricted to the vertices whose node the rank
// replays (graph::NodeRanks), ids ascending, edges in the whole graph's order.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/result.hpp"
#include "graph/graph_part.hpp"
#include "machine_models/traced_machine.hpp"

namespace rr::packed {

namespace detail {
struct OpenedFile;
}

// A packed trace mapped for reading parts of its graph: its header, section table and node index are checked
// (checksums, and the index a partition of the vertex ids); no array of the graph is read yet, and the kernel is
// told to read ahead only what a part asks for.
class MappedPackedTrace {
 public:
  // An InputError naming the file and the damaged part, as read_packed_trace gives it.
  static core::Expected<MappedPackedTrace> open(const std::string& path);

  const std::string& path() const;
  graph::VertexId vertex_count() const;
  // One past the largest node a vertex has (vertices without a node aside); 0 for a graph without nodes.
  std::uint32_t graph_nodes() const;
  const detail::OpenedFile& file() const { return *file_; }

 private:
  explicit MappedPackedTrace(std::shared_ptr<const detail::OpenedFile> file) : file_(std::move(file)) {}
  std::shared_ptr<const detail::OpenedFile> file_;
};

// Rank `rank`'s part under `ranks`: the vertices whose node ranks.rank_of gives it (those without a node to rank 0),
// every column of GraphPart, out-edges in the whole graph's order. Rank 0 takes the whole trace's findings from the
// file, the others none, so that summed over ranks they are the whole's; traffic is zero (nothing was exchanged).
// A damaged or crafted file is an InputError naming the file and the section: a block whose checksum does not
// match, rows under a node they do not have, or a part that is unsafe to walk (GraphPart::structure_problem).
// Of the index, a vertex of this rank's nodes listed under another rank's node is that rank's to find: each rank
// checks the node of every vertex it is given.
core::Expected<graph::GraphPart> read_graph_part(const MappedPackedTrace& trace, const graph::NodeRanks& ranks,
                                                 std::uint32_t rank);

// What a rank needs of a packed trace beside its part: the trace's label, the records of every file (their machine
// records, which the machine map is built from, counts and statistics: the graph's records were never packed), the
// whole trace's findings and its functions' names, its traced nodes and its traced machine's facts and fit
// (PackedTrace's). Read from the small parts alone (checked whole), no array of the graph. A damaged file is an
// InputError naming it, as read_packed_trace gives it.
struct PackedTraceContext {
  std::string label;
  core::TraceRecords records;
  graph::GraphFindings findings;
  graph::FunctionNames function_names;
  std::uint32_t nodes = 0;
  machine::TracedFacts traced_facts;
  std::optional<std::string> traced_machine;
};
core::Expected<PackedTraceContext> read_packed_context(const MappedPackedTrace& trace);

}  // namespace rr::packed
