// The X3 grammar: every record kind in both id widths, with and without the logger prefix, every quirk of
// docs/realm-log-format.md (Records), and one broken field per record kind.
#include <gtest/gtest.h>

#include <string>

#include "parser/line_parser.hpp"

namespace rr::parser {
namespace {

using core::RecordKind;

struct Parsed {
  core::RecordBatch batch;
  core::FileStats stats;
};

Parsed parse(const std::vector<std::string>& lines) {
  Parsed p;
  LineParser parser(p.batch, p.stats, 10);
  std::uint32_t n = 0;
  for (const auto& l : lines) parser.parse_line(l, n++);
  return p;
}

Parsed parse1(const std::string& line) { return parse({line}); }

std::string prefixed(const std::string& body, int level = 2, int node = 0) {
  return "[" + std::to_string(node) + " - 7fffe221a6c0] {" + std::to_string(level) + "}{graph}: " + body;
}

// Each record is checked as logged (with the prefix) and bare (without it), in both widths.
struct Variant {
  std::string line;
  const char* name;
};
std::vector<Variant> variants(const std::string& body, int level) {
  return {{prefixed(body, level), "prefixed"}, {body, "bare"}};
}


std::string ev(std::uint64_t id, std::uint32_t gen) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "(%llx,%u)", static_cast<unsigned long long>(id), gen);
  return buf;
}
std::string hx(std::uint64_t id) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(id));
  return buf;
}

// Ids for each width: 32-bit (8 digits) and 64-bit (16 digits).
struct Ids {
  std::uint64_t event, event2, event3, proc, group, mem, mem2;
};
const Ids kIds32{0x20000005, 0x20800001, 0x2000000f, 0x80800001, 0x90000001, 0x60000000, 0x607f0000};
const Ids kIds64{0x2000100000000005, 0x2000200000000001, 0x200000000000000f, 0x8000100000000001, 0x9000000000000001,
                 0x6000000000000000, 0x60000fff00000000};

class Records : public ::testing::TestWithParam<bool> {
 protected:
  const Ids& ids() const { return GetParam() ? kIds64 : kIds32; }
};
INSTANTIATE_TEST_SUITE_P(Widths, Records, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "ids64" : "ids32"; });

TEST_P(Records, Processor) {
  for (const auto& v : variants("Processor: " + hx(ids().proc) + " 2", 2)) {
    auto p = parse1(v.line);
    ASSERT_EQ(p.batch.processors.size(), 1u) << v.name;
    EXPECT_EQ(p.batch.processors[0].id.value(), ids().proc);
    EXPECT_EQ(p.batch.processors[0].kind, core::ProcessorKind::utility);
    EXPECT_EQ(p.stats.records[RecordKind::processor], 1u);
  }
}

TEST_P(Records, Group) {
  for (const auto& v : variants("Group: " + hx(ids().group) + " 2 " + hx(ids().proc) + " " + hx(ids().proc + 1), 2)) {
    auto p = parse1(v.line);
    ASSERT_EQ(p.batch.groups.size(), 1u) << v.name;
    const auto& g = p.batch.groups[0];
    EXPECT_EQ(g.id.value(), ids().group);
    ASSERT_EQ(g.member_count, 2u);
    EXPECT_EQ(p.batch.group_members[g.first_member], ids().proc);
    EXPECT_EQ(p.batch.group_members[g.first_member + 1], ids().proc + 1);
  }
}

TEST_P(Records, Memory) {
  for (const auto& v : variants("Memory: " + hx(ids().mem2) + " 0", 2)) {
    auto p = parse1(v.line);
    ASSERT_EQ(p.batch.memories.size(), 1u) << v.name;
    EXPECT_EQ(p.batch.memories[0].id.value(), ids().mem2);
    EXPECT_EQ(p.batch.memories[0].kind, core::MemoryKind::global);
  }
}

