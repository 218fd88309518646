// JSON text as RFC 8259 writes it: strings escaped (quote, backslash, control characters), integers exact.
#include "json_stream.hpp"

#include <charconv>
#include <stdexcept>

namespace rr::gen {

namespace {

constexpr std::size_t kFlushBytes = 1 << 20;

}  // namespace

JsonStream& JsonStream::open(char bracket, bool one_line, bool object) {
  before_value();
  buffer_.push_back(bracket);
  levels_.push_back(Level{one_line || (!levels_.empty() && levels_.back().one_line), object});
  return *this;
}

JsonStream& JsonStream::close(char bracket, bool object) {
  if (levels_.empty() || levels_.back().object != object || after_key_) throw std::logic_error("JsonStream: bad close");
  const Level level = levels_.back();
  levels_.pop_back();
  if (!level.empty && !level.one_line) new_line();
  buffer_.push_back(bracket);
  if (levels_.empty()) done_ = true;
  return *this;
}

JsonStream& JsonStream::key(std::string_view name) {
  if (levels_.empty() || !levels_.back().object || after_key_) throw std::logic_error("JsonStream: key outside an object");
  before_value(true);
  append_string(name);
  buffer_ += ": ";
  after_key_ = true;
  return *this;
}

JsonStream& JsonStream::value(std::string_view text) {
  before_value();
  append_string(text);
  return *this;
}

void JsonStream::append_string(std::string_view text) {
  buffer_.push_back('"');
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      buffer_.push_back('\\');
      buffer_.push_back(c);
    } else if (u < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      buffer_ += "\\u00";
      buffer_.push_back(kHex[u >> 4]);
      buffer_.push_back(kHex[u & 15]);
    } else {
      buffer_.push_back(c);
    }
  }
  buffer_.push_back('"');
}

// Separates a member or element from the one before it; a value in an object must follow its key.
void JsonStream::before_value(bool is_key) {
  if (done_) throw std::logic_error("JsonStream: value after the document's end");
  flush_if_full();  // between two tokens, so a document of any shape is written as it goes
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (levels_.empty()) return;
  Level& level = levels_.back();
  if (level.object && !is_key) throw std::logic_error("JsonStream: a value in an object without its key");
  if (!level.empty) buffer_.push_back(',');
  if (level.one_line) {
    if (!level.empty) buffer_.push_back(' ');
  } else {
    new_line();
  }
  level.empty = false;
}

void JsonStream::new_line() {
  buffer_.push_back('\n');
  buffer_.append(2 * levels_.size(), ' ');
}

void JsonStream::append_integer(std::int64_t v) {
  char digits[24];
  buffer_.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
}

void JsonStream::append_integer(std::uint64_t v) {
  char digits[24];
  buffer_.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
}

void JsonStream::flush_if_full() {
  if (buffer_.size() < kFlushBytes) return;
  out_.write(buffer_);
  buffer_.clear();
}

void JsonStream::finish() {
  if (!done_) throw std::logic_error("JsonStream: document not complete");
  buffer_.push_back('\n');
  out_.write(buffer_);
  buffer_.clear();
}

}  // namespace rr::gen
