// Names files: what they hold, every kind of bad one refused with the file and line, where the default one is
// looked for, and the names reaching the graph of a trace (over a Legion Prof log's own).
#include <gtest/gtest.h>

#include <fstream>

#include "session/names_file.hpp"
#include "session/session.hpp"
#include "support/test_dir.hpp"

namespace rr::session {
namespace {

const std::string kSource = RR_SOURCE_DIR;

std::string error_of(std::string_view text) {
  auto names = parse_names(text, "names.toml");
  EXPECT_FALSE(names.ok()) << text;
  return names.ok() ? std::string() : names.error().to_string();
}

void write(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

TEST(NamesFile, ReadsIdsAndNames) {
  auto names = parse_names("# circuit\n5 = \"calc_new_currents\"\n\"0007\" = 'distribute charge'\n3 = \"a;b\"\n", "n.toml");
  ASSERT_TRUE(names.ok()) << names.error().to_string();
  EXPECT_EQ(*names, (graph::FunctionNames{{3, "a;b"}, {5, "calc_new_currents"}, {7, "distribute charge"}}));
  auto empty = parse_names("# nothing named yet\n", "n.toml");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  auto widest = parse_names("4294967295 = \"last\"\n", "n.toml");
  ASSERT_TRUE(widest.ok());
  EXPECT_EQ(widest->front().first, 4294967295u);
}

TEST(NamesFile, NotTomlIsAnErrorOnItsLine) {
  // toml++'s own description follows the place.
  EXPECT_EQ(error_of("5 = \"ok\"\n6 = calc\n").rfind("names.toml:2: TOML syntax: ", 0), 0u);
  EXPECT_EQ(error_of("5 = \"unterminated\n").rfind("names.toml:1: TOML syntax: ", 0), 0u);
}

TEST(NamesFile, TheFirstMistakeInTheFileIsTheOneReported) {
  // toml++ sorts keys as text ("b" before "c" ... and "10" before "9"); the file's order decides.
  EXPECT_EQ(error_of("9 = 1\nb = \"x\"\n").rfind("names.toml:1: the name of function 9", 0), 0u);
  EXPECT_EQ(error_of("zz = \"x\"\n1 = 1\n").rfind("names.toml:1: 'zz'", 0), 0u);
}

TEST(NamesFile, AKeyThatIsNoFunctionIdIsAnErrorOnItsLine) {
  for (const char* key : {"f5", "-1", "0x5", "main", "4294967296", "\"\""}) {
    const std::string message = error_of("3 = \"main\"\n" + std::string(key) + " = \"x\"\n");
    EXPECT_NE(message.find("names.toml:2: "), std::string::npos) << message;
    EXPECT_NE(message.find("is not a function id"), std::string::npos) << message;
  }
  // A dotted key is a table under its first part: that part is the key judged.
  EXPECT_NE(error_of("a.b = \"x\"\n").find("names.toml:1: 'a' is not a function id"), std::string::npos);
}

TEST(NamesFile, AValueThatIsNoStringIsAnErrorOnItsLine) {
  EXPECT_EQ(error_of("5 = 7\n"), "names.toml:1: the name of function 5 is an integer, not a string in quotes");
  EXPECT_EQ(error_of("\n5 = [\"a\"]\n"), "names.toml:2: the name of function 5 is an array, not a string in quotes");
  EXPECT_EQ(error_of("[5]\nname = \"a\"\n"), "names.toml:1: the name of function 5 is a table, not a string in quotes");
  EXPECT_EQ(error_of("5 = true\n"), "names.toml:1: the name of function 5 is a boolean, not a string in quotes");
  EXPECT_EQ(error_of("5 = \"\"\n"), "names.toml:1: function 5 has an empty name");
}

TEST(NamesFile, AnIdNamedTwiceIsAnError) {
  // TOML itself refuses a key given twice; "5" and "05" are two keys of one function.
  EXPECT_EQ(error_of("5 = \"a\"\n05 = \"b\"\n"), "names.toml:2: function 5 is named twice (also on line 1)");
  EXPECT_NE(error_of("5 = \"a\"\n5 = \"b\"\n").find("names.toml:2: TOML syntax:"), std::string::npos);
}

TEST(NamesFile, AKeyTooDeepForTheParserIsRefusedBeforeIt) {
  std::string deep = "a";
  for (int i = 0; i < 5000; ++i) deep += ".a";
  EXPECT_NE(error_of("\n" + deep + " = \"x\"\n").find("names.toml:2: a dotted key of more than 64 parts"), std::string::npos);
}

TEST(NamesFile, AMissingFileIsAnErrorNamingIt) {
  auto names = read_names_file("/nonexistent/names.toml");
  ASSERT_FALSE(names.ok());
  EXPECT_NE(names.error().to_string().find("/nonexistent/names.toml"), std::string::npos);
}

TEST(NamesFile, TheDefaultIsBesideTheTrace) {
  testing::TestDir dir("rr_names_default");
  const auto folder = dir.path() / "run";
  std::filesystem::create_directories(folder);
  write(folder / "node_0.log", "");
  EXPECT_EQ(default_names_file({folder.string()}), std::nullopt);
  write(folder / "names.toml", "5 = \"x\"\n");
  const std::string expected = (folder / "names.toml").string();
  EXPECT_EQ(default_names_file({folder.string()}), expected);                          // a folder: inside it
  EXPECT_EQ(default_names_file({(folder / "node_0.log").string()}), expected);         // a file: beside it
  EXPECT_EQ(default_names_file({(folder / "node_*.log").string()}), expected);         // a glob: beside it
  EXPECT_EQ(default_names_file({(folder / "node_0.log").string(), "/elsewhere"}), expected);  // the first input's
  EXPECT_EQ(default_names_file({}), std::nullopt);
}

TEST(NamesFile, ABundledGeneratedTraceIsNamedByItsNamesFile) {
  auto trace = load_trace({kSource + "/data/traces/s3d/dme_all_2n"}, {});
  ASSERT_TRUE(trace.ok()) << trace.error().to_string();
  ASSERT_TRUE(trace->names);
  EXPECT_EQ(trace->names->file, kSource + "/data/traces/s3d/dme_all_2n/names.toml");
  EXPECT_EQ(trace->graph().function_name(3), "driver");
  EXPECT_EQ(trace->graph().function_name(4), "meta_task");
  EXPECT_EQ(trace->graph().function_name(16), "chemistry");
  // Every function the generator names has tasks in the run, so every name is used.
  EXPECT_EQ(trace->names->used, trace->names->given);
}

TEST(NamesFile, NamesGivenOverrideALegionProfLogsOwnAndUnknownIdsAreAllowed) {
  const std::string prof = kSource + "/data/traces/legion-prof/circuit_small_cpu2_util1";
  auto own = load_trace({prof}, {});
  ASSERT_TRUE(own.ok()) << own.error().to_string();
  EXPECT_FALSE(own->names);
  const auto& names = own->graph().function_names();
  ASSERT_FALSE(names.empty());
  const std::uint32_t renamed = names.front().first;
  EXPECT_EQ(own->graph().function_name(renamed), names.front().second);

  testing::TestDir dir("rr_names_prof");
  const auto file = dir.path() / "mine.toml";
  write(file, std::to_string(renamed) + " = \"renamed\"\n123456 = \"not in this run\"\n");
  ReadingOptions options;
  options.names_file = file.string();
  auto given = load_trace({prof}, options);
  ASSERT_TRUE(given.ok()) << given.error().to_string();
  EXPECT_EQ(given->graph().function_name(renamed), "renamed");
  EXPECT_EQ(given->graph().function_name(123456), "not in this run");
  ASSERT_TRUE(given->names);
  EXPECT_EQ(given->names->given, 2u);
  EXPECT_LE(given->names->used, 1u);  // 123456 is no function of the run
  // The log's other names stay.
  for (std::size_t i = 1; i < names.size(); ++i)
    EXPECT_EQ(given->graph().function_name(names[i].first), own->graph().function_name(names[i].first));
}

TEST(NamesFile, ABadNamesFileFailsTheReadWithItsPlace) {
  testing::TestDir dir("rr_names_bad");
  write(dir.path() / "bad.toml", "5 = \"ok\"\nsix = \"x\"\n");
  ReadingOptions options;
  options.names_file = (dir.path() / "bad.toml").string();
  auto trace = load_trace({kSource + "/data/traces/real/full_ghost_b2_cpu2"}, options);
  ASSERT_FALSE(trace.ok());
  EXPECT_EQ(trace.error().to_string().rfind(options.names_file + ":2: 'six' is not a function id", 0), 0u)
      << trace.error().to_string();
}

}  // namespace
}  // namespace rr::session