TEST_P(Records, TaskRequest) {
  std::string body = "Task Request: 5 " + hx(ids().proc) + " " + ev(ids().event, 2) + " " + ev(ids().event2, 1) + " " +
                     ev(ids().event3, 7) + " -3 0x7fffe2219ab8 24";
  for (const auto& v : variants(body, 2)) {
    auto p = parse1(v.line);
    ASSERT_EQ(p.batch.task_requests.size(), 1u) << v.name;
    const auto& t = p.batch.task_requests[0];
    EXPECT_EQ(t.func_id, 5u);
    EXPECT_EQ(t.target.value(), ids().proc);
    EXPECT_EQ(t.finish, core::EventKey::make(ids().event, 2));
    EXPECT_EQ(t.precondition, core::EventKey::make(ids().event2, 1));
    EXPECT_EQ(t.enclosing, core::EventKey::make(ids().event3, 7));
    EXPECT_EQ(t.priority, -3);
    EXPECT_EQ(p.stats.null_args, 0u);
  }
}

TEST_P(Records, TaskTime) {
  for (const auto& v : variants("Task Time: " + ev(ids().event, 3) + " 7315", 1)) {
    auto p = parse1(v.line);
    ASSERT_EQ(p.batch.task_times.size(), 1u) << v.name;
    EXPECT_EQ(p.batch.task_times[0].finish, core::EventKey::make(ids().event, 3));
    EXPECT_EQ(p.batch.task_times[0].micros, 7315u);
    EXPECT_EQ(p.stats.unexpected_level, 0u);
  }
}

TEST_P(Records, TaskWait) {
  for (const auto& v : variants("Task Wait: " + ev(ids().event, 1) + " " + ev(ids().event2, 4) + " 7230", 1)) {
    auto p = parse1(v.line);
    ASSERT_EQ(p.batch.task_waits.size(), 1u) << v.name;
    EXPECT_EQ(p.batch.task_waits[0].waiter, core::EventKey::make(ids().event, 1));
    EXPECT_EQ(p.batch.task_waits[0].awaited, core::EventKey::make(ids().event2, 4));
    EXPECT_EQ(p.batch.task_waits[0].micros, 7230u);
  }
}

TEST_P(Records, EventMerge) {
  for (const auto& v : variants("Event Merge: " + ev(ids().event, 9) + " 6", 2)) {
    auto p = parse1(v.line);
    ASSERT_EQ(p.batch.event_merges.size(), 1u) << v.name;
    EXPECT_EQ(p.batch.event_merges[0].merged, core::EventKey::make(ids().event, 9));
    EXPECT_EQ(p.batch.event_merges[0].input_count, 6u);
  }
}

TEST_P(Records, EventPrecondition) {
  for (const auto& v : variants("Event Precondition: " + ev(ids().event, 9) + " " + ev(ids().event2, 0), 2)) {
    auto p = parse1(v.line);
    ASSERT_EQ(p.batch.event_preconditions.size(), 1u) << v.name;
    EXPECT_EQ(p.batch.event_preconditions[0].merged, core::EventKey::make(ids().event, 9));
    EXPECT_EQ(p.batch.event_preconditions[0].input, core::EventKey::make(ids().event2, 0));
    EXPECT_EQ(p.stats.era.spaced_preconditions, 0u);
  }
}

TEST_P(Records, EventTrigger) {
  for (const auto& v : variants("Event Trigger: " + ev(ids().event, 2) + " (0,0) " + ev(ids().event3, 1), 2)) {
    auto p = parse1(v.line);
    ASSERT_EQ(p.batch.event_triggers.size(), 1u) << v.name;
    EXPECT_EQ(p.batch.event_triggers[0].event, core::EventKey::make(ids().event, 2));
    EXPECT_TRUE(p.batch.event_triggers[0].wait_on.is_none());
    EXPECT_EQ(p.batch.event_triggers[0].enclosing, core::EventKey::make(ids().event3, 1));
  }
}

TEST_P(Records, BarrierCreation) {
  for (const auto& v : variants("Barrier Creation: " + hx(ids().event) + " 3", 2)) {
    auto p = parse1(v.line);
    ASSERT_EQ(p.batch.barrier_creations.size(), 1u) << v.name;
    EXPECT_EQ(p.batch.barrier_creations[0].id.value(), ids().event);
    EXPECT_EQ(p.batch.barrier_creations[0].expected_arrivals, 3u);
  }
}

