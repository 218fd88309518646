// Legion Prof logs wherever a TRACE goes, found by content: folders, file lists, globs, tar archives, plain
// or gzip; the node from MachineDesc (the name as fallback); mixed formats and two logs of a node refused.
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

const fs::path kMpi2 = fs::path(RR_SOURCE_DIR) / "data/traces/legion-prof/circuit_mpi2_medium_cpu2_util1";
const fs::path kGhost = fs::path(RR_SOURCE_DIR) / "data/traces/real/full_ghost_b2_cpu2";

class ProfInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.emplace("rr_prof_inputs");
    dir_ = scratch_->path();
  }
  void TearDown() override { scratch_.reset(); }
  void run(const std::string& cmd) { ASSERT_EQ(std::system(("cd '" + dir_.string() + "' && " + cmd).c_str()), 0) << cmd; }
  static core::Expected<core::TraceRecords> read(const std::vector<std::string>& args) {
    return read_trace(args, {}, 2);
  }
  static std::uint64_t records(const core::TraceRecords& t) { return t.record_count(); }
  std::optional<rr::testing::TestDir> scratch_;
  fs::path dir_;
};

TEST_F(ProfInputs, AFolderOfProfLogsBesideOtherFiles) {
  auto t = read({kMpi2.string()});
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  EXPECT_EQ(t->format, core::TraceFormat::legion_prof);
  ASSERT_EQ(t->files.size(), 2u);  // meta.txt, stdout.txt, the oracle files are not logs
  EXPECT_EQ(t->files[0].node, 0);
  EXPECT_EQ(t->files[1].node, 1);
  EXPECT_EQ(t->files[0].compression, core::Compression::gzip);
  EXPECT_EQ(records(*t), 16583u + 17762u);
  EXPECT_EQ(t->files[0].stats.text_bytes, 1348288u);
}

TEST_F(ProfInputs, FoundByContentWhateverTheNameAndPlainOrCompressed) {
  fs::create_directories(dir_ / "run");
  fs::copy_file(kMpi2 / "prof_1.gz", dir_ / "run" / "first.bin");
  run("gzip -dc '" + (kMpi2 / "prof_0.gz").string() + "' > run/node_log_7");  // uncompressed, as without zlib
  auto t = read({(dir_ / "run").string()});
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  ASSERT_EQ(t->files.size(), 2u);
  EXPECT_EQ(records(*t), 16583u + 17762u);
  // The node is MachineDesc's, not the name's.
  for (const auto& f : t->files) EXPECT_EQ(f.node, f.path.ends_with("first.bin") ? 1 : 0) << f.path;
  for (const auto& f : t->files)
    EXPECT_EQ(f.compression, f.path.ends_with("first.bin") ? core::Compression::gzip : core::Compression::none);
}

TEST_F(ProfInputs, FileListsGlobsAndArchives) {
  const std::uint64_t want = 16583u + 17762u;
  auto files = read({(kMpi2 / "prof_1.gz").string(), (kMpi2 / "prof_0.gz").string()});
  ASSERT_TRUE(files.ok()) << files.error().to_string();
  EXPECT_EQ(records(*files), want);
  EXPECT_EQ(files->files[0].node, 1);  // argument order is kept
  auto glob = read({(kMpi2 / "prof_*.gz").string()});
  ASSERT_TRUE(glob.ok()) << glob.error().to_string();
  EXPECT_EQ(records(*glob), want);
  run("mkdir run && cp '" + (kMpi2 / "prof_0.gz").string() + "' '" + (kMpi2 / "prof_1.gz").string() +
      "' '" + (kMpi2 / "meta.txt").string() + "' run/ && tar cf run.tar run && tar czf run.tgz run && "
      "gzip -d run/prof_1.gz && tar cJf plain.tar.xz run");
  for (const char* archive : {"run.tar", "run.tgz", "plain.tar.xz"}) {
    auto t = read({(dir_ / archive).string()});
    ASSERT_TRUE(t.ok()) << archive << ": " << t.error().to_string();
    EXPECT_EQ(t->format, core::TraceFormat::legion_prof);
    EXPECT_EQ(records(*t), want) << archive;
    ASSERT_EQ(t->files.size(), 2u);
    EXPECT_NE(t->files[0].path.find(std::string(archive) + ":run/prof_"), std::string::npos) << t->files[0].path;
  }
}

