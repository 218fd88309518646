// The reader: folders, files, globs and tar archives; gzip, xz and zstd (whole, multi-member, truncated,
// corrupted); binary and empty inputs; chunking, line numbers, thread-count independence, --keep-going.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "parser/trace_reader.hpp"

namespace rr::parser {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() / ("rr_reader_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
  static inline int counter_ = 0;
};

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

void run(const std::string& cmd) { ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd; }

// A small two-node log, each line a known record.
std::string node_log(int node, int repeats = 1) {
  std::string s;
  const std::string p = "[" + std::to_string(node) + " - 7f00" + std::to_string(node) + "] ";
  s += p + "{2}{graph}: Processor: 80000000 1\n" + p + "{2}{graph}: Processor: 80800000 1\n";
  for (int i = 0; i < repeats; ++i) {
    char ev[32];
    std::snprintf(ev, sizeof ev, "(%x,1)", 0x20000000u + (static_cast<unsigned>(node) << 23) + static_cast<unsigned>(i));
    s += p + "{2}{graph}: Task Request: 5 80000000 " + ev + " (0,0) (0,0) 0 (nil) 8\n";
    s += p + "{1}{graph}: Task Time: " + ev + " 10\n";
  }
  return s;
}

// One worker thread unless a test asks for more.
core::Expected<core::TraceRecords> read_logs(const std::vector<std::string>& args, const ReadOptions& o = {},
                                             unsigned threads = 1) {
  return read_trace(args, o, threads);
}

std::uint64_t total(const core::TraceRecords& t, core::RecordKind k) {
  std::uint64_t n = 0;
  for (const auto& f : t.files) n += f.stats.records[k];
  return n;
}

TEST(TraceReader, FolderOfNodeLogsInNodeOrderWithNodesFromPrefixes) {
  TempDir d;
  write(d / "node_1.log", node_log(1, 3));
  write(d / "node_0.log", node_log(0, 2));
  write(d / "README", "not a log");
  auto t = read_logs({d.path().string()});
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  ASSERT_EQ(t->files.size(), 2u);
  EXPECT_EQ(t->files[0].node, 0);
  EXPECT_EQ(t->files[1].node, 1);
  EXPECT_EQ(total(*t, core::RecordKind::task_request), 5u);
  EXPECT_EQ(t->width, core::IdWidth::bits32);
}

// Every node's log lists the whole machine: a processor or memory an earlier file (or line) described is counted,
// not kept again, and the machine, the counts and the record total are what they were.
TEST(TraceReader, MachineRecordsThatRepeatAnEarlierOneAreCountedNotKept) {
  TempDir d;
  const std::string memories = "{2}{graph}: Memory: 60000000 1\n";
  write(d / "node_0.log", node_log(0, 2) + "[0 - 7f000] " + memories + "[0 - 7f000] {2}{graph}: Processor: 80000000 1\n");
  write(d / "node_1.log", node_log(1, 1) + "[1 - 7f001] " + memories + "[1 - 7f001] {2}{graph}: Memory: 60800000 1\n");
  auto t = read_logs({d.path().string()});
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  ASSERT_EQ(t->files.size(), 2u);
  const core::RecordBatch& first = t->files[0].batches.at(0);
  const core::RecordBatch& second = t->files[1].batches.at(0);
  ASSERT_EQ(first.processors.size(), 2u);  // the third line repeats the first
  EXPECT_EQ(first.processors[0].id.value(), 0x80000000u);
  EXPECT_EQ(first.processors[1].id.value(), 0x80800000u);
  EXPECT_EQ(first.memories.size(), 1u);
  EXPECT_TRUE(second.processors.empty());
  ASSERT_EQ(second.memories.size(), 1u);  // the one memory node 0 did not list
  EXPECT_EQ(second.memories[0].id.value(), 0x60800000u);
  EXPECT_EQ(first.released_records, 1u);
  EXPECT_EQ(second.released_records, 3u);
  EXPECT_EQ(total(*t, core::RecordKind::processor), 5u);  // counted as read
  EXPECT_EQ(t->record_count(), 5u + 3u + 3u + 3u);        // processors, memories, task requests, task times
  const core::MachineRecords machine = core::machine_records(*t);
  EXPECT_EQ(machine.processors.size(), 2u);
  EXPECT_EQ(machine.memories.size(), 2u);
}

TEST(TraceReader, NodeFallsBackToTheFileNameWithoutPrefixes) {
  TempDir d;
  write(d / "node_7.log", "Processor: 80000000 1\nTask Time: (20000001,1) 5\n");
  auto t = read_logs({(d / "node_7.log").string()});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->files[0].node, 7);
}

