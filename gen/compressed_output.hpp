// A file written through a streaming compressor (gzip, xz, zstd or none), whole or not at all.
#pragma once

#include <filesystem>
#include <memory>
#include <string_view>

namespace rr::gen {

enum class Compression { none, gzip, xz, zstd };

// The file name ending a compression adds: ".gz", ".xz", ".zst" or "".
const char* extension(Compression compression);

// Bytes go through the compressor into a temporary file that commit() renames into place; a file never committed
// (an exception, a signal) is removed, so a failed run leaves no partial file behind. Errors throw
// std::runtime_error naming the file.
class CompressedOutput {
 public:
  CompressedOutput(std::filesystem::path path, Compression compression);
  CompressedOutput(const CompressedOutput&) = delete;
  CompressedOutput& operator=(const CompressedOutput&) = delete;
  ~CompressedOutput();

  void write(std::string_view text);
  // Ends the stream and moves the file into place.
  void commit();

 private:
  class Encoder;
  std::unique_ptr<Encoder> encoder_;
};

}  // namespace rr::gen
