// The stats of a whole trace and the --strict check, both read off the list in core/stats.hpp.
#include "core/trace_stats.hpp"

#include <string>

namespace rr::core {
namespace {

StatCounts file_stats(const FileRecords& f) {
  StatCounts counts = f.stats.counts;  // a text log's
  counts += f.profile.counts;          // a Legion Prof log's
  return counts;
}

const std::vector<Diagnostic>& file_messages(const FileRecords& f) {
  return f.format == TraceFormat::legion_prof ? f.profile.join_messages : f.stats.first_messages;
}

// The refusal of `stat`, counted `count` times in the trace, at the first place it was met.
InputError refusal(const TraceRecords& trace, Stat stat, std::uint64_t count) {
  const std::string key(stat_key(stat));
  if (stat == Stat::unreadable_files && !trace.failed_files.empty()) {
    InputError first = trace.failed_files.front();
    first.message += " (--strict refuses " + key + ": " + std::to_string(count) + " in all)";
    return first;
  }
  for (const FileRecords& f : trace.files) {
    const std::uint64_t here = file_stats(f)[stat];
    if (here == 0) continue;
    const std::string in_file = std::to_string(here);
    for (const Diagnostic& d : file_messages(f))
      if (d.stat == stat)
        return InputError{d.where, d.message + " (--strict refuses " + key + ": " + in_file + " in this file)"};
    return InputError{SourceLocation{f.path, 0, std::nullopt},
                      in_file + " " + std::string(stat_description(stat)) + " (--strict refuses " + key + ")"};
  }
  // Counted in no file: only a trace put together by hand can be so.
  return InputError{SourceLocation{}, std::to_string(count) + " " + key + " (--strict)"};
}

}  // namespace

StatCounts read_stats(const TraceRecords& trace) {
  StatCounts counts;
  for (const FileRecords& f : trace.files) counts += file_stats(f);
  counts[Stat::unreadable_files] += trace.failed_files.size();
  return counts;
}

std::optional<InputError> strict_problem(const TraceRecords& trace) {
  const StatCounts counts = read_stats(trace);
  for (Stat stat : kAllStats)
    if (refused_under_strict(stat) && counts[stat] > 0) return refusal(trace, stat, counts[stat]);
  return std::nullopt;
}

}  // namespace rr::core
