// The list of stats (core/stats.hpp): every entry once, keyed and described, counted in its own slot.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string_view>

#include "core/stats.hpp"

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

}  // namespace
}  // namespace rr