TEST(TraceReader, GlobsExpand) {
  TempDir d;
  write(d / "node_0.log", node_log(0));
  write(d / "node_1.log", node_log(1));
  auto t = read_logs({(d / "node_*.log").string()});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->files.size(), 2u);
}

TEST(TraceReader, LineNumbersAreAbsoluteAcrossChunksAndThreadsDoNotChangeTheResult) {
  TempDir d;
  // About 6 MiB, so the 1 MiB minimum chunk size gives several chunks; one malformed line near the end.
  std::string text = node_log(0, 60000);
  const std::size_t lines_before = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  text += "[0 - 7f000] {2}{graph}: Task Time: (2000zz01,1) 10\n";
  text += node_log(0, 10);
  write(d / "node_0.log", text);
  ReadOptions small;
  small.chunk_bytes = 1;  // clamped to the minimum
  auto one = read_logs({d.path().string()}, small, 1);
  auto two = read_logs({d.path().string()}, small, 2);
  ASSERT_TRUE(one.ok() && two.ok());
  ASSERT_GT(one->files[0].batches.size(), 3u);
  ASSERT_EQ(one->files[0].stats.first_messages.size(), 1u);
  EXPECT_EQ(one->files[0].stats.first_messages[0].where.line, lines_before + 1);
  EXPECT_EQ(one->files[0].stats.first_messages[0].where.file, (d / "node_0.log").string());
  // Same batches, same records, same order, whatever the thread count.
  ASSERT_EQ(one->files[0].batches.size(), two->files[0].batches.size());
  for (std::size_t i = 0; i < one->files[0].batches.size(); ++i) {
    const auto& a = one->files[0].batches[i];
    const auto& b = two->files[0].batches[i];
    EXPECT_EQ(a.first_line, b.first_line);
    ASSERT_EQ(a.task_requests.size(), b.task_requests.size());
    for (std::size_t r = 0; r < a.task_requests.size(); ++r) {
      EXPECT_EQ(a.task_requests[r].finish, b.task_requests[r].finish);
      EXPECT_EQ(a.task_requests[r].line, b.task_requests[r].line);
    }
  }
  EXPECT_EQ(total(*one, core::RecordKind::task_time), 60010u);
  // A record's line: its batch's first line plus its relative line.
  const auto& first = one->files[0].batches[0];
  EXPECT_EQ(first.file_line(first.task_requests[0].line), 3u);
}

TEST(TraceReader, EveryCompressionGivesTheSameRecords) {
  TempDir d;
  write(d / "node_0.log", node_log(0, 5000));
  run("cd " + d.path().string() + " && gzip -k node_0.log && xz -k node_0.log && zstd -q -k node_0.log");
  auto plain = read_logs({(d / "node_0.log").string()});
  ASSERT_TRUE(plain.ok());
  for (const char* ext : {".gz", ".xz", ".zst"}) {
    auto t = read_logs({(d / ("node_0.log" + std::string(ext))).string()});
    ASSERT_TRUE(t.ok()) << ext << ": " << t.error().to_string();
    EXPECT_EQ(t->files[0].stats.records.values, plain->files[0].stats.records.values) << ext;
    EXPECT_EQ(t->files[0].stats.text_bytes, plain->files[0].stats.text_bytes) << ext;
    EXPECT_NE(t->files[0].compression, core::Compression::none) << ext;
    EXPECT_EQ(t->files[0].node, 0) << ext;
  }
}

TEST(TraceReader, MultiMemberGzipAndMultiFrameZstdAreReadWhole) {
  TempDir d;
  write(d / "a", node_log(0, 10));
  write(d / "b", node_log(0, 20));
  run("cd " + d.path().string() + " && gzip -c a > node_0.log.gz && gzip -c b >> node_0.log.gz && zstd -q -c a > node_1.log.zst && zstd -q -c b >> node_1.log.zst");
  for (const char* name : {"node_0.log.gz", "node_1.log.zst"}) {
    auto t = read_logs({(d / name).string()});
    ASSERT_TRUE(t.ok()) << name;
    EXPECT_EQ(total(*t, core::RecordKind::task_request), 30u) << name;
  }
}

