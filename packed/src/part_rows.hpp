// Copying one rank's rows of a packed graph's arrays into its GraphPart: each range's blocks checked first (the
// kernel asked to read only them), the node column checked against the index, payload indices against their
// arrays. What the rows hold beyond that is checked on the part (GraphPart::structure_problem).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "graph/graph_part.hpp"
#include "packed/src/block_checksums.hpp"
#include "packed/src/opened_file.hpp"

namespace rr::packed::detail {

// What stops a part from being read, and the section where it was found.
struct PartDamage : std::runtime_error {
  PartDamage(std::size_t section, const std::string& what) : std::runtime_error(what), section(section) {}
  std::size_t section;
};

// A run of vertex ids of this rank, with the node the index lists it under.
struct OwnRun {
  layout::VertexRun run;
  std::uint32_t node;
};

// Appends the run's vertices (ids, kinds, nodes, events, issuers, positions, payloads) and the edges leaving them;
// runs must come in ascending id.
void append_rows(const OpenedFile& file, BlockChecker& checker, const OwnRun& own, graph::GraphPart& part);

// Once every run is appended: each vertex's payload entry, by kind, into the part's arrays (local_payload).
void append_payloads(const OpenedFile& file, BlockChecker& checker, graph::GraphPart& part);

}  // namespace rr::packed::detail
