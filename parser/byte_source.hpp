// Streaming byte sources: plain files and in-process gzip/xz/zstd decoders, detected from the first bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/trace_records.hpp"

namespace rr::parser {

// Thrown by sources on unreadable or corrupt input; `offset` is the byte offset
// in the stored (compressed) stream where the problem was noticed. Readers of
// binary formats also give the offset in the decompressed stream, which is the
// one that locates a record.
class SourceError : public std::runtime_error {
 public:
  SourceError(std::string message, std::uint64_t offset)
      : std::runtime_error(std::move(message)), offset_(offset) {}
  SourceError(std::string message, std::uint64_t offset, std::uint64_t decoded_offset)
      : std::runtime_error(std::move(message)), offset_(offset), decoded_offset_(decoded_offset) {}
  std::uint64_t offset() const { return offset_; }
  std::optional<std::uint64_t> decoded_offset() const { return decoded_offset_; }

 private:
  std::uint64_t offset_;
  std::optional<std::uint64_t> decoded_offset_;
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to `size` bytes; returns 0 only at the end of the stream. Throws SourceError.
  virtual std::size_t read(char* data, std::size_t size) = 0;
  // Bytes consumed from the underlying stored stream so far.
  virtual std::uint64_t stored_offset() const = 0;
};

// Opens a file for reading; throws SourceError naming the reason (errno text).
std::unique_ptr<ByteSource> open_file(const std::string& path);

// Wraps `raw` in the decoder its first bytes call for (gzip 1f 8b, xz fd 37 7a 58 5a 00,
// zstd 28 b5 2f fd), or passes it through. Concatenated members/frames are all decoded.
std::unique_ptr<ByteSource> open_decoded(std::unique_ptr<ByteSource> raw, core::Compression* detected = nullptr);

core::Compression detect_compression(const unsigned char* head, std::size_t size);

// Reads up to `size` bytes from the start of `source` into `head` and returns a source that yields them
// again before the rest: a format can be decided from the first bytes of a stream that cannot rewind.
std::unique_ptr<ByteSource> peek_head(std::unique_ptr<ByteSource> source, std::size_t size, std::string& head);

}  // namespace rr::parser