TEST(TraceReader, TarArchivesGiveTheSameCountsAsTheFolder) {
  TempDir d;
  fs::create_directories(d / "trace");
  write(d / "trace/node_0.log", node_log(0, 100));
  write(d / "trace/node_1.log", node_log(1, 200));
  write(d / "trace/meta.txt", "not a log");
  run("cd " + d.path().string() + " && tar cf t.tar trace && tar czf t.tar.gz trace && tar cJf t.tar.xz trace && "
      "tar cf - trace | zstd -q -o t.tar.zst && mkdir mixed && cp trace/node_0.log mixed/ && "
      "zstd -q -c trace/node_1.log > mixed/node_1.log.zst && tar cf mixed.tar mixed");
  auto folder = read_logs({(d / "trace").string()});
  ASSERT_TRUE(folder.ok());
  for (const char* name : {"t.tar", "t.tar.gz", "t.tar.xz", "t.tar.zst", "mixed.tar"}) {
    auto t = read_logs({(d / name).string()}, {}, 2);
    ASSERT_TRUE(t.ok()) << name << ": " << t.error().to_string();
    ASSERT_EQ(t->files.size(), 2u) << name;
    EXPECT_EQ(total(*t, core::RecordKind::task_request), 300u) << name;
    EXPECT_EQ(t->files[1].node, 1) << name;
    EXPECT_NE(t->files[0].path.find(std::string(name) + ":"), std::string::npos) << t->files[0].path;
    EXPECT_NE(t->files[0].path.find("/node_0.log"), std::string::npos) << t->files[0].path;
  }
}

// ---- errors ----

void expect_error(const std::vector<std::string>& args, const std::string& file, const std::string& text,
                  bool with_offset = false) {
  auto t = read_logs(args);
  ASSERT_FALSE(t.ok()) << "expected an error about " << text;
  EXPECT_EQ(t.error().where.file, file);
  EXPECT_NE(t.error().message.find(text), std::string::npos) << t.error().to_string();
  if (with_offset) {
    EXPECT_TRUE(t.error().where.byte_offset.has_value()) << t.error().to_string();
  }
}

TEST(TraceReaderErrors, MissingFileDirectoryWithoutLogsAndEmptyTrace) {
  TempDir d;
  expect_error({(d / "node_0.log").string()}, (d / "node_0.log").string(), "no such file");
  fs::create_directories(d / "empty_dir");
  expect_error({(d / "empty_dir").string()}, (d / "empty_dir").string(), "no node_<N>.log");
  write(d / "node_0.log", "");
  expect_error({(d / "node_0.log").string()}, (d / "node_0.log").string(), "empty trace");
  write(d / "node_1.log", "just some text\nand more\n");
  expect_error({(d / "node_1.log").string()}, (d / "node_1.log").string(), "empty trace");
  expect_error({(d / "nothing_*.log").string()}, (d / "nothing_*.log").string(), "no file matches");
}

TEST(TraceReaderErrors, OneNodeTwiceInAFolderOrArchiveIsAnError) {
  TempDir d;
  fs::create_directories(d / "trace");
  write(d / "trace/node_0.log", node_log(0, 3));
  run("cd " + d.path().string() + " && gzip -k trace/node_0.log && tar cf t.tar trace");
  expect_error({(d / "trace").string()}, (d / "trace").string(), "both node_0.log and node_0.log.gz hold node 0");
  expect_error({(d / "t.tar").string()}, (d / "t.tar").string(), "both hold node 0");
}

TEST(TraceReaderErrors, BinaryFileIsRejected) {
  TempDir d;
  std::string bytes(4096, '\0');
  std::mt19937 rng(7);
  for (auto& c : bytes) c = static_cast<char>(rng() % 7 == 0 ? 0 : rng());
  write(d / "node_0.log", bytes);
  expect_error({(d / "node_0.log").string()}, (d / "node_0.log").string(), "binary data");
}

class DamagedStream : public ::testing::TestWithParam<const char*> {};

TEST_P(DamagedStream, TruncatedAndCorruptedStreamsNameTheFileAndOffset) {
  TempDir d;
  const std::string tool = GetParam();
  const std::string ext = tool == "gzip" ? ".gz" : tool == "xz" ? ".xz" : ".zst";
  write(d / "node_0.log", node_log(0, 20000));
  run("cd " + d.path().string() + " && " + tool + " -q -k node_0.log");
  const fs::path packed = d / ("node_0.log" + ext);
  std::string data;
  {
    std::ifstream in(packed, std::ios::binary);
    data.assign(std::istreambuf_iterator<char>(in), {});
  }
  ASSERT_GT(data.size(), 1000u);
  write(packed, data.substr(0, data.size() / 2));
  expect_error({packed.string()}, packed.string(), "truncated", true);
  std::string corrupt = data;
  for (std::size_t i = corrupt.size() / 3; i < corrupt.size() / 3 + 64; ++i) corrupt[i] = static_cast<char>(~corrupt[i]);
  write(packed, corrupt);
  auto t = read_logs({packed.string()});
  ASSERT_FALSE(t.ok()) << tool << ": corruption went unnoticed";
  EXPECT_EQ(t.error().where.file, packed.string());
  EXPECT_TRUE(t.error().where.byte_offset.has_value());
}

