// Checksums of a packed trace's sections (XXH3-64). The graph's arrays are checksummed by blocks of
// layout::kBlockBytes, listed in the block checksums section, and each array's own checksum is that of its list:
// the whole trace's reader checks every block, one rank's reader only the blocks it reads.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "packed/src/opened_file.hpp"

namespace rr::packed::detail {

std::uint64_t checksum(const void* data, std::size_t bytes);

// The blocks' checksums of each array in turn, concatenated (in parallel; the same bytes at any thread count).
std::vector<std::uint64_t> block_checksums_of(std::span<const std::span<const std::byte>> columns);

// The first section (its place in the table) whose bytes do not match their checksums: the small parts, then the
// graph's arrays block by block (the node index and the block checksums were checked on opening); none: all match.
std::optional<std::size_t> first_damaged_section(const OpenedFile& file);

// One rank's reads of the graph's arrays: each block is checked the first time a read reaches it, after the kernel
// is asked to read the bytes ahead.
class BlockChecker {
 public:
  explicit BlockChecker(const OpenedFile& file) : file_(file) {}
  // Bytes [first, first + bytes) of array `column` (visit order), inside it; false when a block they lie in is damaged.
  bool check(std::size_t column, std::uint64_t first, std::uint64_t bytes);
  // The same for elements [first, first + count) of an array of T.
  template <class T>
  bool check_rows(std::size_t column, std::uint64_t first, std::uint64_t count) {
    return check(column, first * sizeof(T), count * sizeof(T));
  }

 private:
  const OpenedFile& file_;
  std::array<std::vector<std::uint8_t>, layout::kColumns> checked_;  // per block: 0 not yet, 1 good
};

}  // namespace rr::packed::detail
