// Counted problems and located messages: what went wrong, where, how often.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// Why a line is skipped without being an error.
enum class SkipReason : std::uint8_t {
  blank,
  other_category,  // a {n}{category} logger line of a category other than graph
  pending_dump,    // the unprefixed PRINTING ALL PENDING EVENTS ... DONE block (E2c)
  unprefixed_text, // any other text without the logger prefix
};
inline constexpr std::size_t kSkipReasonCount = 4;
std::string_view skip_reason_key(SkipReason r);

// Why a {graph} line (or an unprefixed record line) could not be used.
enum class MalformedReason : std::uint8_t {
  bad_prefix,            // looks like a logger line but the [node - thread] {level}{cat} prefix is broken
  unknown_record,        // {graph} line whose record name is none of the 14
  bad_fields,            // the record's fields do not match its format
  group_count_mismatch,  // Group announces n members but lists another number
  value_out_of_range,    // a number does not fit the field (e.g. arglen > 2^32)
  line_too_long,         // longer than the reader's line limit
  binary_data,           // a NUL byte inside the line
};
inline constexpr std::size_t kMalformedReasonCount = 7;
std::string_view malformed_reason_key(MalformedReason r);

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
