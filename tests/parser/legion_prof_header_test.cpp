// The Legion Prof header parser: record lines, every field type of the format, unknown types, and each way a
// header can be wrong (each error names the line's offset).
#include <gtest/gtest.h>

#include "parser/byte_source.hpp"
#include "parser/legion_prof_header.hpp"
#include "support/prof_log_builder.hpp"

namespace rr::parser {
namespace {

using rr::testing::prof_header;

// The message and decoded offset of the SourceError that parsing `text` throws.
std::pair<std::string, std::uint64_t> header_error(std::string_view text) {
  try {
    parse_prof_header(text);
  } catch (const SourceError& e) {
    return {e.what(), e.decoded_offset().value_or(~std::uint64_t{0})};
  }
  return {"(no error)", 0};
}

TEST(LegionProfHeader, ParsesRecordLinesInOrder) {
  const std::string text = prof_header({
      "MachineDesc {id:10, node_id:unsigned:4, num_nodes:unsigned:4, version:unsigned:4, hostname:string:-1, "
      "host_id:unsigned long long:8, process_id:unsigned:4}",
      "ZeroTime {id:60, zero_time:long long:8}",
      "IndexSpaceEmptyDesc {id:33, unique_id:IDType:8}",
  });
  const ProfHeader h = parse_prof_header(text);
  EXPECT_EQ(h.version, "1.0");
  EXPECT_EQ(h.bytes, text.size());
  ASSERT_EQ(h.records.size(), 3u);
  const ProfRecordLayout& m = h.records[0];
  EXPECT_EQ(m.name, "MachineDesc");
  EXPECT_EQ(m.id, 10);
  EXPECT_EQ(m.offset, 34u);  // right after the FileType line
  ASSERT_EQ(m.fields.size(), 6u);
  EXPECT_EQ(m.fields[3].name, "hostname");
  EXPECT_EQ(m.fields[3].kind, ProfFieldType::string);
  EXPECT_EQ(m.fields[4].type, "unsigned long long");  // a type name with blanks
  EXPECT_EQ(m.fields[4].size, 8);
  EXPECT_EQ(m.fields[4].kind, ProfFieldType::unsigned_int);
  EXPECT_EQ(h.records[1].fields[0].kind, ProfFieldType::signed_int);
  EXPECT_EQ(h.find("ZeroTime")->id, 60);
  EXPECT_EQ(h.find("TaskInfo"), nullptr);
  EXPECT_EQ(m.field_index("process_id"), 5);
  EXPECT_EQ(m.field_index("nope"), -1);
}

TEST(LegionProfHeader, ClassifiesEveryFieldTypeOfTheSpec) {
  const ProfHeader h = parse_prof_header(prof_header({
      "T {id:1, a:unsigned:4, b:TaskID:4, c:UniqueID:8, d:timestamp_t:8, e:long long:8, f:bool:1, g:string:-1, "
      "h:point:8, i:array:8, j:uuid_size:4, k:uuid:1, l:maxdim:4, m:DepPartOpKind:4, n:InstID:8}",
  }));
  const auto& f = h.records[0].fields;
  const ProfFieldType expected[] = {
      ProfFieldType::unsigned_int, ProfFieldType::unsigned_int, ProfFieldType::unsigned_int, ProfFieldType::signed_int,
      ProfFieldType::signed_int,   ProfFieldType::boolean,      ProfFieldType::string,       ProfFieldType::point,
      ProfFieldType::array,        ProfFieldType::uuid_size,    ProfFieldType::uuid,         ProfFieldType::unsigned_int,
      ProfFieldType::unsigned_int, ProfFieldType::unsigned_int};
  ASSERT_EQ(f.size(), std::size(expected));
  for (std::size_t i = 0; i < f.size(); ++i) {
    EXPECT_EQ(f[i].kind, expected[i]) << f[i].name;
    EXPECT_TRUE(f[i].known_type) << f[i].name;
  }
}

TEST(LegionProfHeader, UnknownTypesAreSizedByTheHeaderAndMarked) {
  const ProfHeader h = parse_prof_header(prof_header({"Future {id:70, x:frobnicator:3, y:unsigned:4}"}));
  const ProfField& x = h.records[0].fields[0];
  EXPECT_EQ(x.kind, ProfFieldType::unsigned_int);
  EXPECT_FALSE(x.known_type);
  EXPECT_EQ(x.size, 3);
}

TEST(LegionProfHeader, ARecordTypeMayHaveNoFields) {
  const ProfHeader h = parse_prof_header(prof_header({"Marker {id:5}"}));
  ASSERT_EQ(h.records.size(), 1u);
  EXPECT_TRUE(h.records[0].fields.empty());
}

TEST(LegionProfHeader, FindsTheEndAcrossPrefixes) {
  const std::string text = prof_header({"A {id:1, a:unsigned:4}"}) + std::string("\x01\0\0\0", 4);
  const std::size_t end = text.size() - 4;
  EXPECT_EQ(find_prof_header_end(std::string_view(text).substr(0, end - 1)), std::string_view::npos);
  // A prefix that stopped between the two newlines: the search resumes one byte early.
  EXPECT_EQ(find_prof_header_end(text, end - 1), end);
  EXPECT_EQ(find_prof_header_end(text), end);
  EXPECT_TRUE(is_legion_prof_head(text));
  EXPECT_FALSE(is_legion_prof_head("[0 - 7f00] {2}{graph}: Processor: 1d00 1"));
}

TEST(LegionProfHeader, RefusesAnotherFirstLine) {
  auto [message, offset] = header_error("FileType: Something else\nA {id:1}\n\n");
  EXPECT_NE(message.find("not a Legion Prof log"), std::string::npos) << message;
  EXPECT_NE(message.find("FileType: Something else"), std::string::npos) << message;
  EXPECT_EQ(offset, 0u);
}

TEST(LegionProfHeader, RefusesAnotherFileTypeVersion) {
  auto [message, offset] = header_error("FileType: BinaryLegionProf v: 2.0\nA {id:1}\n\n");
  EXPECT_NE(message.find("version '2.0'"), std::string::npos) << message;
  EXPECT_EQ(offset, 0u);
}

TEST(LegionProfHeader, NamesTheMalformedLineAndItsOffset) {
  const std::string good = "FileType: BinaryLegionProf v: 1.0\nA {id:1, a:unsigned:4}\n";
  struct Case {
    std::string line;
    std::string expect;
  } cases[] = {
      {"B id:2, a:unsigned:4", "is not 'Name {id:N"},
      {"B {id:2, a:unsigned:4", "is not 'Name {id:N"},
      {"B {a:unsigned:4}", "does not start with its id"},
      {"B {id:x2}", "is not a number"},
      {"B {id:-3}", "is not a number >= 0"},
      {"B {id:2, a:unsigned}", "is not name:type:size"},
      {"B {id:2, a:unsigned:four}", "has no integer size"},
      {"B {id:2, a:unsigned:0}", "cannot be sized"},
      {"B {id:2, a:point:-1}", "cannot be sized"},
      {"B {id:2, u:uuid:1}", "no uuid_size field before it"},
      {"B {id:1, a:unsigned:4}", "record id 1 is declared twice"},
      {"A {id:2, a:unsigned:4}", "record type A is declared twice"},
  };
  for (const auto& c : cases) {
    auto [message, offset] = header_error(good + c.line + "\n\n");
    EXPECT_NE(message.find(c.expect), std::string::npos) << c.line << " -> " << message;
    EXPECT_EQ(offset, good.size()) << c.line;
    EXPECT_TRUE(message.starts_with("Legion Prof header: ")) << message;
  }
}

TEST(LegionProfHeader, WithoutItsEmptyLine) {
  auto [message, offset] = header_error("FileType: BinaryLegionProf v: 1.0\nA {id:1, a:unsigned:4}\n");
  EXPECT_NE(message.find("no empty line ends the header"), std::string::npos) << message;
  EXPECT_EQ(offset, 57u);
}

}  // namespace
}  // namespace rr::parser
