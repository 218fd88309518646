// File reading and in-process decompression (zlib, liblzma, libzstd), streamed in fixed-size blocks.
#include "parser/byte_source.hpp"

#include <fcntl.h>
#include <lzma.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace rr::parser {
namespace {

class FileSource final : public ByteSource {
 public:
  explicit FileSource(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw SourceError(std::string("cannot open: ") + std::strerror(errno), 0);
    struct stat st {};
    if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
      ::close(fd_);
      throw SourceError("is a directory", 0);
    }
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  }
  ~FileSource() override { ::close(fd_); }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  std::size_t read(char* data, std::size_t size) override {
    for (;;) {
      ssize_t n = ::read(fd_, data, size);
      if (n >= 0) {
        offset_ += static_cast<std::uint64_t>(n);
        return static_cast<std::size_t>(n);
      }
      if (errno == EINTR) continue;
      throw SourceError(std::string("read error: ") + std::strerror(errno), offset_);
    }
  }
  std::uint64_t stored_offset() const override { return offset_; }

 private:
  int fd_ = -1;
  std::uint64_t offset_ = 0;
};

// Replays bytes already read from `inner` (for magic detection) before reading on.
class PeekedSource final : public ByteSource {
 public:
  PeekedSource(std::unique_ptr<ByteSource> inner, std::vector<char> head)
      : inner_(std::move(inner)), head_(std::move(head)) {}
  std::size_t read(char* data, std::size_t size) override {
    if (pos_ < head_.size()) {
      std::size_t n = std::min(size, head_.size() - pos_);
      std::memcpy(data, head_.data() + pos_, n);
      pos_ += n;
      return n;
    }
    return inner_->read(data, size);
  }
  std::uint64_t stored_offset() const override { return inner_->stored_offset() - (head_.size() - pos_); }

 private:
  std::unique_ptr<ByteSource> inner_;
  std::vector<char> head_;
  std::size_t pos_ = 0;
};

constexpr std::size_t kInBlock = 256 * 1024;

// Common buffering for the three decoders: refill the compressed input block from
// `inner_`, tracking how much of it the decoder has consumed.
class DecoderBase : public ByteSource {
 protected:
  explicit DecoderBase(std::unique_ptr<ByteSource> inner) : inner_(std::move(inner)), in_(kInBlock) {}
  // Ensures compressed input is available; returns false at the end of the stored stream.
  bool refill() {
    if (in_pos_ < in_len_) return true;
    in_len_ = inner_->read(in_.data(), in_.size());
    in_pos_ = 0;
    return in_len_ > 0;
  }
  std::uint64_t stored_offset() const override { return inner_->stored_offset() - (in_len_ - in_pos_); }

  std::unique_ptr<ByteSource> inner_;
  std::vector<char> in_;
  std::size_t in_pos_ = 0;
  std::size_t in_len_ = 0;
};

class GzipSource final : public DecoderBase {
 public:
  explicit GzipSource(std::unique_ptr<ByteSource> inner) : DecoderBase(std::move(inner)) {
    // 15 + 32: zlib or gzip header, detected automatically.
    if (inflateInit2(&z_, 15 + 32) != Z_OK) throw SourceError("gzip: cannot initialise zlib", 0);
  }
  ~GzipSource() override { inflateEnd(&z_); }

  std::size_t read(char* data, std::size_t size) override {
    z_.next_out = reinterpret_cast<Bytef*>(data);
    z_.avail_out = static_cast<uInt>(size);
    while (z_.avail_out == size) {
      bool have_input = refill();
      if (member_done_) {
        // A gzip file may hold several members; anything after a member must be another one.
        if (!have_input) return 0;
        inflateReset(&z_);
        member_done_ = false;
      }
      z_.next_in = reinterpret_cast<Bytef*>(in_.data() + in_pos_);
      z_.avail_in = static_cast<uInt>(in_len_ - in_pos_);
      int rc = inflate(&z_, Z_NO_FLUSH);
      in_pos_ = in_len_ - z_.avail_in;
      if (rc == Z_STREAM_END) {
        member_done_ = true;
      } else if (rc == Z_BUF_ERROR || (!have_input && z_.avail_out == size)) {
        // No progress and no more input: the member ended early.
        if (!have_input) throw SourceError("gzip: truncated stream (unexpected end of data)", stored_offset());
      } else if (rc != Z_OK) {
        throw SourceError(std::string("gzip: corrupt data (") + (z_.msg ? z_.msg : "inflate error") + ")",
                          stored_offset());
      }
    }
    return size - z_.avail_out;
  }

 private:
  z_stream z_{};
  bool member_done_ = false;
};