TEST_F(ProfInputs, AFolderMixingFormatsIsAnError) {
  fs::create_directories(dir_ / "mixed");
  fs::copy_file(kMpi2 / "prof_0.gz", dir_ / "mixed" / "prof_0.gz");
  fs::copy_file(kGhost / "node_0.log.zst", dir_ / "mixed" / "node_0.log.zst");
  auto t = read({(dir_ / "mixed").string()});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().to_string().find("mixes Realm event-graph logs (node_0.log.zst) and Legion Prof logs (prof_0.gz)"),
            std::string::npos)
      << t.error().to_string();
}

TEST_F(ProfInputs, FilesOrArchivesMixingFormatsAreAnError) {
  auto files = read({(kMpi2 / "prof_0.gz").string(), (kGhost / "node_0.log.zst").string()});
  ASSERT_FALSE(files.ok());
  EXPECT_NE(files.error().to_string().find("a trace is one format or the other"), std::string::npos)
      << files.error().to_string();
  run("mkdir run && cp '" + (kMpi2 / "prof_1.gz").string() + "' '" + (kGhost / "node_0.log.zst").string() +
      "' run/ && tar cf run.tar run");
  auto archive = read({(dir_ / "run.tar").string()});
  ASSERT_FALSE(archive.ok());
  EXPECT_NE(archive.error().to_string().find("archive mixes"), std::string::npos) << archive.error().to_string();
}

TEST_F(ProfInputs, TwoLogsOfOneNodeAreAnError) {
  fs::create_directories(dir_ / "run");
  fs::copy_file(kMpi2 / "prof_0.gz", dir_ / "run" / "prof_0.gz");
  fs::copy_file(kMpi2 / "prof_0.gz", dir_ / "run" / "prof_5.gz");  // a copy under another name: still node 0
  auto t = read({(dir_ / "run").string()});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().to_string().find("prof_5.gz: holds node 0 (MachineDesc), as"), std::string::npos)
      << t.error().to_string();
}

TEST_F(ProfInputs, NodeFromTheNameWithoutMachineDesc) {
  const std::string log = rr::testing::prof_header({"ZeroTime {id:60, zero_time:long long:8}"}) +
                          rr::testing::ProfBytes().id(60).i64(5).bytes();
  std::ofstream(dir_ / "prof_12.gz", std::ios::binary) << log;  // plain, whatever the name says
  auto t = read({(dir_ / "prof_12.gz").string()});
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  EXPECT_EQ(t->files[0].node, 12);
  EXPECT_FALSE(t->files[0].profile.machine.has_value());
  EXPECT_EQ(t->files[0].profile.zero_time.value(), 5);
}

TEST_F(ProfInputs, ACorruptLogInAProfFolderIsReportedNotSkipped) {
  fs::create_directories(dir_ / "run");
  fs::copy_file(kMpi2 / "prof_0.gz", dir_ / "run" / "prof_0.gz");
  std::ofstream(dir_ / "run" / "prof_1.gz", std::ios::binary) << "\x1f\x8b\x08\x00garbage that is no deflate data";
  auto t = read({(dir_ / "run").string()});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().to_string().find("prof_1.gz: byte"), std::string::npos) << t.error().to_string();
  ReadOptions o;
  o.keep_going = true;
  auto kept = read_trace({(dir_ / "run").string()}, o);
  ASSERT_TRUE(kept.ok()) << kept.error().to_string();
  EXPECT_EQ(kept->files.size(), 1u);
  EXPECT_EQ(kept->failed_files.size(), 1u);
}

TEST_F(ProfInputs, TextTracesAreReadAsBefore) {
  auto t = read({kGhost.string()});
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  EXPECT_EQ(t->format, core::TraceFormat::realm_text);
  EXPECT_EQ(t->files[0].format, core::TraceFormat::realm_text);
  EXPECT_EQ(t->files[0].profile.record_count(), 0u);
}

}  // namespace
}  // namespace rr::parser
