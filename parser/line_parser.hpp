// Classifies one log line and parses {graph} records (all 14 kinds) into a RecordBatch.
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/trace_records.hpp"

namespace rr::parser {

// Lines longer than this are counted as malformed without being parsed; it bounds
// the reader's buffer on binary or garbled input. Real lines are < 1 KiB (docs/realm-log-format.md, Files and lines).
inline constexpr std::size_t kMaxLineBytes = 1 << 20;

// Parses the lines of one chunk. Locations in messages and `line` fields of
// records are relative to the chunk (0 = the chunk's first line); the reader
// adds the chunk's first line number when it merges the chunk into its file.
class LineParser {
 public:
  // `stats` may already hold counts (a parser per chunk usually starts from empty ones).
  LineParser(core::RecordBatch& batch, core::FileStats& stats, std::size_t max_messages)
      : batch_(batch), stats_(stats), max_messages_(max_messages) {
    for (std::size_t i = 0; i < stats.prefix_nodes.size(); ++i)
      node_slot_.emplace(stats.prefix_nodes[i].first, static_cast<std::uint32_t>(i));
    threads_seen_.insert(stats.threads.begin(), stats.threads.end());
  }

  // `line` excludes the newline. A trailing '\r' is ignored.
  void parse_line(std::string_view line, std::uint32_t relative_line);

  // Splits `text` at newlines (a last line without one counts too) and parses each line, numbering
  // them from 0. Returns the number of lines.
  std::uint32_t parse_text(std::string_view text);

  // Counts a line the reader could not hand over whole (longer than kMaxLineBytes).
  void note_overlong_line(std::string_view head, std::uint32_t relative_line);

 private:
  void parse_record(std::string_view body, int level, std::string_view whole_line, std::uint32_t relative_line);
  // Counts a malformed line as `reason` (one of core::malformed_line_stats()) and keeps its first messages.
  void malformed(core::Stat reason, std::string message, std::string_view line, std::uint32_t relative_line);
  void note_prefix(std::uint32_t node, std::uint64_t thread);

  core::RecordBatch& batch_;
  core::FileStats& stats_;
  std::size_t max_messages_;
  std::uint64_t last_thread_ = ~std::uint64_t{0};
  std::int64_t last_node_ = -1;
  std::uint32_t last_slot_ = 0;  // last_node_'s place in stats_.prefix_nodes
  // Where each node's count is in stats_.prefix_nodes, and the threads already listed: hash lookups, so that a
  // file of many distinct prefixes stays linear.
  std::unordered_map<std::uint32_t, std::uint32_t> node_slot_;
  std::unordered_set<std::uint64_t> threads_seen_;
};

}  // namespace rr::parser
