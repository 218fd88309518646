// One test per error class of the Legion Prof reader: a good log broken in one place, read as a trace; the
// message must name the file, the byte offset (of the uncompressed data, saying so) and what is wrong.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "parser/trace_reader.hpp"
#include "support/prof_log_builder.hpp"
#include "support/test_dir.hpp"

namespace rr::parser {
namespace {

namespace fs = std::filesystem;
using rr::testing::ProfBytes;

const std::string kSample = std::string(RR_SOURCE_DIR) + "/data/traces/legion-prof/circuit_small_cpu2_util1/prof_0.gz";

class ProfErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.emplace("rr_prof_errors");
    dir_ = scratch_->path();
    log_ = rr::testing::split_log(rr::testing::decompress_file(kSample));
  }
  void TearDown() override { scratch_.reset(); }

  // Writes `bytes` as a gzip file (as Legion does) and reads it as a trace; returns the error.
  std::string error_of(const std::string& bytes, const std::string& name = "prof_0.gz") {
    const fs::path plain = dir_ / "plain";
    std::ofstream(plain, std::ios::binary) << bytes;
    const fs::path file = dir_ / name;
    const std::string cmd = "gzip -c '" + plain.string() + "' > '" + file.string() + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    fs::remove(plain);
    return read_error(file.string());
  }
  static std::string read_error(const std::string& path) {
    auto t = read_trace({path}, {}, 1);
    return t.ok() ? "(no error)" : t.error().to_string();
  }
  // The decoded offset of the header line of a record type.
  std::size_t line_of(const std::string& record) const { return log_.header.find("\n" + record + " {") + 1; }
  std::int32_t id_of(const std::string& record) const {
    return parse_prof_header(log_.header).find(record)->id;
  }
  ProfBytes task_info(std::uint64_t op) const {
    ProfBytes b;
    b.id(id_of("TaskInfo")).u64(op).u32(1).u32(2).u64(0x1d00000000000001).i64(100).i64(101).i64(102).i64(103)
        .u64(0x8000000000300001).u64(0).u64(0x8000000000300002);
    return b;
  }
  std::string where(std::size_t offset) const {
    return (dir_ / "prof_0.gz").string() + ": byte " + std::to_string(offset) + " of the uncompressed data: ";
  }

  std::optional<rr::testing::TestDir> scratch_;
  fs::path dir_;
  rr::testing::SplitLog log_;
};

TEST_F(ProfErrors, BadFileTypeLine) {
  std::string header = log_.header;
  header.replace(header.find("v: 1.0"), 6, "v: 9.9");
  const std::string e = error_of(header + log_.records);
  EXPECT_NE(e.find(where(0) + "Legion Prof header: FileType version '9.9'"), std::string::npos) << e;
}

TEST_F(ProfErrors, NotALegionProfLogWhenReadAsOne) {
  // A file found to be a Legion Prof log by its first bytes, but whose first line goes on differently.
  std::string header = log_.header;
  header.replace(0, header.find('\n'), "FileType: BinaryLegionProfile v: 1.0");
  const std::string e = error_of(header + log_.records);
  EXPECT_NE(e.find(where(0) + "Legion Prof header: not a Legion Prof log"), std::string::npos) << e;
}

TEST_F(ProfErrors, HeaderWithoutItsEmptyLine) {
  // The header runs straight into a record whose bytes hold no "\n\n": the data ends inside the header.
  const std::string header = log_.header.substr(0, log_.header.size() - 1);
  const std::string bytes = header + task_info(3).bytes();
  const std::string e = error_of(bytes);
  EXPECT_NE(e.find(where(bytes.size()) + "Legion Prof header: no empty line ends the header"), std::string::npos) << e;
}

TEST_F(ProfErrors, UnknownRecordId) {
  ProfBytes b = task_info(3);
  b.id(99).u64(0);
  const std::string e = error_of(log_.header + b.bytes());
  EXPECT_NE(e.find(where(log_.header.size() + 84) + "record id 99 is not declared in the header"), std::string::npos) << e;
}

TEST_F(ProfErrors, TruncatedRecord) {
  const std::string cut = task_info(3).bytes().substr(0, 50);
  const std::string e = error_of(log_.header + task_info(4).bytes() + cut);
  EXPECT_NE(e.find(where(log_.header.size() + 84) +
                   "truncated TaskInfo record: it needs 80 bytes after its id, the data ends after 46"),
            std::string::npos)
      << e;
}

