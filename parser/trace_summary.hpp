// Counts over parsed records for `realm-replay stats`: per node and in total.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/timing_tally.hpp"
#include "core/trace_records.hpp"

namespace rr::parser {

// Processor kinds for time accounting, plus "unattributed" for a Task Time with no
// Task Request naming its processor (e.g. the GPU's start-up task).
inline constexpr std::size_t kTimeKindCount = 5;  // gpu, cpu, utility, unknown kind, unattributed
std::string_view time_kind_key(std::size_t index);

struct CountsBlock {
  core::EnumCounts<core::RecordKind, core::kRecordKindCount> records;
  core::StatCounts stats;  // lines skipped and malformed
  core::EnumCounts<core::RecordKind, core::kRecordKindCount> malformed_by_kind;
  std::map<std::string, std::uint64_t> other_categories;
  std::uint64_t lines = 0;
  std::uint64_t text_bytes = 0;
  std::uint64_t stored_bytes = 0;
  std::uint64_t threads = 0;
  std::uint64_t null_args = 0;
  std::uint64_t unexpected_level = 0;
  std::uint64_t lines_from_other_nodes = 0;
  std::uint64_t copy_bytes = 0;
  std::uint64_t zero_byte_copy_sizes = 0;
  std::array<std::uint64_t, kTimeKindCount> task_time_us{};  // indexed as time_kind_key
  void add(const CountsBlock& o);
};

struct NodeSummary {
  std::int32_t node = -1;
  std::vector<std::string> files;
  CountsBlock counts;
};

struct TraceSummary {
  std::vector<NodeSummary> nodes;  // ordered by node number (-1, unknown, first)
  CountsBlock total;
  std::vector<std::string> files;
  std::vector<core::InputError> failed_files;
  core::IdWidth width = core::IdWidth::unknown;
  bool mixed_widths = false;
  core::Era era = core::Era::unknown;
  core::EraEvidence era_evidence;
  std::map<std::string, std::uint64_t> processors_by_kind;  // distinct processor ids
  std::map<std::string, std::uint64_t> memories_by_kind;    // distinct memory ids
  std::uint64_t groups = 0;                                 // distinct group ids
  std::uint64_t group_members = 0;
  std::vector<core::Diagnostic> messages;                     // first located malformed-line messages
};

// `timing` is the graph builder's tally of each file's timing records (graph::BuildResult::timing_by_file), one
// per file: the records themselves are freed by the build that joins them. A Task Time counts for the kind of
// the processor (or the group's first member) named by the first Task Request of its event, whatever other
// record produced that event too; "unattributed" when no Task Request did, or when the event is NO_EVENT.
TraceSummary summarise(const core::TraceRecords& trace, std::span<const core::FileTimingTally> timing);

}  // namespace rr::parser