TEST_P(Records, BarrierAlter) {
  for (const auto& v : variants("Barrier Alter: " + ev(ids().event, 4) + " " + ev(ids().event3, 1) + " -1", 2)) {
    auto p = parse1(v.line);
    ASSERT_EQ(p.batch.barrier_alters.size(), 1u) << v.name;
    EXPECT_EQ(p.batch.barrier_alters[0].phase, core::EventKey::make(ids().event, 4));
    EXPECT_EQ(p.batch.barrier_alters[0].enclosing, core::EventKey::make(ids().event3, 1));
    EXPECT_EQ(p.batch.barrier_alters[0].delta, -1);
  }
}

TEST_P(Records, BarrierArrive) {
  for (const auto& v :
       variants("Barrier Arrive: " + ev(ids().event, 3) + " " + ev(ids().event2, 2) + " " + ev(ids().event3, 2) + " 1", 2)) {
    auto p = parse1(v.line);
    ASSERT_EQ(p.batch.barrier_arrives.size(), 1u) << v.name;
    const auto& a = p.batch.barrier_arrives[0];
    EXPECT_EQ(a.phase, core::EventKey::make(ids().event, 3));
    EXPECT_EQ(a.wait_on, core::EventKey::make(ids().event2, 2));
    EXPECT_EQ(a.enclosing, core::EventKey::make(ids().event3, 2));
    EXPECT_EQ(a.count, 1u);
  }
}

TEST_P(Records, CopyRequest) {
  std::string body = "Copy Request: " + ev(ids().event, 1) + " " + ev(ids().event2, 1) + " " + ev(ids().event3, 3) + " " +
                     hx(ids().mem) + " " + hx(ids().mem2);
  for (const auto& v : variants(body, 2)) {
    auto p = parse1(v.line);
    ASSERT_EQ(p.batch.copy_requests.size(), 1u) << v.name;
    const auto& c = p.batch.copy_requests[0];
    EXPECT_EQ(c.copy, core::EventKey::make(ids().event, 1));
    EXPECT_EQ(c.wait_on, core::EventKey::make(ids().event2, 1));
    EXPECT_EQ(c.enclosing, core::EventKey::make(ids().event3, 3));
    EXPECT_EQ(c.src_memory.value(), ids().mem);
    EXPECT_EQ(c.dst_memory.value(), ids().mem2);
  }
}

TEST_P(Records, CopySize) {
  for (const auto& v : variants("Copy Size: " + ev(ids().event, 6) + " 112000", 1)) {
    auto p = parse1(v.line);
    ASSERT_EQ(p.batch.copy_sizes.size(), 1u) << v.name;
    EXPECT_EQ(p.batch.copy_sizes[0].copy, core::EventKey::make(ids().event, 6));
    EXPECT_EQ(p.batch.copy_sizes[0].bytes, 112000u);
  }
}

// Task Times and Copy Sizes keep their 64-bit values in two 32-bit halves (core::Split64): values past 2^32, the
// largest Task Time allowed and the largest Copy Size come back whole.
TEST_P(Records, SixtyFourBitValuesComeBackWhole) {
  const std::uint64_t longest = core::kMaxLoggedMicros;
  for (std::uint64_t micros :
       {std::uint64_t{1} << 32, (std::uint64_t{1} << 32) + 1, std::uint64_t{0xffffffff}, longest}) {
    auto p = parse1(prefixed("Task Time: " + ev(ids().event, 3) + " " + std::to_string(micros), 1));
    ASSERT_EQ(p.batch.task_times.size(), 1u) << micros;
    EXPECT_EQ(std::uint64_t{p.batch.task_times[0].micros}, micros);
  }
  for (std::uint64_t bytes : {std::uint64_t{5} << 40 | 7, ~std::uint64_t{0}}) {
    auto p = parse1(prefixed("Copy Size: " + ev(ids().event, 6) + " " + std::to_string(bytes), 1));
    ASSERT_EQ(p.batch.copy_sizes.size(), 1u) << bytes;
    EXPECT_EQ(std::uint64_t{p.batch.copy_sizes[0].bytes}, bytes);
  }
}

// ---- quirks (docs/realm-log-format.md, Quirks) ----

