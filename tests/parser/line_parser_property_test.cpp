// Property tests of the line parser: random and mutated lines never crash it and every line is accounted for
// exactly once; every well-formed line of every kind gives exactly one record that re-formats to itself.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "parser/line_parser.hpp"

namespace rr::parser {
namespace {

struct Gen {
  std::mt19937_64 rng;
  explicit Gen(std::uint64_t seed) : rng(seed) {}
  std::uint64_t below(std::uint64_t n) { return rng() % n; }
  std::string id() {
    char b[24];
    std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(0x20000000ull | below(1u << 23)));
    return b;
  }
  std::string event() {
    if (below(5) == 0) return "(0,0)";
    return "(" + id() + "," + std::to_string(below(100)) + ")";
  }
  // A well-formed record of kind k, as the runtime prints it.
  std::string record(core::RecordKind k) {
    using K = core::RecordKind;
    switch (k) {
      case K::processor: return "Processor: 8" + id().substr(1) + " " + std::to_string(below(3));
      case K::group: {
        std::uint64_t n = 1 + below(5);
        std::string s = "Group: 9" + id().substr(1) + " " + std::to_string(n);
        for (std::uint64_t i = 0; i < n; ++i) s += " 8" + id().substr(1);
        return s;
      }
      case K::memory: return "Memory: 6" + id().substr(1) + " " + std::to_string(below(6));
      case K::task_request:
        return "Task Request: " + std::to_string(below(40)) + " 8" + id().substr(1) + " " + event() + " " + event() + " " +
               event() + " " + std::to_string(static_cast<int>(below(7)) - 3) + " " +
               (below(2) ? std::string("(nil)") : "0x7fff" + id()) + " " + std::to_string(below(200));
      case K::task_time: return "Task Time: " + event() + " " + std::to_string(below(100000));
      case K::task_wait: return "Task Wait: " + event() + " " + event() + " " + std::to_string(below(100000));
      case K::event_merge: return "Event Merge: " + event() + " " + std::to_string(below(9));
      case K::event_precondition: return "Event Precondition: " + event() + " " + event();
      case K::event_trigger: return "Event Trigger: " + event() + " " + event() + " " + event();
      case K::barrier_creation: return "Barrier Creation: " + id() + " " + std::to_string(below(5));
      case K::barrier_alter: return "Barrier Alter: " + event() + " " + event() + " " + std::to_string(static_cast<int>(below(5)) - 2);
      case K::barrier_arrive: return "Barrier Arrive: " + event() + " " + event() + " " + event() + " " + std::to_string(below(3));
      case K::copy_request: return "Copy Request: " + event() + " " + event() + " " + event() + " 6" + id().substr(1) + " 6" + id().substr(1);
      case K::copy_size: return "Copy Size: " + event() + " " + std::to_string(below(1u << 30));
    }
    return "";
  }
  std::string mutate(std::string s) {
    const int edits = 1 + static_cast<int>(below(4));
    for (int e = 0; e < edits && !s.empty(); ++e) {
      std::size_t at = below(s.size());
      switch (below(4)) {
        case 0: s[at] = static_cast<char>(below(256)); break;
        case 1: s.erase(at, 1 + below(3)); break;
        case 2: s.insert(at, 1, "(),: 0x-9af\t"[below(12)]); break;
        case 3: s.resize(at); break;
      }
    }
    return s;
  }
};

std::string prefix(Gen& g) {
  return "[" + std::to_string(g.below(4)) + " - 7fff" + g.id() + "] {" + std::to_string(1 + g.below(2)) + "}{graph}: ";
}

void expect_accounted(const core::FileStats& s, const core::RecordBatch& b) {
  EXPECT_EQ(s.records.total() + s.skipped_total() + s.malformed_total(), s.lines);
  EXPECT_EQ(s.records.total(), b.record_count());
}

TEST(LineParserProperty, EveryWellFormedLineGivesExactlyOneRecordOfItsKind) {
  Gen g(1);
  for (int round = 0; round < 300; ++round) {
    for (auto kind : core::all_record_kinds()) {
      core::RecordBatch batch;
      core::FileStats stats;
      LineParser parser(batch, stats, 3);
      const std::string line = (round % 2 ? prefix(g) : std::string()) + g.record(kind);
      parser.parse_line(line, 0);
      ASSERT_EQ(stats.records[kind], 1u) << line;
      ASSERT_EQ(batch.record_count(), 1u) << line;
      ASSERT_EQ(stats.malformed_total(), 0u) << line;
    }
  }
}

TEST(LineParserProperty, RecordsRoundTripThroughTheirPrintedForm) {
  Gen g(2);
  for (int round = 0; round < 500; ++round) {
    const std::string line = g.record(core::RecordKind::task_request);
    core::RecordBatch batch;
    core::FileStats stats;
    LineParser(batch, stats, 1).parse_line(line, 0);
    ASSERT_EQ(batch.task_requests.size(), 1u);
    const auto& t = batch.task_requests[0];
    // Re-print with the runtime's format and compare field by field with the input.
    std::string again = "Task Request: " + std::to_string(static_cast<std::int32_t>(t.func_id)) + " " +
                        core::hex(t.target.value()) + " " + core::to_string(t.finish) + " " + core::to_string(t.precondition) +
                        " " + core::to_string(t.enclosing) + " " + std::to_string(t.priority);
    EXPECT_EQ(line.substr(0, again.size()), again);
  }
}

TEST(LineParserProperty, MutatedAndRandomLinesNeverCrashAndAreAllAccountedFor) {
  Gen g(3);
  core::RecordBatch batch;
  core::FileStats stats;
  LineParser parser(batch, stats, 5);
  std::uint32_t n = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string line;
    switch (g.below(3)) {
      case 0: line = g.mutate(prefix(g) + g.record(static_cast<core::RecordKind>(g.below(14)))); break;
      case 1: line = g.mutate(g.record(static_cast<core::RecordKind>(g.below(14)))); break;
      case 2:
        for (std::uint64_t i = 0, len = g.below(120); i < len; ++i) line.push_back(static_cast<char>(g.below(256)));
        break;
    }
    line.erase(std::remove(line.begin(), line.end(), '\n'), line.end());
    parser.parse_line(line, n++);
  }
  expect_accounted(stats, batch);
  EXPECT_EQ(stats.lines, 20000u);
  EXPECT_GT(stats.malformed_total(), 1000u);  // the mutations do break lines...
  EXPECT_GT(stats.records.total(), 300u);     // ...and some survive as valid records
  EXPECT_LE(stats.first_messages.size(), 5u);
}

}  // namespace
}  // namespace rr::parser