TEST_F(ProfErrors, TruncatedRecordId) {
  const std::string e = error_of(log_.header + task_info(4).bytes() + std::string("\x12\0", 2));
  EXPECT_NE(e.find(where(log_.header.size() + 84) + "truncated record: the data ends 2 byte(s) into"), std::string::npos)
      << e;
}

TEST_F(ProfErrors, MissingFieldOfANeededRecord) {
  std::string header = log_.header;
  const std::size_t line = line_of("TaskInfo");
  header.erase(header.find(", fevent:unsigned long long:8}", line), 29);
  const std::string e = error_of(header + log_.records);
  EXPECT_NE(e.find(where(line) + "Legion Prof header: record type TaskInfo has no field 'fevent'"), std::string::npos)
      << e;
}

TEST_F(ProfErrors, ChangedSizeOfANeededRecordsField) {
  std::string header = log_.header;
  const std::size_t line = line_of("TaskInfo");
  header.replace(header.find("task_id:TaskID:4", line), 16, "task_id:TaskID:8");
  const std::string e = error_of(header + log_.records);
  EXPECT_NE(e.find(where(line) +
                   "Legion Prof header: record type TaskInfo has field 'task_id' as 'TaskID:8', not an integer of 4 bytes"),
            std::string::npos)
      << e;
}

TEST_F(ProfErrors, ChangedTypeOfANeededRecordsField) {
  std::string header = log_.header;
  const std::size_t line = line_of("MetaDesc");
  header.replace(header.find("name:string:-1", line), 14, "name:unsigned:4");
  const std::string e = error_of(header + log_.records);
  EXPECT_NE(e.find(where(line) + "Legion Prof header: record type MetaDesc has field 'name' as 'unsigned:4', not a string"),
            std::string::npos)
      << e;
}

TEST_F(ProfErrors, StringWithoutNulAtTheEnd) {
  ProfBytes b = task_info(3);
  b.id(id_of("TaskKind")).u32(5).raw("top_lev", 7);
  const std::string e = error_of(log_.header + b.bytes());
  EXPECT_NE(e.find(where(log_.header.size() + 84) +
                   "truncated TaskKind record: string field 'name' has no NUL before the end of the data"),
            std::string::npos)
      << e;
}

TEST_F(ProfErrors, CorruptGzip) {
  // A wrong CRC in the trailer: every record decodes, then zlib finds the data corrupt. The offset is the
  // stored one (it is the compressed stream that is wrong).
  std::ifstream in(kSample, std::ios::binary);
  std::string gz((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  gz[gz.size() - 8] = static_cast<char>(gz[gz.size() - 8] ^ 0x5a);
  const fs::path file = dir_ / "prof_0.gz";
  std::ofstream(file, std::ios::binary) << gz;
  const std::string e = read_error(file.string());
  EXPECT_NE(e.find(file.string() + ": byte "), std::string::npos) << e;
  EXPECT_NE(e.find("gzip: corrupt data"), std::string::npos) << e;
  EXPECT_EQ(e.find("uncompressed"), std::string::npos) << e;
}

TEST_F(ProfErrors, TruncatedGzip) {
  std::ifstream in(kSample, std::ios::binary);
  std::string gz((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const fs::path file = dir_ / "prof_0.gz";
  std::ofstream(file, std::ios::binary) << gz.substr(0, gz.size() / 2);
  const std::string e = read_error(file.string());
  EXPECT_NE(e.find(file.string() + ": byte "), std::string::npos) << e;
  EXPECT_NE(e.find("gzip: truncated stream"), std::string::npos) << e;
}

TEST_F(ProfErrors, RecordLongerThanTheLimit) {
  // A uuid_size of 2^31 in a ProcDesc: the reader stops at its record limit instead of growing its buffer
  // to the end of the data.
  ProfBytes b;
  b.id(id_of("ProcDesc")).u64(0x1d00000000000001).u32(2).u32(0x80000000u);
  b.raw(std::string(20000, '\0').data(), 20000);
  ProfReadOptions o;
  o.max_record_bytes = 4096;
  try {
    rr::testing::read_prof_bytes(log_.header + b.bytes(), o);
    FAIL() << "no error";
  } catch (const SourceError& e) {
    EXPECT_NE(std::string(e.what()).find("a record longer than the reader's limit"), std::string::npos) << e.what();
    EXPECT_EQ(e.decoded_offset(), log_.header.size());
  }
}

}  // namespace
}  // namespace rr::parser
