// A packed trace mapped, its header and section table checked, and its node index checked whole: what both
// readers (the whole trace, one rank's part of its graph) start from. The graph's arrays are not read here.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/diagnostics.hpp"
#include "core/result.hpp"
#include "graph/event_graph.hpp"
#include "packed/src/pack_layout.hpp"
#include "platform/mapped_file.hpp"

namespace rr::packed::detail {

struct OpenedFile {
  std::string path;
  std::shared_ptr<const platform::MappedFile> mapping;
  std::span<const std::byte> bytes;  // the whole file
  layout::Header header{};
  std::vector<layout::SectionEntry> entries;
  graph::VertexId vertices = 0;
  std::span<const layout::NodeEntry> node_entries;
  std::span<const layout::VertexRun> runs;
  // Where each graph array's block checksums start in the block checksums section, and one past the last column's.
  std::array<std::uint64_t, layout::kColumns + 1> first_block{};

  std::span<const std::byte> section(std::size_t i) const {
    return bytes.subspan(entries[i].offset, entries[i].bytes);
  }
  // Graph array `c` (visit order) as elements of T; its element size was checked against T's.
  template <class T>
  std::span<const T> column(std::size_t c) const {
    const std::span<const std::byte> s = section(layout::kFirstColumn + c);
    return {reinterpret_cast<const T*>(s.data()), s.size() / sizeof(T)};
  }
  std::span<const std::uint64_t> block_checksums(std::size_t c) const {
    const auto all = reinterpret_cast<const std::uint64_t*>(section(layout::kBlockChecksums).data());
    return {all + first_block[c], all + first_block[c + 1]};
  }
};

core::InputError error_in(const std::string& path, const std::string& message, std::optional<std::uint64_t> at = {});

// How the mapping is read ahead: all of it (the whole trace's reader checksums every page), or only the ranges a
// reader asks for (one rank's part).
enum class Reading { whole, parts };

// Maps `path` and checks, in order: the signature, the version, the byte order, the header's checksum, the size,
// the section table (count, checksum, every section inside the file and aligned, its kind and element size this
// version's), the checksums of the node index and of the block checksums, each graph array's checksum against its
// blocks', and the node index's structure (a partition of every vertex id: docs/packed-trace.md).
core::Expected<std::shared_ptr<const OpenedFile>> open_packed_file(const std::string& path, Reading reading);

}  // namespace rr::packed::detail
