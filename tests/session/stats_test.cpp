// The list of stats (core/stats.hpp): every entry once, keyed and described, counted in its own slot; --strict
// refuses exactly the stats whose severity the list marks as refused, and names the stat where it was first met;
// docs/parser.md describes every stat.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "core/trace_stats.hpp"
#include "session/session.hpp"
#include "support/trace_builder.hpp"

namespace rr {
namespace {

using core::Stat;

bool is_snake_case(std::string_view key) {
  if (key.empty() || key.front() == '_' || key.back() == '_') return false;
  for (char c : key)
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

TEST(StatList, EveryEntryHasOneSnakeCaseKeyADescriptionASeverityAndASource) {
  std::set<std::string_view> keys;
  for (Stat s : core::kAllStats) {
    const std::string_view key = core::stat_key(s);
    EXPECT_TRUE(is_snake_case(key)) << key;
    EXPECT_TRUE(keys.insert(key).second) << "listed twice: " << key;
    EXPECT_FALSE(core::stat_description(s).empty()) << key;
    EXPECT_NE(core::severity_name(core::stat_severity(s)), "?") << key;
    EXPECT_NE(core::source_name(core::stat_source(s)), "?") << key;
  }
  EXPECT_EQ(keys.size(), core::kStatCount);
  EXPECT_EQ(core::kAllStats.size(), core::kStatCount);
}

TEST(StatList, EachStatCountsInItsOwnSlotOfOneFixedArray) {
  static_assert(sizeof(core::StatCounts) == core::kStatCount * sizeof(std::uint64_t));
  for (std::size_t i = 0; i < core::kStatCount; ++i) {
    const Stat s = core::kAllStats[i];
    EXPECT_EQ(static_cast<std::size_t>(s), i);
    core::StatCounts counts;
    ++counts[s];
    EXPECT_EQ(counts.values[i], 1u) << core::stat_key(s);
    EXPECT_EQ(counts.total(), 1u) << core::stat_key(s);
  }
}

TEST(StatList, ReportGroupsDoNotOverlapAndFindingsAreTheGraphBuilders) {
  std::map<Stat, int> groups;
  for (Stat s : core::skipped_line_stats()) ++groups[s];
  for (Stat s : core::malformed_line_stats()) ++groups[s];
  for (Stat s : core::unjoined_record_stats()) ++groups[s];
  for (Stat s : core::finding_stats()) ++groups[s];
  for (const auto& [stat, n] : groups) EXPECT_EQ(n, 1) << core::stat_key(stat);
  for (Stat s : core::kAllStats)
    EXPECT_EQ(core::stat_source(s) == core::StatSource::graph_builder,
              core::stat_severity(s) == core::StatSeverity::finding)
        << core::stat_key(s);
  EXPECT_EQ(std::ranges::distance(core::skipped_line_stats()), 4);
  EXPECT_EQ(std::ranges::distance(core::malformed_line_stats()), 7);
}

core::Diagnostic message(Stat stat, const std::string& file, std::uint64_t line, const std::string& text) {
  core::Diagnostic d;
  d.stat = stat;
  d.where.file = file;
  d.where.line = line;
  d.message = text;
  return d;
}

core::InputError unreadable(const std::string& file, std::optional<std::uint64_t> byte, const std::string& text) {
  core::InputError e;
  e.where.file = file;
  e.where.byte_offset = byte;
  e.message = text;
  return e;
}

// A small well-formed trace that reads and builds without a finding of its own.
core::TraceRecords small_trace() {
  return testing::make_trace({{0, {"Processor: 80000000 1", "Task Request: 7 80000000 (20000001,1) (0,0) (0,0) 0 (nil) 0",
                                   "Task Time: (20000001,1) 125"}}});
}

TEST(StrictCheck, RefusesExactlyTheStatsTheListMarksAsDataLoss) {
  session::ReadingOptions strict;
  strict.strict = true;
  ASSERT_TRUE(session::load_records(small_trace(), "t", strict).ok());
  for (Stat s : core::kAllStats) {
    EXPECT_EQ(core::refused_under_strict(s), core::stat_severity(s) == core::StatSeverity::data_loss);
    core::TraceRecords trace = small_trace();
    ++trace.files[0].stats.counts[s];
    const auto loaded = session::load_records(std::move(trace), "t", strict);
    EXPECT_EQ(!loaded.ok(), core::refused_under_strict(s)) << core::stat_key(s);
    const std::string message = loaded.ok() ? std::string() : loaded.error().to_string();
    EXPECT_EQ(message.find("--strict refuses " + std::string(core::stat_key(s))) != std::string::npos,
              core::refused_under_strict(s))
        << message;
  }
}

TEST(StrictCheck, NamesTheFirstRefusedStatOfTheListAtItsFirstMessage) {
  core::TraceRecords trace;
  core::FileRecords& f = trace.files.emplace_back();
  f.path = "node_0.log";
  f.stats.counts[Stat::bad_fields] = 2;
  f.stats.counts[Stat::bad_prefix] = 1;
  f.stats.counts[Stat::blank] = 5;
  f.stats.first_messages.push_back(message(Stat::bad_fields, "node_0.log", 2, "malformed Task Time record: ..."));
  f.stats.first_messages.push_back(message(Stat::bad_prefix, "node_0.log", 5, "malformed logger prefix"));
  const auto problem = core::strict_problem(trace);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->to_string(), "node_0.log:5: malformed logger prefix (--strict refuses bad_prefix: 1 in this file)");
}

TEST(StrictCheck, NamesTheFileWhenNoMessageOfTheStatWasKept) {
  core::TraceRecords trace;
  trace.format = core::TraceFormat::legion_prof;
  trace.files.emplace_back().path = "prof_0.gz";
  core::FileRecords& f = trace.files.emplace_back();
  f.path = "prof_1.gz";
  f.format = core::TraceFormat::legion_prof;
  f.profile.counts[Stat::repeated_processors] = 9;
  f.profile.counts[Stat::repeated_machine_descs] = 2;
  const auto problem = core::strict_problem(trace);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->to_string(), "prof_1.gz: 2 MachineDesc repeated (--strict refuses repeated_machine_descs)");
}

TEST(StrictCheck, AnUnreadableFileSkippedComesFirst) {
  core::TraceRecords trace = small_trace();
  trace.files[0].stats.counts[Stat::bad_fields] = 1;
  trace.failed_files.push_back(unreadable("node_1.log.zst", 4, "zstd: unknown frame descriptor"));
  trace.failed_files.push_back(unreadable("node_2.log.zst", std::nullopt, "cannot open"));
  const auto problem = core::strict_problem(trace);
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->to_string(),
            "node_1.log.zst: byte 4: zstd: unknown frame descriptor (--strict refuses unreadable_files: 2 in all)");
  EXPECT_EQ(core::read_stats(trace)[Stat::unreadable_files], 2u);
}

TEST(StatList, DocsDescribeEveryStat) {
  std::ifstream in(std::string(RR_SOURCE_DIR) + "/docs/parser.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::size_t section = doc.find("## Findings and stats");
  ASSERT_NE(section, std::string::npos);
  for (Stat s : core::kAllStats)
    EXPECT_NE(doc.find("`" + std::string(core::stat_key(s)) + "`", section), std::string::npos) << core::stat_key(s);
}

}  // namespace
}  // namespace rr
