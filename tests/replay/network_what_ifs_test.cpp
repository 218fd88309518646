// The "Bounded by" what-ifs of a replay over ranks (session/bounds.hpp) run as replays over every rank: each rank
// finds the same bounds from the critical path's sums it was given, and rank 0's estimates are one process's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gen/generators.hpp"
#include "gen/s3d.hpp"
#include "session/bounds.hpp"
#include "session/session.hpp"
#include "support/generated_trace.hpp"
#include "support/in_process_network.hpp"
#include "support/ranks_as_threads.hpp"
#include "support/test_dir.hpp"

namespace rr::gen {
namespace {

const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";

TEST(NetworkWhatIfs, RunOverEveryRankAndGiveOneProcesssEstimates) {
  const rr::testing::TestDir dir("rr_network_what_ifs");
  const session::LoadedTrace trace = rr::testing::mixed_s3d(dir.path(), 4);
  for (const std::string& machine : {kTitan, (dir.path() / "machine.toml").string()}) {
    session::ReplaySettings settings;
    auto one = session::replay_trace(trace, {machine, {}}, settings);
    ASSERT_TRUE(one.ok()) << one.error().to_string();
    std::vector<session::RunBound> expected = session::find_bounds(trace, *one);
    ASSERT_FALSE(expected.empty()) << machine;
    session::run_what_ifs(trace, settings, expected, 1);
    for (std::uint32_t ranks = 2; ranks <= 4; ++ranks) {
      rr::testing::InProcessNetwork net(ranks, 20 + ranks);
      std::vector<std::uint64_t> sent_after_replay(ranks);
      auto bounds = rr::testing::on_ranks(net, ranks, [&](std::uint32_t r, replay::BlockNetwork& end) {
        session::ReplaySettings mine = settings;
        mine.engine.execution.network = &end;
        auto run = session::replay_on(trace, one->model, mine);
        std::vector<session::RunBound> found;
        if (!run) return found;
        EXPECT_TRUE(replay::split_over_ranks(run->result)) << machine << " at " << ranks << " ranks";
        sent_after_replay[r] = net.sent_by(r);
        found = session::find_bounds(trace, *run);
        session::run_what_ifs(trace, mine, found, 1);
        end.part_done();
        return found;
      });
      const std::string what = machine + " at " + std::to_string(ranks) + " ranks";
      for (std::uint32_t r = 0; r < ranks; ++r) {
        ASSERT_EQ(bounds[r].size(), expected.size()) << what << ", rank " << r;
        for (std::size_t i = 0; i < expected.size(); ++i) {
          EXPECT_EQ(bounds[r][i].name, expected[i].name) << what << ", rank " << r;
          EXPECT_EQ(bounds[r][i].overrides, expected[i].overrides) << what << ", rank " << r;
          EXPECT_EQ(bounds[r][i].path_ns, expected[i].path_ns) << what << ", rank " << r;
        }
        // Every rank took part in the what-ifs' replays.
        EXPECT_GT(net.sent_by(r), sent_after_replay[r]) << what << ", rank " << r;
      }
      for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(bounds[0][i].what_if_ns, expected[i].what_if_ns) << what << ": " << expected[i].name;
        EXPECT_EQ(bounds[0][i].what_if_error, expected[i].what_if_error) << what;
      }
      EXPECT_EQ(net.parts_done(), ranks) << what;
    }
  }
}

}  // namespace
}  // namespace rr::gen
