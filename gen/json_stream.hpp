// Streams one JSON document to a file as it is produced, so a truth of millions of operations never exists as a
// whole document in memory.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compressed_output.hpp"

namespace rr::gen {

// A container opened `one_line` keeps its members on one line ({"a": 1, "b": 2}); the others put each member on a
// line of its own, indented by two spaces per level. Misuse (a value where a key is due, a container closed that
// is not open) throws std::logic_error: it is a bug in the caller, never bad input.
class JsonStream {
 public:
  explicit JsonStream(CompressedOutput& out) : out_(out) {}

  JsonStream& begin_object(bool one_line = false) { return open('{', one_line, true); }
  JsonStream& end_object() { return close('}', true); }
  JsonStream& begin_array(bool one_line = false) { return open('[', one_line, false); }
  JsonStream& end_array() { return close(']', false); }
  JsonStream& key(std::string_view name);
  JsonStream& value(std::string_view text);  // a string, escaped
  JsonStream& value(const char* text) { return value(std::string_view(text)); }
  template <std::integral Int>
  JsonStream& value(Int number) {
    before_value();
    append_integer(static_cast<std::conditional_t<std::is_signed_v<Int>, std::int64_t, std::uint64_t>>(number));
    return *this;
  }
  template <class Value>
  JsonStream& member(std::string_view name, const Value& v) {
    key(name);
    return value(v);
  }
  // Writes what is buffered, after the document is complete, with a final newline.
  void finish();

 private:
  struct Level {
    bool one_line;
    bool object;
    bool empty = true;
  };
  JsonStream& open(char bracket, bool one_line, bool object);
  JsonStream& close(char bracket, bool object);
  void before_value(bool is_key = false);
  void new_line();
  void append_string(std::string_view text);
  void append_integer(std::int64_t v);
  void append_integer(std::uint64_t v);
  void flush_if_full();

  CompressedOutput& out_;
  std::vector<Level> levels_;
  std::string buffer_;
  bool after_key_ = false;
  bool done_ = false;
};

}  // namespace rr::gen
