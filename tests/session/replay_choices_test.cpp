// Text to replay settings (session/replay_choices.hpp), the parser the command line and the Python module
// share: every choice lands in its setting, and each kind of bad value is refused in the words the command
// line prints.
#include <gtest/gtest.h>

#include <fstream>

#include "session/replay_choices.hpp"
#include "support/test_dir.hpp"

namespace rr::session {
namespace {

std::string error_of(const ReplayChoices& choices) {
  auto settings = replay_settings(choices);
  return settings ? std::string("no error") : settings.error().to_string();
}

void write(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

TEST(ReplayChoices, DefaultsAreTheDefaultSettings) {
  auto settings = replay_settings({});
  ASSERT_TRUE(settings.ok()) << settings.error().to_string();
  EXPECT_FALSE(settings->mapping.placement);
  EXPECT_TRUE(settings->mapping.moves.empty());
  EXPECT_EQ(settings->mapping.fold, 0u);
  EXPECT_EQ(settings->mapping.nodes.rule, machine::NodeMapRule::cyclic);
  EXPECT_EQ(settings->engine.rules.unlogged, replay::UnloggedTime::measured);
  EXPECT_EQ(settings->engine.rules.queue_order, replay::QueueOrder::observed);
}

TEST(ReplayChoices, EveryChoiceLandsInItsSetting) {
  ReplayChoices choices;
  choices.placement = "eft";
  choices.map = {"18=gpu:0.02", "20=cpu"};
  choices.fold = 2;
  choices.node_map = "block";
  choices.unlogged_time = "instant";
  choices.queue_order = "ready";
  auto settings = replay_settings(choices);
  ASSERT_TRUE(settings.ok()) << settings.error().to_string();
  EXPECT_EQ(settings->mapping.placement, machine::Placement::eft);
  ASSERT_EQ(settings->mapping.moves.size(), 2u);
  EXPECT_EQ(settings->mapping.moves[0].function, 18u);
  EXPECT_EQ(settings->mapping.moves[0].kind, core::ProcessorKind::gpu);
  EXPECT_EQ(settings->mapping.moves[0].factor, 0.02);
  EXPECT_EQ(settings->mapping.moves[1].source, "--map 20=cpu");
  EXPECT_EQ(settings->mapping.fold, 2u);
  EXPECT_EQ(settings->mapping.nodes.rule, machine::NodeMapRule::block);
  EXPECT_EQ(settings->engine.rules.unlogged, replay::UnloggedTime::instant);
  EXPECT_EQ(settings->engine.rules.queue_order, replay::QueueOrder::ready);
}

// What is given beside a mapping file overrides the file's own; the rest of the file stays.
TEST(ReplayChoices, ChoicesGivenBesideAMappingFileOverrideIt) {
  testing::TestDir dir("rr_replay_choices");
  write(dir.path() / "map.toml", "placement = \"pool\"\nfold = 3\n[[move]]\nfunction = 7\nto = \"gpu\"\n");
  ReplayChoices choices;
  choices.mapping = (dir.path() / "map.toml").string();
  choices.placement = "traced";
  choices.map = {"8=cpu"};
  auto settings = replay_settings(choices);
  ASSERT_TRUE(settings.ok()) << settings.error().to_string();
  EXPECT_EQ(settings->mapping.placement, machine::Placement::traced);
  EXPECT_EQ(settings->mapping.fold, 3u);
  ASSERT_EQ(settings->mapping.moves.size(), 2u);
  EXPECT_EQ(settings->mapping.moves[0].function, 7u);
  EXPECT_EQ(settings->mapping.moves[1].function, 8u);
}

TEST(ReplayChoices, NamesEachChoiceTakesAreListedAsHelpShowsThem) {
  EXPECT_EQ(placement_choice().listed(), "{traced,pool,eft}");
  EXPECT_EQ(unlogged_time_choice().listed(), "{measured,instant}");
  EXPECT_EQ(queue_order_choice().listed(), "{observed,ready}");
  EXPECT_FALSE(placement_choice().problem("pool"));
}

TEST(ReplayChoices, AnUnknownPlacementIsRefused) {
  EXPECT_EQ(placement_choice().problem("nowhere"), "nowhere not in {traced,pool,eft}");
  ReplayChoices choices;
  choices.placement = "nowhere";
  EXPECT_EQ(error_of(choices), "--placement: nowhere not in {traced,pool,eft}");
}

TEST(ReplayChoices, AnUnknownUnloggedTimeIsRefused) {
  EXPECT_EQ(unlogged_time_choice().problem("zero"), "zero not in {measured,instant}");
  ReplayChoices choices;
  choices.unlogged_time = "zero";
  EXPECT_EQ(error_of(choices), "--unlogged-time: zero not in {measured,instant}");
}

TEST(ReplayChoices, AnUnknownQueueOrderIsRefused) {
  EXPECT_EQ(queue_order_choice().problem("fifo"), "fifo not in {observed,ready}");
  ReplayChoices choices;
  choices.queue_order = "fifo";
  EXPECT_EQ(error_of(choices), "--queue-order: fifo not in {observed,ready}");
}

TEST(ReplayChoices, AFoldOutsideItsRangeIsRefused) {
  EXPECT_EQ(fold_problem(0), "Value 0 not in range 1 to 65536");
  EXPECT_EQ(fold_problem(-3), "Value -3 not in range 1 to 65536");
  EXPECT_FALSE(fold_problem(1));
  EXPECT_FALSE(fold_problem(65536));
  ReplayChoices choices;
  choices.fold = 65537;
  EXPECT_EQ(error_of(choices), "--fold: Value 65537 not in range 1 to 65536");
}

TEST(ReplayChoices, AMoveThatCannotBeParsedIsRefused) {
  ReplayChoices choices;
  choices.map = {"18"};
  EXPECT_EQ(error_of(choices), "--map 18: no '=' (--map takes FUNC=KIND[:FACTOR], e.g. 7=gpu:0.25)");
}

TEST(ReplayChoices, AFunctionMovedTwiceIsRefused) {
  ReplayChoices choices;
  choices.map = {"18=gpu", "18=cpu"};
  EXPECT_EQ(error_of(choices), "--map 18=cpu: function 18 is moved twice");
}

TEST(ReplayChoices, ANodeMapThatCannotBeReadIsRefused) {
  testing::TestDir dir("rr_replay_choices");
  ReplayChoices choices;
  choices.node_map = (dir.path() / "missing.toml").string();
  EXPECT_EQ(error_of(choices), choices.node_map + ": cannot open mapping file: No such file or directory");
  write(dir.path() / "nodes.toml", "nodes = [0, 1]\n");
  choices.node_map = (dir.path() / "nodes.toml").string();
  EXPECT_EQ(error_of(choices),
            choices.node_map + ":1: unknown key 'nodes' (a node map file holds node_map = [...])");
}

TEST(ReplayChoices, AMappingFileThatCannotBeReadIsRefused) {
  testing::TestDir dir("rr_replay_choices");
  ReplayChoices choices;
  choices.mapping = (dir.path() / "missing.toml").string();
  EXPECT_EQ(error_of(choices), choices.mapping + ": cannot open mapping file: No such file or directory");
  write(dir.path() / "map.toml", "fold = 0\n");
  choices.mapping = (dir.path() / "map.toml").string();
  EXPECT_EQ(error_of(choices), choices.mapping + ":1: 'fold' must be a node count (1 to 65536)");
}

}  // namespace
}  // namespace rr::session
