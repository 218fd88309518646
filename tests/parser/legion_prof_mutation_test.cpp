// Property test: real Legion Prof logs cut at many points and with bytes flipped (decoded and compressed)
// are either read whole, with records that hold together, or refused with a SourceError; never a crash, a
// hang or another exception. Run under ASan/UBSan, this also checks every read stays in bounds.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "parser/legion_prof_reader.hpp"
#include "support/prof_invariants.hpp"
#include "support/prof_log_builder.hpp"

namespace rr::parser {
namespace {

const std::string kRuns = std::string(RR_SOURCE_DIR) + "/data/traces/legion-prof/";

enum class Outcome { read, refused };

// Reads decoded bytes; a small record limit keeps a corrupted length from growing the buffer for long.
Outcome read_decoded(const std::string& data, std::size_t buffer_bytes = 4096) {
  ProfReadOptions o;
  o.buffer_bytes = buffer_bytes;
  o.max_record_bytes = 1 << 20;
  try {
    const core::ProfileRecords p = rr::testing::read_prof_bytes(data, o);
    EXPECT_EQ(p.data_bytes, data.size());
    EXPECT_EQ(rr::testing::prof_invariant_violation(p), "");
    return Outcome::read;
  } catch (const SourceError& e) {
    EXPECT_TRUE(e.decoded_offset().has_value()) << e.what();
    EXPECT_LE(e.decoded_offset().value_or(0), data.size()) << e.what();
    return Outcome::refused;
  }
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(LegionProfMutations, TruncatedAnywhereIsReadOrRefused) {
  const std::string decoded = rr::testing::decompress_file(kRuns + "multiple_partitions_n1024_b4_cpu1_util1/prof_0.gz");
  const std::size_t header = find_prof_header_end(decoded);
  int read = 0, refused = 0;
  // Every byte of the header and the first records, then evenly spread cuts.
  std::vector<std::size_t> cuts;
  for (std::size_t i = 0; i < header + 600; i += 7) cuts.push_back(i);
  for (std::size_t i = header + 600; i < decoded.size(); i += decoded.size() / 300) cuts.push_back(i);
  for (std::size_t cut : cuts) (read_decoded(decoded.substr(0, cut)) == Outcome::read ? read : refused)++;
  // A cut between records reads; a cut inside the header or a record is refused.
  EXPECT_GT(refused, 300);
  EXPECT_GT(read, 0);
  EXPECT_EQ(read_decoded(decoded), Outcome::read);
}

TEST(LegionProfMutations, FlippedDecodedBytesAreReadOrRefused) {
  const std::string decoded = rr::testing::decompress_file(kRuns + "circuit_small_cpu2_util1/prof_0.gz");
  const std::size_t header = find_prof_header_end(decoded);
  std::mt19937_64 rng(13);
  int refused = 0;
  for (int i = 0; i < 400; ++i) {
    std::string data = decoded;
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < flips; ++k) {
      // One mutation in ten hits the header, the others the records.
      const std::size_t at = (i % 10 == 0) ? rng() % header : header + rng() % (data.size() - header);
      data[at] = static_cast<char>(data[at] ^ static_cast<char>(1 + rng() % 255));
    }
    if (read_decoded(data, i % 2 ? 4096 : 100000) == Outcome::refused) ++refused;
  }
  // Most flips in a record's fields leave it readable; flips of type ids and header bytes are refused.
  EXPECT_GT(refused, 20);
  EXPECT_LT(refused, 400);
}

TEST(LegionProfMutations, CorruptedOrCutGzipIsReadOrRefused) {
  const std::string gz = file_bytes(kRuns + "ghost_n1024_b2_s10_cpu2_util1/prof_0.gz");
  std::mt19937_64 rng(7);
  int refused = 0;
  for (int i = 0; i < 120; ++i) {
    std::string data = gz;
    if (i % 3 == 0) {
      data.resize(rng() % data.size());
    } else {
      const std::size_t at = rng() % data.size();
      data[at] = static_cast<char>(data[at] ^ static_cast<char>(1 + rng() % 255));
    }
    ProfReadOptions o;
    o.max_record_bytes = 1 << 20;
    try {
      auto source = open_decoded(std::make_unique<rr::testing::MemorySource>(data));
      const core::ProfileRecords p = read_legion_prof(*source, o);
      EXPECT_EQ(rr::testing::prof_invariant_violation(p), "");
    } catch (const SourceError&) {
      ++refused;
    }
  }
  // zlib's checksum catches nearly every change; a flip in the gzip header's name or time fields may not.
  EXPECT_GT(refused, 100);
}

}  // namespace
}  // namespace rr::parser