TEST(LineQuirks, NilArgsPointerNegativePriorityAndUnsignedFuncId) {
  auto p = parse1(prefixed("Task Request: -1 80000000 (20000005,1) (0,0) (0,0) -7 (nil) 0"));
  ASSERT_EQ(p.batch.task_requests.size(), 1u);
  EXPECT_EQ(p.batch.task_requests[0].func_id, 4294967295u);  // %d of an unsigned
  EXPECT_EQ(p.batch.task_requests[0].priority, -7);
  EXPECT_EQ(p.stats.null_args, 1u);
}

TEST(LineQuirks, SpacedPreconditionOfSixInputMergesIsCountedAsE2cEvidence) {
  auto p = parse1(prefixed("Event Precondition: (20000032,4) (2000002d, 2)"));
  ASSERT_EQ(p.batch.event_preconditions.size(), 1u);
  EXPECT_EQ(p.batch.event_preconditions[0].input, core::EventKey::make(0x2000002d, 2));
  EXPECT_EQ(p.stats.era.spaced_preconditions, 1u);
}

TEST(LineQuirks, PreconditionWithoutColonAsOnTheTracesPage) {
  auto p = parse1("Event Precondition (20000032,4) (2000002d,2)");
  ASSERT_EQ(p.batch.event_preconditions.size(), 1u);
  EXPECT_EQ(p.stats.malformed_total(), 0u);
}

TEST(LineQuirks, LevelsOneAndTwoAndUnexpectedLevelsCounted) {
  auto p = parse({prefixed("Task Time: (20000005,1) 7", 1), prefixed("Task Time: (20000005,2) 7", 2),
                  prefixed("Processor: 80000000 1", 2), prefixed("Processor: 80000001 1", 1)});
  EXPECT_EQ(p.stats.records.total(), 4u);
  EXPECT_EQ(p.stats.unexpected_level, 2u);
}

TEST(LineQuirks, OtherCategoriesAreSkippedAndCountedByName) {
  auto p = parse({"[0 - 7fffe221a6c0] {2}{task}: something happened", "[0 - 7fffe221a6c0] {4}{dma}: other",
                  "[1 - 7f] {2}{task}: again"});
  EXPECT_EQ(p.stats.counts[core::Stat::other_category], 3u);
  EXPECT_EQ(p.stats.other_categories.at("task"), 2u);
  EXPECT_EQ(p.stats.other_categories.at("dma"), 1u);
  EXPECT_EQ(p.stats.records.total(), 0u);
}

TEST(LineQuirks, PendingEventDumpIsSkipped) {
  auto p = parse({"PRINTING ALL PENDING EVENTS:", "Event 2000000c: gen=2 subscr=0 local=0 remote=1", "  [3] R: 1",
                  "  [4] L:0x7fffa409f590 deferred task: func=4 proc=80000001 finish=20800616/2", "DONE"});
  EXPECT_EQ(p.stats.counts[core::Stat::pending_event_dump], 5u);
  EXPECT_EQ(p.stats.era.pending_dump_blocks, 1u);
  EXPECT_EQ(p.stats.malformed_total(), 0u);
}

TEST(LineQuirks, BlankLinesCrlfAndUnprefixedText) {
  auto p = parse({"", "   ", prefixed("Processor: 80000000 1") + "\r", "Running stencil computation for 4194304 elements"});
  EXPECT_EQ(p.stats.counts[core::Stat::blank], 2u);
  EXPECT_EQ(p.stats.records[RecordKind::processor], 1u);
  EXPECT_EQ(p.stats.counts[core::Stat::unprefixed_text], 1u);
  EXPECT_EQ(p.stats.lines, 4u);
}

TEST(LineQuirks, GroupWhoseCountDisagreesIsMalformed) {
  auto p = parse1(prefixed("Group: 90000001 3 80000000 80000001"));
  EXPECT_TRUE(p.batch.groups.empty());
  EXPECT_TRUE(p.batch.group_members.empty());
  EXPECT_EQ(p.stats.counts[core::Stat::group_count_mismatch], 1u);
  ASSERT_EQ(p.stats.first_messages.size(), 1u);
  EXPECT_NE(p.stats.first_messages[0].message.find("announces 3 members but lists 2"), std::string::npos);
}

TEST(LineQuirks, PrefixNodesAndThreadsAreTracked) {
  auto p = parse({"[3 - 7f01] {2}{graph}: Processor: 80000000 1", "[3 - 7f02] {2}{graph}: Processor: 80000001 1",
                  "[4 - 7f01] {2}{graph}: Processor: 80000002 1"});
  ASSERT_EQ(p.stats.prefix_nodes.size(), 2u);
  EXPECT_EQ(p.stats.threads.size(), 2u);
}

