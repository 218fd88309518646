// For tests and the fuzzer: recomputes every checksum of a packed trace held in memory (the graph arrays' blocks,
// sections, table, header) where its layout allows, so that a deliberate change reaches the decoder and the structure check
// instead of stopping at the first checksum. The layout is restated here from docs/packed-trace.md on purpose:
// a change to the format that the document does not follow breaks these tests.
#pragma once

#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

namespace rr::testing {

struct PackedSection {
  std::uint32_t kind;
  std::uint32_t element_bytes;
  std::uint64_t offset;
  std::uint64_t bytes;
  std::uint64_t checksum;
};

inline constexpr std::size_t kPackedHeaderBytes = 64;

inline std::uint32_t packed_section_count(const std::string& file) {
  std::uint32_t n = 0;
  if (file.size() >= kPackedHeaderBytes) std::memcpy(&n, file.data() + 24, sizeof n);
  return n;
}

// Section i's table entry (i < packed_section_count and the table inside the file).
inline PackedSection packed_section(const std::string& file, std::size_t i) {
  PackedSection s{};
  std::memcpy(&s, file.data() + kPackedHeaderBytes + i * sizeof s, sizeof s);
  return s;
}

inline constexpr std::uint32_t kFirstGraphArrayKind = 16, kLastGraphArrayKind = 34, kBlockChecksumsKind = 37;
inline constexpr std::uint64_t kChecksumBlockBytes = 64 * 1024;

// Recomputes the block checksums of the graph's arrays (kinds 16-34) where the block checksums section (kind 37)
// has room for them, and each array's checksum as that of its blocks' list; the other sections' checksums over
// their bytes, the block checksums' last.
inline void repair_packed_checksums(std::string& file) {
  if (file.size() < kPackedHeaderBytes) return;
  const std::uint64_t count = packed_section_count(file);
  if (count > (file.size() - kPackedHeaderBytes) / sizeof(PackedSection)) return;
  const auto inside = [&](const PackedSection& s) { return s.offset <= file.size() && s.bytes <= file.size() - s.offset; };
  const auto put = [&](std::size_t i, const PackedSection& s) {
    std::memcpy(file.data() + kPackedHeaderBytes + i * sizeof s, &s, sizeof s);
  };
  std::size_t blocks_section = count;
  for (std::size_t i = 0; i < count; ++i)
    if (packed_section(file, i).kind == kBlockChecksumsKind && inside(packed_section(file, i))) blocks_section = i;
  std::uint64_t next_block = 0;
  for (std::size_t i = 0; i < count; ++i) {
    PackedSection s = packed_section(file, i);
    if (!inside(s)) continue;
    if (s.kind < kFirstGraphArrayKind || s.kind > kLastGraphArrayKind || blocks_section == count) {
      if (s.kind == kBlockChecksumsKind) continue;  // last, once the arrays' blocks are in it
      s.checksum = XXH3_64bits(file.data() + s.offset, s.bytes);
      put(i, s);
      continue;
    }
    const PackedSection blocks = packed_section(file, blocks_section);
    const std::uint64_t n = (s.bytes + kChecksumBlockBytes - 1) / kChecksumBlockBytes;
    if (n > blocks.bytes / 8 || next_block > blocks.bytes / 8 - n) continue;
    char* list = file.data() + blocks.offset + next_block * 8;
    for (std::uint64_t b = 0; b < n; ++b) {
      const std::uint64_t at = b * kChecksumBlockBytes;
      const std::uint64_t sum = XXH3_64bits(file.data() + s.offset + at, std::min(kChecksumBlockBytes, s.bytes - at));
      std::memcpy(list + b * 8, &sum, 8);
    }
    s.checksum = XXH3_64bits(list, n * 8);
    put(i, s);
    next_block += n;
  }
  if (blocks_section < count) {
    PackedSection s = packed_section(file, blocks_section);
    s.checksum = XXH3_64bits(file.data() + s.offset, s.bytes);
    put(blocks_section, s);
  }
  const std::uint64_t table = XXH3_64bits(file.data() + kPackedHeaderBytes, count * sizeof(PackedSection));
  std::memcpy(file.data() + 32, &table, sizeof table);
  const std::uint64_t header = XXH3_64bits(file.data(), 40);
  std::memcpy(file.data() + 40, &header, sizeof header);
}

}  // namespace rr::testing