INSTANTIATE_TEST_SUITE_P(EveryFormat, DamagedStream, ::testing::Values("gzip", "xz", "zstd"));

TEST(TraceReaderErrors, KeepGoingReportsTheBadFileAndReadsTheOthers) {
  TempDir d;
  write(d / "node_0.log", node_log(0, 10));
  write(d / "node_1.log.zst", std::string("\x28\xb5\x2f\xfd", 4) + "garbage that is not a zstd frame");
  ReadOptions o;
  auto strict = read_logs({d.path().string()}, o, 2);
  ASSERT_FALSE(strict.ok());
  EXPECT_EQ(strict.error().where.file, (d / "node_1.log.zst").string());
  o.keep_going = true;
  auto t = read_logs({d.path().string()}, o, 2);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->files.size(), 1u);
  ASSERT_EQ(t->failed_files.size(), 1u);
  EXPECT_EQ(t->failed_files[0].where.file, (d / "node_1.log.zst").string());
  EXPECT_EQ(total(*t, core::RecordKind::task_request), 10u);
}

TEST(TraceReaderErrors, OverlongLineIsCountedAndReadingGoesOn) {
  TempDir d;
  // With the smallest chunk (1 MiB), a 3 MiB line cannot be held whole: it is reported and skipped.
  std::string text = node_log(0, 2) + std::string(3u << 20, 'x') + "\n" + node_log(0, 3);
  write(d / "node_0.log", text);
  ReadOptions o;
  o.chunk_bytes = 1;
  auto t = read_logs({(d / "node_0.log").string()}, o);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->files[0].stats.counts[core::Stat::line_too_long], 1u);
  EXPECT_EQ(total(*t, core::RecordKind::task_request), 5u);
}

TEST(TraceReader, WidthDetection) {
  TempDir d;
  write(d / "node_0.log", "Processor: 8000100000000000 1\nTask Time: (2000100000000001,1) 5\n");
  auto t64 = read_logs({(d / "node_0.log").string()});
  ASSERT_TRUE(t64.ok());
  EXPECT_EQ(t64->width, core::IdWidth::bits64);
  EXPECT_FALSE(t64->mixed_widths);
  write(d / "node_1.log", "Processor: 80000000 1\n");
  auto mixed = read_logs({d.path().string()});
  ASSERT_TRUE(mixed.ok());
  EXPECT_TRUE(mixed->mixed_widths);
}

// ---- the real traces: every count in their meta.txt ----

struct MetaCounts {
  const char* file;
  std::array<std::uint64_t, 14> counts;  // in RecordKind order
};

TEST(RealTraces, CountsMatchTheirMetaFiles) {
  const std::string root = RR_SOURCE_DIR "/data/traces/real/";
  // Processor, Group, Memory, Task Request, Task Time, Task Wait, Event Merge, Event Precondition, Event Trigger,
  // Barrier Creation, Barrier Alter, Barrier Arrive, Copy Request, Copy Size (from meta.txt).
  const MetaCounts expected[] = {
      {"full_circuit_2node_p4_cpu2/node_0.log.zst", {8, 1, 3, 793, 821, 22, 379, 1764, 542, 0, 0, 0, 16, 46}},
      {"full_circuit_2node_p4_cpu2/node_1.log.zst", {8, 1, 3, 1370, 1296, 50, 867, 7985, 366, 0, 0, 0, 60, 30}},
      {"full_ghost_b2_cpu2/node_0.log.zst", {4, 1, 2, 823, 823, 4, 340, 993, 650, 8, 0, 76, 80, 80}},
  };
  for (const auto& e : expected) {
    auto t = read_logs({root + e.file}, {}, 2);
    ASSERT_TRUE(t.ok()) << e.file;
    EXPECT_EQ(t->files[0].stats.records.values, e.counts) << e.file;
    EXPECT_EQ(t->files[0].stats.malformed_total(), 0u) << e.file;
    EXPECT_EQ(t->width, core::IdWidth::bits32);
    EXPECT_EQ(t->era, core::Era::e2c);
  }
  auto circuit = read_logs({root + "full_circuit_2node_p4_cpu2"}, {}, 2);
  ASSERT_TRUE(circuit.ok());
  EXPECT_EQ(circuit->files[0].stats.lines, 4449u);
  EXPECT_EQ(circuit->files[1].stats.lines, 12090u);
  EXPECT_EQ(circuit->files[1].node, 1);
}

}  // namespace
}  // namespace rr::parser