TEST(EraEvidence, ClassificationFollowsSpecSection3) {
  core::EraEvidence none;
  EXPECT_EQ(core::classify_era(none, true, true), core::Era::e2);
  EXPECT_EQ(core::classify_era(none, true, false), core::Era::unknown);
  EXPECT_EQ(core::classify_era(none, false, true), core::Era::e3);  // no Processor/Memory records
  core::EraEvidence zero;
  zero.merges_with_zero_inputs = 1;
  EXPECT_EQ(core::classify_era(zero, true, true), core::Era::e2a);
  core::EraEvidence one;
  one.merges_with_one_input = 2;
  EXPECT_EQ(core::classify_era(one, true, true), core::Era::e2ab);
  core::EraEvidence spaced;
  spaced.spaced_preconditions = 1;
  EXPECT_EQ(core::classify_era(spaced, true, true), core::Era::e2c);
  core::EraEvidence dump;
  dump.pending_dump_blocks = 1;
  EXPECT_EQ(core::classify_era(dump, true, true), core::Era::e2c);
  core::EraEvidence barrier3;
  barrier3.barrier_type3_ids = 1;
  EXPECT_EQ(core::classify_era(barrier3, true, true), core::Era::e3);
}

TEST(EraEvidence, MergeCountsAndBarrierTypesAreNoticedByTheParser) {
  auto p = parse({prefixed("Event Merge: (20000001,1) 0"), prefixed("Event Merge: (20000002,1) 1"),
                  prefixed("Barrier Arrive: (30000005,1) (0,0) (0,0) 1")});
  EXPECT_EQ(p.stats.era.merges_with_zero_inputs, 1u);
  EXPECT_EQ(p.stats.era.merges_with_one_input, 1u);
  EXPECT_EQ(p.stats.era.barrier_type3_ids, 1u);
}

// ---- one broken field per record kind ----

struct Broken {
  RecordKind kind;
  std::string line;      // the body, broken in one field
  std::size_t column;    // 1-based column in the prefixed line where the parser must stop
  const char* expected;  // what the message says was expected
};

class BrokenField : public ::testing::TestWithParam<Broken> {};

TEST_P(BrokenField, IsCountedNamedAndLocated) {
  const Broken& b = GetParam();
  const std::string line = prefixed(b.line);
  auto p = parse1(line);
  EXPECT_EQ(p.batch.record_count(), 0u);
  EXPECT_EQ(p.stats.records.total(), 0u);
  EXPECT_EQ(p.stats.counts[core::Stat::bad_fields], 1u);
  EXPECT_EQ(p.stats.malformed_by_kind[b.kind], 1u);
  ASSERT_EQ(p.stats.first_messages.size(), 1u);
  const auto& msg = p.stats.first_messages[0].message;
  EXPECT_NE(msg.find("malformed " + std::string(core::record_kind_name(b.kind)) + " record"), std::string::npos) << msg;
  EXPECT_NE(msg.find(std::string("expected ") + b.expected), std::string::npos) << msg;
  const std::size_t prefix = std::string("[0 - 7fffe221a6c0] {2}{graph}: ").size();
  EXPECT_NE(msg.find("at column " + std::to_string(prefix + b.column)), std::string::npos) << msg;
  EXPECT_EQ(p.stats.first_messages[0].quote, line);
}

