// Section and block checksums: computed by the writer, checked whole or block by block by the readers.
#include "packed/src/block_checksums.hpp"

#include <tbb/parallel_for.h>
#include <xxhash.h>

#include <algorithm>
#include <atomic>

namespace rr::packed::detail {

using layout::blocks_of;
using layout::kBlockBytes;

std::uint64_t checksum(const void* data, std::size_t bytes) { return XXH3_64bits(data, bytes); }

namespace {

struct Block {
  std::size_t column;
  std::uint64_t index;  // within the column
};

std::vector<Block> all_blocks(std::span<const std::uint64_t> sizes) {
  std::vector<Block> blocks;
  for (std::size_t c = 0; c < sizes.size(); ++c)
    for (std::uint64_t b = 0; b < blocks_of(sizes[c]); ++b) blocks.push_back({c, b});
  return blocks;
}

std::uint64_t block_checksum(std::span<const std::byte> column, std::uint64_t block) {
  const std::uint64_t at = block * kBlockBytes;
  return checksum(column.data() + at, std::min<std::uint64_t>(kBlockBytes, column.size() - at));
}

}  // namespace

std::vector<std::uint64_t> block_checksums_of(std::span<const std::span<const std::byte>> columns) {
  std::vector<std::uint64_t> sizes, first{0};
  for (const auto& c : columns) {
    sizes.push_back(c.size());
    first.push_back(first.back() + blocks_of(c.size()));
  }
  const std::vector<Block> blocks = all_blocks(sizes);
  std::vector<std::uint64_t> sums(blocks.size());
  tbb::parallel_for(std::size_t{0}, blocks.size(), [&](std::size_t i) {
    sums[first[blocks[i].column] + blocks[i].index] = block_checksum(columns[blocks[i].column], blocks[i].index);
  });
  return sums;
}

std::optional<std::size_t> first_damaged_section(const OpenedFile& file) {
  const std::span<const std::byte> parts = file.section(0);
  if (checksum(parts.data(), parts.size()) != file.entries[0].checksum) return 0;
  std::vector<std::uint64_t> sizes;
  for (std::size_t c = 0; c < layout::kColumns; ++c) sizes.push_back(file.entries[layout::kFirstColumn + c].bytes);
  const std::vector<Block> blocks = all_blocks(sizes);
  std::atomic<std::size_t> first_bad{layout::kColumns};
  tbb::parallel_for(std::size_t{0}, blocks.size(), [&](std::size_t i) {
    const Block& b = blocks[i];
    if (block_checksum(file.section(layout::kFirstColumn + b.column), b.index) != file.block_checksums(b.column)[b.index]) {
      // The lowest damaged array is named, whichever thread finds it first.
      std::size_t seen = first_bad.load();
      while (b.column < seen && !first_bad.compare_exchange_weak(seen, b.column)) continue;
    }
  });
  if (first_bad.load() < layout::kColumns) return layout::kFirstColumn + first_bad.load();
  return std::nullopt;
}

bool BlockChecker::check(std::size_t column, std::uint64_t first, std::uint64_t bytes) {
  if (bytes == 0) return true;
  const std::span<const std::byte> data = file_.section(layout::kFirstColumn + column);
  std::vector<std::uint8_t>& checked = checked_[column];
  if (checked.empty()) checked.assign(blocks_of(data.size()), 0);
  std::uint64_t from = first / kBlockBytes;
  const std::uint64_t to = (first + bytes - 1) / kBlockBytes;
  while (from <= to && checked[from]) ++from;
  if (from > to) return true;  // the common case of a row read after its block: no call to the kernel
  // Whole blocks are read for their checksums: the kernel is asked for them at once, not only for the rows.
  const std::uint64_t ahead = from * kBlockBytes;
  file_.mapping->will_need(static_cast<std::size_t>(data.data() - file_.bytes.data() + ahead),
                           std::min<std::uint64_t>((to + 1) * kBlockBytes, data.size()) - ahead);
  for (std::uint64_t b = from; b <= to; ++b) {
    if (checked[b]) continue;
    if (block_checksum(data, b) != file_.block_checksums(column)[b]) return false;
    checked[b] = 1;
  }
  return true;
}

}  // namespace rr::packed::detail
