// Located messages and counts by enum: what went wrong, where, how often (what is counted: core/stats.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stats.hpp"

namespace rr::core {

// Where something happened in an input: a file, and a line or a byte offset.
struct SourceLocation {
  std::string file;
  std::uint64_t line = 0;                     // 1-based; 0 when not applicable
  std::optional<std::uint64_t> byte_offset;  // offset in the file as stored (compressed bytes)
  // Offset in the decompressed stream, for binary formats whose records have no line: a compressed
  // offset would not find a record, the decompressed one does.
  std::optional<std::uint64_t> decoded_offset = std::nullopt;
};

// "file:line: message", "file: byte N: message" or "file: byte N of the uncompressed data: message".
std::string format_location(const SourceLocation& where);

// A message about one place, with the offending line quoted when there is one.
struct Diagnostic {
  Stat stat{};  // what it is counted as: set where it is counted
  SourceLocation where;
  std::string message;
  std::string quote;  // the line (shortened), empty when not applicable
};
std::string format_diagnostic(const Diagnostic& d);

// An unrecoverable input error (a file that cannot be read as a trace).
struct InputError {
  SourceLocation where;
  std::string message;
  std::string to_string() const { return format_location(where) + ": " + message; }
};

template <typename Enum, std::size_t N>
struct EnumCounts {
  std::array<std::uint64_t, N> values{};
  std::uint64_t& operator[](Enum e) { return values[static_cast<std::size_t>(e)]; }
  std::uint64_t operator[](Enum e) const { return values[static_cast<std::size_t>(e)]; }
  std::uint64_t total() const {
    std::uint64_t t = 0;
    for (auto v : values) t += v;
    return t;
  }
  EnumCounts& operator+=(const EnumCounts& o) {
    for (std::size_t i = 0; i < N; ++i) values[i] += o.values[i];
    return *this;
  }
};

}  // namespace rr::core
