// For tests and the fuzzer: recomputes every checksum of a packed trace held in memory (sections, table,
// header) where its layout allows, so that a deliberate change reaches the decoder and the structure check
// instead of stopping at the first checksum. The layout is restated here from docs/packed-trace.md on purpose:
// a change to the format that the document does not follow breaks these tests.
#pragma once

#include <xxhash.h>

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

inline void repair_packed_checksums(std::string& file) {
  if (file.size() < kPackedHeaderBytes) return;
  const std::uint64_t count = packed_section_count(file);
  if (count > (file.size() - kPackedHeaderBytes) / sizeof(PackedSection)) return;
  for (std::size_t i = 0; i < count; ++i) {
    PackedSection s = packed_section(file, i);
    if (s.offset > file.size() || s.bytes > file.size() - s.offset) continue;
    s.checksum = XXH3_64bits(file.data() + s.offset, s.bytes);
    std::memcpy(file.data() + kPackedHeaderBytes + i * sizeof s, &s, sizeof s);
  }
  const std::uint64_t table = XXH3_64bits(file.data() + kPackedHeaderBytes, count * sizeof(PackedSection));
  std::memcpy(file.data() + 32, &table, sizeof table);
  const std::uint64_t header = XXH3_64bits(file.data(), 40);
  std::memcpy(file.data() + 40, &header, sizeof header);
}

}  // namespace rr::testing
