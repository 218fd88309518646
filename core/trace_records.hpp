// Parsed records of a whole trace: per file, per chunk batches of compact per-kind arrays, plus counted statistics.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "diagnostics.hpp"
#include "ids.hpp"
#include "kinds.hpp"
#include "prof_records.hpp"
#include "records.hpp"

namespace rr::core {

// The records of one chunk of one file, in per-kind arrays. A chunk is a run of
// whole lines; `first_line` is the 1-based file line of the chunk's first line.
struct RecordBatch {
  std::uint64_t first_line = 1;
  std::vector<ProcessorRecord> processors;
  std::vector<GroupRecord> groups;
  std::vector<std::uint64_t> group_members;
  std::vector<MemoryRecord> memories;
  std::vector<TaskRequestRecord> task_requests;
  std::vector<TaskTimeRecord> task_times;
  std::vector<TaskWaitRecord> task_waits;
  std::vector<EventMergeRecord> event_merges;
  std::vector<EventPreconditionRecord> event_preconditions;
  std::vector<EventTriggerRecord> event_triggers;
  std::vector<BarrierCreationRecord> barrier_creations;
  std::vector<BarrierAlterRecord> barrier_alters;
  std::vector<BarrierArriveRecord> barrier_arrives;
  std::vector<CopyRequestRecord> copy_requests;
  std::vector<CopySizeRecord> copy_sizes;

  // Records parsed into this batch, released ones included.
  std::uint64_t record_count() const;
  // Releases spare capacity, copying only arrays with more than 1/8 of it: resident memory stays
  // close to what the records need without re-copying arrays that are nearly full.
  void shrink_if_loose();
  // The length of each array, in declaration order.
  using Sizes = std::array<std::size_t, 15>;
  Sizes sizes() const;
  // Reserves room for the records of `source_bytes` of text if they are like a batch of the given sizes
  // made from `like_bytes` of text, with a little headroom: most chunks then never reallocate.
  void reserve_like(const Sizes& like, std::uint64_t like_bytes, std::uint64_t source_bytes);
  std::uint64_t file_line(std::uint32_t relative_line) const { return first_line + relative_line; }

  // Records no longer held: those whose array the graph build has freed (build_event_graph_releasing), and
  // machine records that repeat an earlier one (drop_repeated_machine_records). They still count in
  // record_count().
  std::uint64_t released_records = 0;
};

// Observations that tell the logging era apart (docs/realm-log-format.md, Eras).
struct EraEvidence {
  std::uint64_t merges_with_zero_inputs = 0;   // E2a only
  std::uint64_t merges_with_one_input = 0;     // E2a or E2b
  std::uint64_t spaced_preconditions = 0;      // "(id, gen)": 6-input merge of E2c
  std::uint64_t pending_dump_blocks = 0;       // PRINTING ALL PENDING EVENTS: E2c
  std::uint64_t barrier_type3_ids = 0;         // barrier ids of type 3: E3
  EraEvidence& operator+=(const EraEvidence& o);
};

// e2ab: a 1-input merge was logged (E2a or E2b) but no 0-input one, so the two cannot be told apart.
enum class Era : std::uint8_t { unknown, e2, e2a, e2ab, e2c, e3 };
std::string_view era_name(Era era);  // "E2c", "E2a or E2b", ...

// Counted facts about one file (or one chunk, before it is merged into its file).
struct FileStats {
  EnumCounts<RecordKind, kRecordKindCount> records;
  StatCounts counts;  // lines skipped and malformed (the realm_log_parser's stats)
  EnumCounts<RecordKind, kRecordKindCount> malformed_by_kind;  // bad_fields etc., by the record named
  std::map<std::string, std::uint64_t, std::less<>> other_categories;
  EraEvidence era;
  std::uint64_t lines = 0;
  std::uint64_t text_bytes = 0;            // decompressed bytes
  std::uint64_t null_args = 0;             // Task Requests whose args printed "(nil)"
  std::uint64_t unexpected_level = 0;      // {level} other than the one the record is logged at
  // Lines per node named in the [node - thread] prefix (usually one node per file).
  std::vector<std::pair<std::uint32_t, std::uint64_t>> prefix_nodes;
  std::uint64_t min_nonzero_id = ~std::uint64_t{0};
  std::uint64_t max_id = 0;
  std::vector<std::uint64_t> threads;      // distinct pthread ids seen (sorted after merge)
  std::vector<Diagnostic> first_messages;  // the first few malformed lines, located

