// Test helper: Legion Prof logs built byte by byte (a header from lines, little-endian records), real logs
// decompressed and split into header and records, and reading from memory.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>

#include "parser/byte_source.hpp"
#include "parser/legion_prof_header.hpp"
#include "parser/legion_prof_reader.hpp"

namespace rr::testing {

// Little-endian record bytes, appended field by field.
class ProfBytes {
 public:
  ProfBytes& id(std::int32_t v) { return raw(&v, 4); }
  ProfBytes& u8(std::uint8_t v) { return raw(&v, 1); }
  ProfBytes& u32(std::uint32_t v) { return raw(&v, 4); }
  ProfBytes& u64(std::uint64_t v) { return raw(&v, 8); }
  ProfBytes& i64(std::int64_t v) { return raw(&v, 8); }
  ProfBytes& str(std::string_view s) {
    bytes_.append(s);
    bytes_.push_back('\0');
    return *this;
  }
  ProfBytes& raw(const void* p, std::size_t n) {
    bytes_.append(static_cast<const char*>(p), n);
    return *this;
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

// "FileType: BinaryLegionProf v: 1.0", the given type lines, the empty line.
inline std::string prof_header(std::initializer_list<std::string_view> lines) {
  std::string h = "FileType: BinaryLegionProf v: 1.0\n";
  for (auto l : lines) h.append(l).append("\n");
  return h + "\n";
}

// Reads a whole stream (decoded) into a string.
inline std::string read_all(parser::ByteSource& s) {
  std::string out;
  char buf[1 << 16];
  for (std::size_t n; (n = s.read(buf, sizeof buf)) > 0;) out.append(buf, n);
  return out;
}

inline std::string decompress_file(const std::string& path) {
  auto source = parser::open_decoded(parser::open_file(path));
  return read_all(*source);
}

// Serves bytes from memory, at most `step` per read, so that records straddle every possible refill.
class MemorySource final : public parser::ByteSource {
 public:
  explicit MemorySource(std::string data, std::size_t step = ~std::size_t{0}) : data_(std::move(data)), step_(step) {}
  std::size_t read(char* out, std::size_t size) override {
    const std::size_t n = std::min({size, step_, data_.size() - pos_});
    std::memcpy(out, data_.data() + pos_, n);
    pos_ += n;
    return n;
  }
  std::uint64_t stored_offset() const override { return pos_; }

 private:
  std::string data_;
  std::size_t step_;
  std::size_t pos_ = 0;
};

inline core::ProfileRecords read_prof_bytes(std::string data, parser::ProfReadOptions options = {},
                                            std::size_t step = ~std::size_t{0}) {
  MemorySource source(std::move(data), step);
  return parser::read_legion_prof(source, options);
}

// A real log split at the end of its header.
struct SplitLog {
  std::string header;
  std::string records;
};
inline SplitLog split_log(const std::string& decoded) {
  const std::size_t end = parser::find_prof_header_end(decoded);
  return {decoded.substr(0, end), decoded.substr(end)};
}

}  // namespace rr::testing