// Columns count from 1 at the start of the body.
INSTANTIATE_TEST_SUITE_P(
    EveryKind, BrokenField,
    ::testing::Values(
        Broken{RecordKind::processor, "Processor: 8000zz00 1", 16, "space"},
        Broken{RecordKind::group, "Group: 90000001 two 80000000", 17, "unsigned integer"},
        Broken{RecordKind::memory, "Memory: 60000000", 17, "space"},
        Broken{RecordKind::task_request, "Task Request: 4 90000001 (20000005,1) (0,0) (0,0) 0 0x7fff", 59, "space"},
        Broken{RecordKind::task_time, "Task Time: (20000005,1) -3", 25, "unsigned integer"},
        Broken{RecordKind::task_wait, "Task Wait: (20000005,1) 20000006,1) 7230", 25, "event (id,gen)"},
        Broken{RecordKind::event_merge, "Event Merge: (20000005,1 3", 25, "')'"},
        Broken{RecordKind::event_precondition, "Event Precondition: (20000032,4) (2000002d;2)", 43, "','"},
        Broken{RecordKind::event_trigger, "Event Trigger: (20000008,2) (0,0) (2000000f,1) extra", 47, "end of line"},
        Broken{RecordKind::barrier_creation, "Barrier Creation: 20000006 x", 28, "unsigned integer"},
        Broken{RecordKind::barrier_alter, "Barrier Alter: (20000006,3) (0,0) +", 35, "integer"},
        Broken{RecordKind::barrier_arrive, "Barrier Arrive: (20000006,3) (20000030,2) (20000024,g) 1", 53, "generation"},
        Broken{RecordKind::copy_request, "Copy Request: (200000bc,1) (200000bb,1) (200000b9,3) 60800000", 62, "space"},
        Broken{RecordKind::copy_size, "Copy Size: (2080000e,1)", 24, "space"}),
    [](const auto& info) { return std::string(core::record_kind_key(info.param.kind)); });

TEST(MalformedLines, UnknownRecordKindBadPrefixAndNulByte) {
  static const char with_nul[] = "[0 - 7f] {2}{graph}: Processor: 8000\0" "0000 1";
  auto p = parse({prefixed("Task Launch: 1 2 3"), "[0 - 7fffe2] {2}{graph: Processor: 80000000 1",
                  std::string(with_nul, sizeof with_nul - 1)});
  EXPECT_EQ(p.stats.counts[core::Stat::unknown_record], 1u);
  EXPECT_EQ(p.stats.counts[core::Stat::bad_prefix], 1u);
  EXPECT_EQ(p.stats.counts[core::Stat::binary_data], 1u);
  EXPECT_NE(p.stats.first_messages[0].message.find("unknown record kind \"Task Launch\""), std::string::npos);
}

TEST(MalformedLines, OnlyTheFirstFewAreQuotedButAllAreCounted) {
  std::vector<std::string> lines(25, prefixed("Task Time: (zz,1) 3"));
  auto p = parse(lines);
  EXPECT_EQ(p.stats.malformed_total(), 25u);
  EXPECT_EQ(p.stats.first_messages.size(), 10u);  // the limit given to the parser
  EXPECT_EQ(p.stats.first_messages[3].where.line, 3u);  // relative to the chunk; the reader adds its first line
}

TEST(MalformedLines, ValuesOutOfRange) {
  auto p = parse({prefixed("Task Request: 4 90000001 (20000005,1) (0,0) (0,0) 0 (nil) 99999999999"),
                  prefixed("Task Time: (20000005,1) 99999999999999999999999"),
                  prefixed("Processor: 123456789abcdef012 1")});
  EXPECT_EQ(p.stats.counts[core::Stat::value_out_of_range], 1u);
  EXPECT_EQ(p.stats.counts[core::Stat::bad_fields], 2u);  // overflowing numbers do not parse
  EXPECT_EQ(p.batch.record_count(), 0u);
}

// A node no Realm id can name (found by fuzz_pipeline: node 120000001 made a model of 120 M nodes).
TEST(MalformedLines, APrefixNodeBeyondAnyIdIsOutOfRange) {
  auto p = parse({"[65536 - 1] {2}{graph}: Processor: 80000000 1", "[65535 - 1] {2}{graph}: Processor: 80000001 1",
                  "[4294967295 - 1] {2}{other}: some text"});
  EXPECT_EQ(p.stats.counts[core::Stat::value_out_of_range], 1u);
  EXPECT_NE(p.stats.first_messages.at(0).message.find("node 65536 in the logger prefix"), std::string::npos);
  EXPECT_EQ(p.stats.counts[core::Stat::unprefixed_text], 1u);  // not a {graph} line: skipped, not counted
  EXPECT_EQ(p.batch.processors.size(), 1u);
  ASSERT_EQ(p.stats.prefix_nodes.size(), 1u);
  EXPECT_EQ(p.stats.prefix_nodes[0].first, 65535u);
}

}  // namespace
}  // namespace rr::parser
