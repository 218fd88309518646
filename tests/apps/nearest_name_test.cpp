// The nearest-name suggestion behind every "did you mean ...?": typos are found, unrelated names are not.
#include <gtest/gtest.h>

#include "core/nearest_name.hpp"

using rr::core::did_you_mean;
using rr::core::edit_distance;
using rr::core::nearest_name;

TEST(NearestName, EditDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(edit_distance("speed", "speed"), 0u);
  EXPECT_EQ(edit_distance("sped", "speed"), 1u);    // one insertion
  EXPECT_EQ(edit_distance("repaly", "replay"), 1u); // one swap of neighbours
  EXPECT_EQ(edit_distance("blok", "block"), 1u);
  EXPECT_EQ(edit_distance("titan", "titam"), 1u);   // one substitution
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("Replay", "replay"), 0u); // ASCII case is ignored
}

TEST(NearestName, SuggestsTheClosestCandidate) {
  const std::vector<std::string> commands{"stats", "validate", "graph", "replay", "critpath", "profile", "compare",
                                          "sweep"};
  EXPECT_EQ(nearest_name("repaly", commands), "replay");
  EXPECT_EQ(nearest_name("comapre", commands), "compare");
  EXPECT_EQ(nearest_name("stat", commands), "stats");
  const std::vector<std::string> keys{"count", "per_node", "speed", "segment_overhead_ns", "function_speed"};
  EXPECT_EQ(nearest_name("sped", keys), "speed");
  EXPECT_EQ(nearest_name("segment_overhead", keys), "segment_overhead_ns");
}

TEST(NearestName, FarNamesGetNoSuggestion) {
  const std::vector<std::string> rules{"cyclic", "block"};
  EXPECT_FALSE(nearest_name("round-robin", rules));
  EXPECT_FALSE(nearest_name("x", rules));
  EXPECT_FALSE(nearest_name("anything", {}));
  EXPECT_EQ(did_you_mean("zzz", rules), "");
  EXPECT_EQ(did_you_mean("blok", rules), " (did you mean 'block'?)");
}

TEST(NearestName, TiesGoToTheEarlierCandidate) {
  EXPECT_EQ(nearest_name("cat", {"bat", "hat"}), "bat");
}