  void note_id(std::uint64_t id) {
    if (id != 0) {
      if (id < min_nonzero_id) min_nonzero_id = id;
      if (id > max_id) max_id = id;
    }
  }
  std::uint64_t malformed_total() const { return counts.total(malformed_line_stats()); }
  std::uint64_t skipped_total() const { return counts.total(skipped_line_stats()); }
};

enum class Compression : std::uint8_t { none, gzip, xz, zstd };
std::string_view compression_name(Compression c);

// What a file holds: the 2015 Realm event-graph text log, or a Legion Prof binary log (decided from the
// decoded first bytes, never from the name). A trace holds files of one format only.
enum class TraceFormat : std::uint8_t { realm_text, legion_prof };
std::string_view trace_format_name(TraceFormat f);  // "Realm event-graph log", "Legion Prof log"

struct FileRecords {
  std::string path;                 // as given, or "archive.tar:member"
  std::int32_t node = -1;           // text: the line prefix, else the file name; Legion Prof: MachineDesc, else the name
  Compression compression = Compression::none;
  std::uint64_t stored_bytes = 0;   // bytes as stored (compressed size)
  TraceFormat format = TraceFormat::realm_text;
  std::vector<RecordBatch> batches;  // realm_text only
  FileStats stats;                   // realm_text; of a Legion Prof file only text_bytes (decoded bytes)
  ProfileRecords profile;            // legion_prof only

  std::uint64_t record_count() const;
};

// Everything parsed from a trace, in input order (deterministic).
struct TraceRecords {
  TraceFormat format = TraceFormat::realm_text;  // of every file
  std::vector<FileRecords> files;
  std::vector<InputError> failed_files;  // files skipped with --keep-going
  IdWidth width = IdWidth::unknown;
  bool mixed_widths = false;
  Era era = Era::unknown;
  EraEvidence era_evidence;

  std::uint64_t record_count() const;
};

// The machine a trace logged, whatever its format, in the vocabulary of the text logs: every processor (kinds
// in the 2015 numbering: Legion Prof's I/O, OpenMP and Python processors count as CPUs, groups and sets are
// left out) and memory (Legion Prof's disk, HDF5 and file memories count as system memory, GPU-managed as
// zero-copy, GPU-dynamic as framebuffer), each once, in input order; and the processor groups with their members.
struct MachineRecords {
  struct Group {
    Handle id;
    std::vector<std::uint64_t> members;
  };
  std::vector<ProcessorRecord> processors;
  std::vector<MemoryRecord> memories;
  std::vector<Group> groups;
  std::vector<std::uint64_t> memory_capacities;  // bytes, parallel to memories; 0 when the trace does not say
};
MachineRecords machine_records(const TraceRecords& trace);
// Drops every Processor and Memory record whose id an earlier one (in input order) describes, counting it as
// released (RecordBatch::released_records), and returns how many it dropped. Every node's log lists the whole
// machine, so a trace of N nodes holds N copies of it: 16.8 M Processor records (256 MiB) for the 16,384
// processors of a 1,024-node trace. Whatever reads these records takes the first of each id (machine_records,
// the trace summary), so nothing else changes.
std::uint64_t drop_repeated_machine_records(TraceRecords& trace);
ProcessorKind processor_kind_of(RealmProcKind kind);  // ProcessorKind::unknown for groups and sets
// A Legion Prof processor's kind: Realm's (processor_kind_of), but `external` for one the program's own thread ran
// on (ImplicitTaskInfo; an I/O processor in Legion 25.06), which is no -ll:cpu processor.
ProcessorKind processor_kind_of(const ProfProcessor& processor);
MemoryKind memory_kind_of(RealmMemKind kind);

// Decide the era from the evidence and the presence of Processor/Memory records.
Era classify_era(const EraEvidence& evidence, bool has_machine_records, bool has_graph_records);

}  // namespace rr::core
