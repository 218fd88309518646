// The compressors behind CompressedOutput: zlib (gzip framing), liblzma (xz) and libzstd, each streamed in 64 KiB
// pieces into a platform::OutputTarget.
#include "compressed_output.hpp"

#include "platform/output_target.hpp"

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace rr::gen {

namespace fs = std::filesystem;

class CompressedOutput::Encoder {
 public:
  Encoder(fs::path path, Compression c) : path_(std::move(path)), c_(c) {
    if (auto err = target_.open(path_.string()); !err.empty()) throw std::runtime_error(err);
    if (c_ == Compression::zstd) {
      zstd_ = ZSTD_createCCtx();
      ZSTD_CCtx_setParameter(zstd_, ZSTD_c_compressionLevel, 3);
      // Frames carry their content checksum, as the zstd tool writes them: a damaged file is then detected.
      ZSTD_CCtx_setParameter(zstd_, ZSTD_c_checksumFlag, 1);
    } else if (c_ == Compression::gzip) {
      if (deflateInit2(&z_, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) fail("cannot initialise zlib");
    } else if (c_ == Compression::xz) {
      if (lzma_easy_encoder(&xz_, 6, LZMA_CHECK_CRC64) != LZMA_OK) fail("cannot initialise liblzma");
    }
  }
  Encoder(const Encoder&) = delete;
  Encoder& operator=(const Encoder&) = delete;
  ~Encoder() {
    if (zstd_) ZSTD_freeCCtx(zstd_);
    if (c_ == Compression::gzip) deflateEnd(&z_);
    if (c_ == Compression::xz) lzma_end(&xz_);
  }

  void write(std::string_view text) { encode(text, false); }

  // Ends the stream and moves the file into place.
  void commit() {
    encode({}, true);
    if (auto err = target_.commit(); !err.empty()) throw std::runtime_error(err);
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw std::runtime_error(path_.string() + ": " + why); }

  void put(const void* data, std::size_t n) {
    if (n && !target_.write(std::string_view(static_cast<const char*>(data), n)))
      fail(std::string("cannot write: ") + std::strerror(errno));
  }

  void encode(std::string_view text, bool last) {
    if (c_ == Compression::none) return put(text.data(), text.size());
    std::array<char, 1 << 16> out;
    if (c_ == Compression::zstd) {
      ZSTD_inBuffer in{text.data(), text.size(), 0};
      for (;;) {
        ZSTD_outBuffer o{out.data(), out.size(), 0};
        const std::size_t left = ZSTD_compressStream2(zstd_, &o, &in, last ? ZSTD_e_end : ZSTD_e_continue);
        if (ZSTD_isError(left)) fail(std::string("zstd: ") + ZSTD_getErrorName(left));
        put(out.data(), o.pos);
        if (last ? left == 0 : in.pos == in.size) break;
      }
    } else if (c_ == Compression::gzip) {
      z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
      z_.avail_in = static_cast<uInt>(text.size());
      for (;;) {
        z_.next_out = reinterpret_cast<Bytef*>(out.data());
        z_.avail_out = static_cast<uInt>(out.size());
        const int rc = deflate(&z_, last ? Z_FINISH : Z_NO_FLUSH);
        if (rc == Z_STREAM_ERROR) fail("gzip compression failed");
        put(out.data(), out.size() - z_.avail_out);
        if (last ? rc == Z_STREAM_END : z_.avail_in == 0 && z_.avail_out != 0) break;
      }
    } else {
      xz_.next_in = reinterpret_cast<const std::uint8_t*>(text.data());
      xz_.avail_in = text.size();
      for (;;) {
        xz_.next_out = reinterpret_cast<std::uint8_t*>(out.data());
        xz_.avail_out = out.size();
        const lzma_ret rc = lzma_code(&xz_, last ? LZMA_FINISH : LZMA_RUN);
        if (rc != LZMA_OK && rc != LZMA_STREAM_END) fail("xz compression failed");
        put(out.data(), out.size() - xz_.avail_out);
        if (last ? rc == LZMA_STREAM_END : xz_.avail_in == 0 && xz_.avail_out != 0) break;
      }
    }
  }

  fs::path path_;
  Compression c_;
  platform::OutputTarget target_;
  ZSTD_CCtx* zstd_ = nullptr;
  z_stream z_{};
  lzma_stream xz_ = LZMA_STREAM_INIT;
};

const char* extension(Compression c) {
  switch (c) {
    case Compression::gzip: return ".gz";
    case Compression::xz: return ".xz";
    case Compression::zstd: return ".zst";
    case Compression::none: break;
  }
  return "";
}

CompressedOutput::CompressedOutput(fs::path path, Compression compression)
    : encoder_(std::make_unique<Encoder>(std::move(path), compression)) {}
CompressedOutput::~CompressedOutput() = default;
void CompressedOutput::write(std::string_view text) { encoder_->write(text); }
void CompressedOutput::commit() { encoder_->commit(); }

}  // namespace rr::gen
