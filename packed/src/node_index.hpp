// The node index of a packed trace (version 6): for each graph node (EventGraph::node) its vertices as ascending
// runs of consecutive ids, so that a reader finds one rank's vertices without reading the node of every vertex.
// Runs are the common case: the vertices of one node's file are numbered together, and only barrier phases and
// task resumes, numbered after every file's records, interleave nodes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "packed/src/pack_layout.hpp"

namespace rr::packed::detail {

struct NodeIndex {
  std::vector<layout::NodeEntry> entries;  // by ascending node, graph::kNoNode last
  std::vector<layout::VertexRun> runs;     // each entry's runs together, ascending, maximal
};

// The index of a graph whose vertices have these nodes. Serial, so the same graph gives the same bytes.
NodeIndex index_by_node(std::span<const std::uint32_t> nodes);

// What makes the index other than a partition of ids [0, vertices) by node, without reading the nodes: entries
// in ascending node whose runs follow on and add up to their vertex count, each run inside the graph and after
// the one before, and all runs together covering every id once. Empty when there is none.
std::string index_problem(std::span<const layout::NodeEntry> entries, std::span<const layout::VertexRun> runs,
                          std::uint64_t vertices);

// The first vertex of `entry`'s runs whose node is not the entry's, or "" (the runs are known to be inside `nodes`).
std::string disagreement(const layout::NodeEntry& entry, std::span<const layout::VertexRun> runs,
                         std::span<const std::uint32_t> nodes);

}  // namespace rr::packed::detail
