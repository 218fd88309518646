// Factors files (realm-replay tune --factors): what they say is read exactly, in both TOML forms, and every bad one
// is an error naming the file and the line, one case per class of mistake.
#include <gtest/gtest.h>

#include "support/temp_text_file.hpp"
#include "machine_models/factors_file.hpp"

namespace rr::machine {
namespace {

// A TOML file of the given text.
struct File : rr::testing::TempTextFile {
  explicit File(const std::string& text) : TempTextFile("rr_factors", text) {}
};

TEST(FactorsFile, TablesAndInlineTablesGiveFactorsPerFunctionAndKind) {
  File f("# busy time on a kind = traced busy time x factor\n20 = { cpu = 1.5 }\n\"21\" = { gpu = 0.05 }\n"
         "[18]\ngpu = 0.1\nutility = 2\n");
  auto factors = load_factors(f.path.string());
  ASSERT_TRUE(factors.ok()) << factors.error().to_string();
  EXPECT_EQ(factors->file, f.path.string());
  ASSERT_EQ(factors->of_function.size(), 3u);
  const auto& f18 = factors->of_function.at(18);
  ASSERT_EQ(f18.size(), 2u);
  EXPECT_EQ(f18[0].kind, core::ProcessorKind::gpu);
  EXPECT_EQ(f18[0].factor, 0.1);
  EXPECT_EQ(f18[0].source, f.path.string() + ":5");
  EXPECT_EQ(f18[1].kind, core::ProcessorKind::utility);
  EXPECT_EQ(f18[1].factor, 2.0);
  EXPECT_EQ(factors->of_function.at(20)[0].kind, core::ProcessorKind::cpu);
  EXPECT_EQ(factors->of_function.at(20)[0].source, f.path.string() + ":2");
  EXPECT_EQ(factors->of_function.at(21)[0].factor, 0.05);
  File empty("# nothing yet\n");
  auto none = load_factors(empty.path.string());
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->of_function.empty());
}

TEST(FactorsFile, EveryBadFileIsAnErrorWithFileAndLine) {
  struct Case {
    const char* text;
    const char* message;
    std::uint64_t line;
  };
  const Case cases[] = {
      {"[18]\ngpu = \n", "TOML syntax", 2},
      {"[f18]\ngpu = 0.1\n", "'f18' is no task function id (decimal, 18, not f18)", 1},
      {"\n18 = 0.1\n", "function 18 must be a table of kind = factor", 2},
      {"[18]\n", "function 18 gives no factor", 1},
      {"[18]\ngpuu = 0.1\n", "function 18: unknown kind 'gpuu' (gpu, cpu or utility) (did you mean 'gpu'?)", 2},
      {"[18]\ngpu = \"fast\"\n", "function 18: the factor of gpu must be a number", 2},
      {"[18]\ncpu = 1\ngpu = 0\n", "function 18: the factor of gpu must be a number from 1e-6 to 1e6", 3},
      {"[18]\ngpu = inf\n", "must be a number from 1e-6 to 1e6", 2},
      {"[99999999999]\ngpu = 1\n", "'99999999999' is no task function id", 1},
  };
  for (const auto& c : cases) {
    File f(c.text);
    auto factors = load_factors(f.path.string());
    ASSERT_FALSE(factors.ok()) << c.text;
    EXPECT_NE(factors.error().message.find(c.message), std::string::npos) << c.text << " -> " << factors.error().message;
    EXPECT_EQ(factors.error().where.line, c.line) << c.text;
    EXPECT_EQ(factors.error().where.file, f.path.string());
  }
  auto missing = load_factors("/nonexistent/factors.toml");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().to_string().find("factors file"), std::string::npos) << missing.error().to_string();
}

}  // namespace
}  // namespace rr::machine
