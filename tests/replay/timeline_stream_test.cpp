// The timeline's replayed events streamed over ranks (replay/timeline_stream.hpp), with the ranks as threads on an
// in-process network that shuffles messages from different ranks: rank 0 merges the ranks' sorted streams into the
// order of one sorted list, ties on start and on start and track across ranks included, over many batches a rank
// (so that each rank waits for rank 0 to ask for more), with events left out by the filter, twice in a row; and finds
// the first interval of each vertex it asks for on whichever rank holds it.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "replay/src/rank_part.hpp"
#include "replay/timeline_order.hpp"
#include "replay/timeline_stream.hpp"
#include "support/in_process_network.hpp"
#include "support/ranks_as_threads.hpp"

namespace rr::replay {
namespace {

// Events long enough that each rank's stream takes many batches.
std::optional<std::string> render(const Interval& in) {
  if (in.vertex % 11 == 0) return std::nullopt;  // left out, as a filter would
  std::string text = std::to_string(in.start) + "/" + std::to_string(in.track) + "/" + std::to_string(in.vertex) + "/" +
                     std::to_string(in.end);
  text.resize(700, '.');
  return text;
}

TEST(TimelineStream, MergesSortedStreamsWithTiesIntoOneListsOrder) {
  constexpr graph::VertexId kVertices = 40000;
  std::vector<Interval> all;
  for (graph::VertexId v = 0; v < kVertices; ++v)  // seven vertices a start, on three tracks: ties across ranks
    all.push_back({v % 3, v, static_cast<TimeNs>(v / 7) * 10, static_cast<TimeNs>(v / 7) * 10 + 5 + v % 4});
  all.push_back({2, 5, 500, 600});  // a second interval of vertex 5: its first stays the one asked for
  std::sort(all.begin(), all.end(), timeline_before);
  std::string expected;
  for (const Interval& in : all)
    if (auto text = render(in)) expected += *text + "\n";
  const std::vector<graph::VertexId> wanted = {5, 17, 39999, kVertices + 3};
  for (std::uint32_t ranks = 2; ranks <= 4; ++ranks) {
    rr::testing::InProcessNetwork net(ranks, 30 + ranks);
    Partition p;
    for (graph::VertexId v = 0; v < kVertices; ++v) p.of_vertex.push_back(static_cast<std::uint8_t>(v % ranks));
    struct Merged {
      std::string text;
      ReplayedEvents events;
    };
    const auto merged = rr::testing::on_ranks(net, ranks, [&](std::uint32_t r, BlockNetwork& end) {
      ReplayResult result;
      for (const Interval& in : all)
        if (p.of_vertex[in.vertex] == r) result.intervals.push_back(in);
      auto part = std::make_shared<RankPart>();
      part->net = &end;
      part->partition = p;
      result.over_ranks = part;
      // Twice on one network, as a command may write timelines one after another: nothing of the first stream
      // is left to confuse the second.
      Merged m;
      for (int stream = 0; stream < 2; ++stream) {
        m.text.clear();
        m.events = stream_timeline(result, wanted, render, [&](std::string_view event) {
          m.text += event;
          m.text += "\n";
        });
      }
      return m;
    });
    EXPECT_TRUE(merged[0].text == expected) << ranks << " ranks: " << merged[0].text.size() << " bytes, not "
                                            << expected.size();
    EXPECT_EQ(merged[0].events.used_tracks, (std::set<std::uint32_t>{0, 1, 2})) << ranks << " ranks";
    const auto& first = merged[0].events.first_interval;
    ASSERT_EQ(first.size(), 3u) << ranks << " ranks";
    EXPECT_EQ(first.at(5).start, 0);
    EXPECT_EQ(first.at(5).track, 2u);
    EXPECT_EQ(first.at(17).start, 20);
    EXPECT_EQ(first.at(39999).vertex, 39999u);
    for (std::uint32_t r = 1; r < ranks; ++r) EXPECT_TRUE(merged[r].text.empty()) << "rank " << r << " wrote";
  }
}

}  // namespace
}  // namespace rr::replay