class XzSource final : public DecoderBase {
 public:
  explicit XzSource(std::unique_ptr<ByteSource> inner) : DecoderBase(std::move(inner)) {
    if (lzma_stream_decoder(&s_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      throw SourceError("xz: cannot initialise liblzma", 0);
  }
  ~XzSource() override { lzma_end(&s_); }

  std::size_t read(char* data, std::size_t size) override {
    if (finished_) return 0;
    s_.next_out = reinterpret_cast<uint8_t*>(data);
    s_.avail_out = size;
    while (s_.avail_out == size) {
      lzma_action action = LZMA_RUN;
      if (!refill()) action = LZMA_FINISH;
      s_.next_in = reinterpret_cast<const uint8_t*>(in_.data() + in_pos_);
      s_.avail_in = in_len_ - in_pos_;
      lzma_ret rc = lzma_code(&s_, action);
      in_pos_ = in_len_ - s_.avail_in;
      if (rc == LZMA_STREAM_END) {
        finished_ = true;
        break;
      }
      if (rc == LZMA_BUF_ERROR && action == LZMA_FINISH)
        throw SourceError("xz: truncated stream (unexpected end of data)", stored_offset());
      if (rc != LZMA_OK) throw SourceError(std::string("xz: corrupt data (") + describe(rc) + ")", stored_offset());
    }
    return size - s_.avail_out;
  }

 private:
  static const char* describe(lzma_ret rc) {
    switch (rc) {
      case LZMA_FORMAT_ERROR: return "not in .xz format";
      case LZMA_DATA_ERROR: return "data error";
      case LZMA_OPTIONS_ERROR: return "unsupported options";
      case LZMA_MEM_ERROR: return "out of memory";
      case LZMA_BUF_ERROR: return "truncated";
      default: return "decoder error";
    }
  }
  lzma_stream s_ = LZMA_STREAM_INIT;
  bool finished_ = false;
};

class ZstdSource final : public DecoderBase {
 public:
  explicit ZstdSource(std::unique_ptr<ByteSource> inner) : DecoderBase(std::move(inner)) {
    d_ = ZSTD_createDStream();
    if (d_ == nullptr) throw SourceError("zstd: cannot create decoder", 0);
  }
  ~ZstdSource() override { ZSTD_freeDStream(d_); }

  std::size_t read(char* data, std::size_t size) override {
    ZSTD_outBuffer out{data, size, 0};
    while (out.pos == 0) {
      bool have_input = refill();
      // Zero `pending_` means the last frame ended cleanly (or there was no data at all).
      if (!have_input && pending_ == 0) return 0;
      ZSTD_inBuffer in{in_.data(), have_input ? in_len_ : 0, have_input ? in_pos_ : 0};
      std::size_t rc = ZSTD_decompressStream(d_, &out, &in);
      if (have_input) in_pos_ = in.pos;
      if (ZSTD_isError(rc))
        throw SourceError(std::string("zstd: corrupt data (") + ZSTD_getErrorName(rc) + ")", stored_offset());
      pending_ = rc;
      // Data still buffered in the decoder is flushed above; no output and no input left means the frame is cut.
      if (!have_input && out.pos == 0)
        throw SourceError("zstd: truncated stream (unexpected end of data)", stored_offset());
    }
    return out.pos;
  }

 private:
  ZSTD_DStream* d_ = nullptr;
  std::size_t pending_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> open_file(const std::string& path) { return std::make_unique<FileSource>(path); }

core::Compression detect_compression(const unsigned char* h, std::size_t n) {
  if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b) return core::Compression::gzip;
  if (n >= 6 && h[0] == 0xfd && h[1] == '7' && h[2] == 'z' && h[3] == 'X' && h[4] == 'Z' && h[5] == 0)
    return core::Compression::xz;
  if (n >= 4 && h[0] == 0x28 && h[1] == 0xb5 && h[2] == 0x2f && h[3] == 0xfd) return core::Compression::zstd;
  // A zstd skippable frame (magic 0x184D2A50..5F, little endian): pzstd starts its files with one that holds
  // the frame sizes. The zstd decoder skips it.
  if (n >= 4 && (h[0] & 0xf0) == 0x50 && h[1] == 0x2a && h[2] == 0x4d && h[3] == 0x18) return core::Compression::zstd;
  return core::Compression::none;
}

std::unique_ptr<ByteSource> peek_head(std::unique_ptr<ByteSource> source, std::size_t size, std::string& head) {
  std::vector<char> bytes(size);
  std::size_t got = 0;
  while (got < size) {
    std::size_t n = source->read(bytes.data() + got, size - got);
    if (n == 0) break;
    got += n;
  }
  bytes.resize(got);
  head.assign(bytes.begin(), bytes.end());
  return std::make_unique<PeekedSource>(std::move(source), std::move(bytes));
}

std::unique_ptr<ByteSource> open_decoded(std::unique_ptr<ByteSource> raw, core::Compression* detected) {
  std::vector<char> head(6);
  std::size_t got = 0;
  while (got < head.size()) {
    std::size_t n = raw->read(head.data() + got, head.size() - got);
    if (n == 0) break;
    got += n;
  }
  head.resize(got);
  auto kind = detect_compression(reinterpret_cast<const unsigned char*>(head.data()), got);
  if (detected) *detected = kind;
  auto peeked = std::make_unique<PeekedSource>(std::move(raw), std::move(head));
  switch (kind) {
    case core::Compression::gzip: return std::make_unique<GzipSource>(std::move(peeked));
    case core::Compression::xz: return std::make_unique<XzSource>(std::move(peeked));
    case core::Compression::zstd: return std::make_unique<ZstdSource>(std::move(peeked));
    case core::Compression::none: break;
  }
  return peeked;
}

}  // namespace rr::parser
