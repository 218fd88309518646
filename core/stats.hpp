// The one list of what reading and building a trace counts: every line skipped or malformed, every Legion Prof
// record not joined, every unreadable file skipped, every graph finding. Each stat has a stable key, a severity,
// the part of the program that counts it and a one-line description; the enum, the names, the `--strict` rule
// and every report (`stats`, `validate`, the SQL `stats` table, Python's `Trace.stats`) derive from this list,
// so a new stat is one line here and nothing else to keep in step.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <string_view>

namespace rr::core {

// How bad a nonzero count is.
enum class StatSeverity : std::uint8_t {
  info,       // counted for the record; nothing the replay needs is lost (text that holds no record, usual repeats)
  data_loss,  // input that could not be used as logged: dropped, or attached by a guess; --strict refuses it
  finding,    // records read whole that do not fit together as an event graph; the build works around each kind
              // as its description says; `validate` lists them, `validate --fail-on-findings` refuses them
};
// There is no "error": an input that cannot be read at all stops reading with an InputError, it is not counted.

// The part of the program that counts a stat.
enum class StatSource : std::uint8_t {
  trace_reader,        // finding and opening the input files
  realm_log_parser,    // Realm event-graph text logs, line by line
  legion_prof_reader,  // Legion Prof binary logs, record by record
  graph_builder,       // the event graph built from the records
};

// X(key, severity, source, description). Keys are public (JSON, SQL, Python): never rename one. Reports list
// the stats of a group in this order and --strict names the first refused one; a packed trace stores the counts
// in this order, so a change here raises its version (session/src/pack_fields.hpp pins the list).
#define RR_STATS(X) \
  X(unreadable_files, data_loss, trace_reader, "input files that could not be read, skipped by --keep-going") \
  /* Realm text logs: lines that hold no record, skipped on purpose */ \
  X(blank, info, realm_log_parser, "blank lines") \
  X(other_category, info, realm_log_parser, "logger lines of a category other than graph") \
  X(pending_event_dump, info, realm_log_parser, "lines of the unprefixed PRINTING ALL PENDING EVENTS ... DONE dump") \
  X(unprefixed_text, info, realm_log_parser, "other text without the logger prefix") \
  /* Realm text logs: malformed lines, not used */ \
  X(bad_prefix, data_loss, realm_log_parser, "logger lines whose [node - thread] {level}{category} prefix is broken") \
  X(unknown_record, data_loss, realm_log_parser, "graph lines whose record name is none of the 14") \
  X(bad_fields, data_loss, realm_log_parser, "record lines whose fields do not match the record's format") \
  X(group_count_mismatch, data_loss, realm_log_parser, \
    "Group lines that list another number of members than they announce") \
  X(value_out_of_range, data_loss, realm_log_parser, "record lines with a number that does not fit its field") \
  X(line_too_long, data_loss, realm_log_parser, "lines longer than the reader's line limit") \
  X(binary_data, data_loss, realm_log_parser, "lines holding a NUL byte (binary data)") \
  /* Legion Prof logs: records framed correctly that do not join, and repeated descriptions */ \
  X(waits_unattached, data_loss, legion_prof_reader, "wait records not after a task of theirs") \
  X(waits_other_op, data_loss, legion_prof_reader, "wait records of another op than their task's") \
  X(copy_insts_unattached, data_loss, legion_prof_reader, "CopyInstInfo not after their CopyInfo") \
  X(fill_insts_unattached, data_loss, legion_prof_reader, "FillInstInfo not after their FillInfo") \
  X(repeated_machine_descs, data_loss, legion_prof_reader, "MachineDesc repeated") \
  X(conflicting_descriptions, data_loss, legion_prof_reader, "descriptions repeated with other values") \
  X(repeated_processors, info, legion_prof_reader, "processor descriptions repeated (usual; the first is kept)") \
  X(repeated_memories, info, legion_prof_reader, "memory descriptions repeated (usual; the first is kept)") \
  X(repeated_affinities, info, legion_prof_reader, "processor-memory affinities repeated (usual; the first is kept)") \
  /* The event graph: what does not fit together */ \
  X(external_event, finding, graph_builder, "awaited events that no record produces (fired at t=0)") \
  X(duplicate_producer, finding, graph_builder, "events produced by more than one record") \
  X(merge_count_mismatch, finding, graph_builder, \
    "merges whose announced input count differs from their preconditions") \
  X(precondition_without_merge, finding, graph_builder, "Event Preconditions whose merged event has no Event Merge") \
  X(task_time_without_request, finding, graph_builder, "Task Times with no Task Request") \
  X(zero_byte_copy_orphan, finding, graph_builder, "0-byte Copy Sizes with no Copy Request (reduction copies)") \
  X(copy_size_without_request, finding, graph_builder, "Copy Sizes with bytes but no Copy Request") \
  X(task_without_time, finding, graph_builder, "tasks with no Task Time") \
  X(copy_without_size, finding, graph_builder, "copies with no Copy Size") \
  X(duplicate_task_time, finding, graph_builder, "tasks with more than one Task Time") \
  X(duplicate_copy_size, finding, graph_builder, "copies with more than one Copy Size") \
  X(wait_without_task, finding, graph_builder, "Task Waits whose waiting task has no Task Request") \
  X(unknown_issuer, finding, graph_builder, "operations whose enclosing event is not a task of the trace") \
  X(barrier_without_creation, finding, graph_builder, "barriers with no Barrier Creation") \
  X(barrier_phase_incomplete, finding, graph_builder, "barrier phases whose arrivals never reach the required count") \
  X(cycle, finding, graph_builder, "operations that wait on each other in a cycle") \
  X(wait_on_own_finish, finding, graph_builder, \
    "Task Waits of a task on its own finish event (replayed as their measured time)")

#define RR_STAT_ENUMERATOR(key, severity, source, description) key,
enum class Stat : std::uint8_t { RR_STATS(RR_STAT_ENUMERATOR) };
#undef RR_STAT_ENUMERATOR

struct StatInfo {
  std::string_view key;
  StatSeverity severity;
  StatSource source;
  std::string_view description;
};

#define RR_STAT_INFO(key, severity, source, description) \
  StatInfo{#key, StatSeverity::severity, StatSource::source, description},
inline constexpr std::array kStatInfo = {RR_STATS(RR_STAT_INFO)};
#undef RR_STAT_INFO

inline constexpr std::size_t kStatCount = kStatInfo.size();

constexpr const StatInfo& stat_info(Stat s) { return kStatInfo[static_cast<std::size_t>(s)]; }
constexpr std::string_view stat_key(Stat s) { return stat_info(s).key; }
constexpr std::string_view stat_description(Stat s) { return stat_info(s).description; }
constexpr StatSeverity stat_severity(Stat s) { return stat_info(s).severity; }
constexpr StatSource stat_source(Stat s) { return stat_info(s).source; }
std::string_view severity_name(StatSeverity s);  // "info", "data_loss", "finding"
std::string_view source_name(StatSource s);      // "trace_reader", "realm_log_parser", ...

// What --strict refuses: a trace that lost input while it was read. Findings are not refused: the graph of a
// whole, well-formed log has some (validate --fail-on-findings refuses those).
constexpr bool refused_under_strict(StatSeverity s) { return s == StatSeverity::data_loss; }
constexpr bool refused_under_strict(Stat s) { return refused_under_strict(stat_severity(s)); }

// Every stat, in list order.
inline constexpr auto kAllStats = [] {
  std::array<Stat, kStatCount> all{};
  for (std::size_t i = 0; i < kStatCount; ++i) all[i] = static_cast<Stat>(i);
  return all;
}();

// The stats one source counts at one severity, in list order (a view over kAllStats).
constexpr auto stats_of(StatSource source, StatSeverity severity) {
  return kAllStats | std::views::filter([source, severity](Stat s) {
           return stat_source(s) == source && stat_severity(s) == severity;
         });
}
// The groups reports show under their own headings.
constexpr auto skipped_line_stats() { return stats_of(StatSource::realm_log_parser, StatSeverity::info); }
constexpr auto malformed_line_stats() { return stats_of(StatSource::realm_log_parser, StatSeverity::data_loss); }
constexpr auto unjoined_record_stats() { return stats_of(StatSource::legion_prof_reader, StatSeverity::data_loss); }
constexpr auto finding_stats() { return stats_of(StatSource::graph_builder, StatSeverity::finding); }

// One count per stat: a fixed array, so counting allocates nothing.
struct StatCounts {
  std::array<std::uint64_t, kStatCount> values{};

  std::uint64_t& operator[](Stat s) { return values[static_cast<std::size_t>(s)]; }
  std::uint64_t operator[](Stat s) const { return values[static_cast<std::size_t>(s)]; }
  StatCounts& operator+=(const StatCounts& o) {
    for (std::size_t i = 0; i < kStatCount; ++i) values[i] += o.values[i];
    return *this;
  }
  // The sum over some stats, e.g. total(malformed_line_stats()).
  template <std::ranges::input_range Stats>
  std::uint64_t total(Stats&& stats) const {
    std::uint64_t t = 0;
    for (Stat s : stats) t += (*this)[s];
    return t;
  }
  std::uint64_t total() const { return total(kAllStats); }
  bool operator==(const StatCounts&) const = default;
};

}  // namespace rr::core
