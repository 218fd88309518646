// Counts over Legion Prof records for `realm-replay stats`: record types per file, the machine, work done.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/trace_records.hpp"

namespace rr::parser {

// Items of one kind and the time they ran (stop - start), in nanoseconds.
struct ProfWorkTotal {
  std::uint64_t count = 0;
  std::int64_t run_ns = 0;
  void add(std::int64_t start, std::int64_t stop) {
    ++count;
    run_ns += stop - start;
  }
};

// What a file (or the whole trace) ran: work items by kind, copies and fills (with bytes), waits.
struct ProfWorkCounts {
  std::array<ProfWorkTotal, core::kProfWorkKindCount> work{};  // indexed by ProfWorkKind
  ProfWorkTotal copies;
  ProfWorkTotal fills;
  std::uint64_t copy_bytes = 0;
  std::uint64_t fill_bytes = 0;
  ProfWorkTotal waits;  // blocked intervals: wait_end - wait_start
  void add(const ProfWorkCounts& o);
};

struct ProfFileSummary {
  std::string path;
  std::int32_t node = -1;
  std::uint64_t records = 0;
  std::uint64_t data_bytes = 0;    // decompressed
  std::uint64_t stored_bytes = 0;
  std::vector<std::pair<std::string, std::uint64_t>> record_counts;  // every declared type, header order
  ProfWorkCounts work;
  core::StatCounts stats;  // records not joined, repeated descriptions
};

struct ProfileSummary {
  std::vector<ProfFileSummary> files;  // ordered by node
  std::vector<core::InputError> failed_files;
  // Every type any file declares, in the first file's header order then the others' new ones.
  std::vector<std::pair<std::string, std::uint64_t>> record_totals;
  std::uint64_t records = 0;
  std::uint64_t data_bytes = 0;
  std::uint64_t stored_bytes = 0;
  std::vector<std::string> file_type_versions;  // distinct FileType versions ("1.0")
  std::vector<std::uint32_t> versions;          // distinct MachineDesc format versions (1008)
  std::uint32_t num_nodes = 0;                  // MachineDesc num_nodes (the largest, should files disagree)
  std::vector<std::int32_t> nodes_present;      // nodes with a file
  std::vector<std::uint32_t> nodes_missing;     // nodes below num_nodes without one
  std::map<std::string, std::uint64_t> processors_by_kind;  // distinct ids over all files
  std::map<std::string, std::uint64_t> memories_by_kind;
  std::uint64_t affinities = 0;  // distinct (processor, memory) pairs
  ProfWorkCounts work;
  core::StatCounts stats;
  std::vector<core::Diagnostic> messages;  // the first records that could not be joined, located
};

ProfileSummary summarise_profiles(const core::TraceRecords& trace);

}  // namespace rr::parser
