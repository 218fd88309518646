// Mapping files and --map/--node-map: what they say is read exactly, and every bad one is an error naming the
// file (or the option) and the line.
#include <gtest/gtest.h>

#include "support/temp_text_file.hpp"
#include "machine_models/machine_model.hpp"
#include "machine_models/mapping.hpp"

namespace rr::machine {
namespace {

// A TOML file of the given text.
struct File : rr::testing::TempTextFile {
  explicit File(const std::string& text) : TempTextFile("rr_map", text) {}
};

TEST(Mapping, AFileSaysPlacementMovesAndNodes) {
  File f("placement = \"eft\"\nfold = 2\nnode_map = [0, 0, 1, 1]\n[[move]]\nfunction = 18\nto = \"gpu\"\nfactor = 0.02\n"
         "[[move]]\nfunction = 20\nto = \"cpu\"\n");
  auto m = load_mapping(f.path.string());
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(m->placement, Placement::eft);
  EXPECT_EQ(m->fold, 2u);
  EXPECT_EQ(m->nodes.rule, NodeMapRule::list);
  EXPECT_EQ(m->nodes.list, (std::vector<std::uint32_t>{0, 0, 1, 1}));
  ASSERT_EQ(m->moves.size(), 2u);
  EXPECT_EQ(m->moves[0].function, 18u);
  EXPECT_EQ(m->moves[0].kind, core::ProcessorKind::gpu);
  EXPECT_EQ(m->moves[0].factor, 0.02);
  EXPECT_EQ(m->moves[0].source, f.path.string() + ":4");
  EXPECT_FALSE(m->moves[1].factor.has_value());
  File block("node_map = \"block\"\n");
  EXPECT_EQ(load_mapping(block.path.string())->nodes.rule, NodeMapRule::block);
}

TEST(Mapping, EveryBadFileIsAnErrorWithFileAndLine) {
  struct Case {
    const char* text;
    const char* message;
    std::uint64_t line;
  };
  const Case cases[] = {
      {"placement = \"fastest\"\n", "'placement' must be", 1},
      {"fold = 0\n", "'fold' must be a node count", 1},
      {"\nnode_map = \"random\"\n", "'node_map' must be", 2},
      {"node_map = [0, -1]\n", "'node_map' lists model node numbers", 1},
      {"[[move]]\nfunction = 3\n", "needs function and to", 1},
      {"[[move]]\nfunction = 3\nto = \"fpga\"\n", "'move.to' must be", 3},
      {"[[move]]\nfunction = 3\nto = \"gpu\"\nfactor = 0\n", "'move.factor' must be > 0", 4},
      {"[[move]]\nfunction = 3\nto = \"gpu\"\nspeed = 2\n", "unknown key 'move.speed'", 4},
      {"[[move]]\nfunction = 3\nto = \"gpu\"\n[[move]]\nfunction = 3\nto = \"cpu\"\n", "moved twice", 4},
      {"speed = 2\n", "unknown key 'speed'", 1},
      {"placement = \n", "TOML syntax", 1},
      {"processors = 3\n", "'processors' must be a table", 1},
      {"[processors]\ncpus = 3\n", "unknown key 'processors.cpus' (gpu, cpu or utility) (did you mean 'cpu'?)", 2},
      {"[processors]\ncpu = -1\n", "'processors.cpu' must be a processor count per node", 2},
      {"[processors]\n\nutility = 1.5\n", "'processors.utility' must be a processor count per node", 3},
      {"[processors]\ngpu = 65537\n", "'processors.gpu' must be a processor count per node (0 to 65536)", 2},
      {"[processorz]\ncpu = 1\n", "(did you mean 'processors'?)", 1},
  };
  for (const auto& c : cases) {
    File f(c.text);
    auto m = load_mapping(f.path.string());
    ASSERT_FALSE(m.ok()) << c.text;
    EXPECT_NE(m.error().message.find(c.message), std::string::npos) << c.text << " -> " << m.error().message;
    EXPECT_EQ(m.error().where.line, c.line) << c.text;
    EXPECT_EQ(m.error().where.file, f.path.string());
  }
  EXPECT_FALSE(load_mapping("/nonexistent/mapping.toml").ok());
}

TEST(Mapping, AFileSaysProcessorCountsPerNode) {
  File f("placement = \"pool\"\n\n[processors]\ncpu = 3\nutility = 0\n");
  auto m = load_mapping(f.path.string());
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_TRUE(m->processors.any());
  EXPECT_EQ(m->processors.of(core::ProcessorKind::cpu), 3u);
  EXPECT_EQ(m->processors.of(core::ProcessorKind::utility), 0u);
  EXPECT_FALSE(m->processors.of(core::ProcessorKind::gpu).has_value());
  EXPECT_FALSE(m->processors.of(core::ProcessorKind::external).has_value());
  EXPECT_EQ(m->processors.source, f.path.string() + ":3");
  // Laid over a machine: every node gets the count, whatever per_node said; a kind not given keeps its own.
  MachineModel model;
  model.processors[1].count = 12;
  model.processors[1].per_node = {2, 4};
  model.processors[0].count = 1;
  apply_processor_counts(model, m->processors);
  EXPECT_EQ(model.processors[1].count_on(0), 3u);
  EXPECT_EQ(model.processors[1].count_on(1), 3u);
  EXPECT_EQ(model.processors[2].count_on(0), 0u);
  EXPECT_EQ(model.processors[0].count_on(0), 1u);
}

// What mapping_toml writes, load_mapping reads back as it was: placement, fold, node maps of every kind, counts,
// moves with and without factors, factors to the last bit.
TEST(Mapping, AWrittenFileReadsBackTheSame) {
  std::vector<MappingSpec> specs(3);
  specs[0].placement = Placement::eft;
  specs[0].fold = 2;
  specs[0].nodes = NodeMap{NodeMapRule::list, {0, 0, 1, 1}, "x"};
  specs[0].processors.of_kind = {std::nullopt, 5u, 1u};
  specs[0].moves = {{18, core::ProcessorKind::gpu, 0.1, ""}, {20, core::ProcessorKind::utility, 1.0 / 3.0, ""},
                    {21, core::ProcessorKind::cpu, std::nullopt, ""}};
  specs[1].nodes.rule = NodeMapRule::block;
  specs[1].processors.of_kind = {2u, std::nullopt, std::nullopt};
  specs[2].placement = Placement::traced;
  for (const MappingSpec& spec : specs) {
    File f(mapping_toml(spec, {"a header", "of two lines"}));
    auto back = load_mapping(f.path.string());
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(back->placement, spec.placement);
    EXPECT_EQ(back->fold, spec.fold);
    EXPECT_EQ(back->nodes.rule, spec.nodes.rule);
    EXPECT_EQ(back->nodes.list, spec.nodes.list);
    EXPECT_EQ(back->processors.of_kind, spec.processors.of_kind);
    ASSERT_EQ(back->moves.size(), spec.moves.size());
    for (std::size_t i = 0; i < spec.moves.size(); ++i) {
      EXPECT_EQ(back->moves[i].function, spec.moves[i].function);
      EXPECT_EQ(back->moves[i].kind, spec.moves[i].kind);
      EXPECT_EQ(back->moves[i].factor, spec.moves[i].factor);  // exactly: 1/3 too
    }
    EXPECT_EQ(mapping_toml(*back, {"a header", "of two lines"}), mapping_toml(spec, {"a header", "of two lines"}));
  }
}

TEST(Mapping, MoveOptionsAndNodeMapOptions) {
  auto m = parse_move("7=gpu:0.25");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->function, 7u);
  EXPECT_EQ(m->kind, core::ProcessorKind::gpu);
  EXPECT_EQ(m->factor, 0.25);
  EXPECT_EQ(parse_move("12=utility")->kind, core::ProcessorKind::utility);
  for (const char* bad : {"7", "=gpu", "x=gpu", "7=fpga", "7=gpu:", "7=gpu:-1", "7=gpu:nan", "7=gpu:2x"}) {
    auto b = parse_move(bad);
    ASSERT_FALSE(b.ok()) << bad;
    EXPECT_EQ(b.error().where.file, std::string("--map ") + bad);
  }
  EXPECT_EQ(parse_node_map("block")->rule, NodeMapRule::block);
  EXPECT_EQ(parse_node_map("cyclic")->rule, NodeMapRule::cyclic);
  File list("node_map = [1, 0]\n");
  auto nodes = parse_node_map(list.path.string());
  ASSERT_TRUE(nodes.ok());
  EXPECT_EQ(nodes->list, (std::vector<std::uint32_t>{1, 0}));
  File extra("node_map = [1, 0]\nfold = 2\n");
  auto bad = parse_node_map(extra.path.string());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().where.line, 2u);
  EXPECT_FALSE(parse_node_map("no-such-file").ok());
}

}  // namespace
}  // namespace rr::machine

TEST(Mapping, AMisspeltNodeMapRuleIsNeitherRuleNorFile) {
  auto blok = rr::machine::parse_node_map("blok");
  ASSERT_FALSE(blok.ok());
  EXPECT_EQ(blok.error().to_string(),
            "--node-map blok: neither cyclic, nor block, nor a readable file (did you mean 'block'?)");
  auto far = rr::machine::parse_node_map("zigzag");
  ASSERT_FALSE(far.ok());
  EXPECT_EQ(far.error().to_string(), "--node-map zigzag: neither cyclic, nor block, nor a readable file");
}
