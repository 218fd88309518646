// The Legion Prof reader on logs built byte by byte: the special field types (string, point, array, uuid,
// bool, types it does not know), names and machine records, children joined to their parent, records
// straddling every buffer boundary, and gzip or plain input.
#include <gtest/gtest.h>

#include "core/prof_records.hpp"
#include "parser/legion_prof_reader.hpp"
#include "support/prof_digest.hpp"
#include "support/prof_log_builder.hpp"

namespace rr::parser {
namespace {

using rr::testing::prof_header;
using rr::testing::ProfBytes;
using rr::testing::read_prof_bytes;

// Header lines as Legion 25.06 writes them.
constexpr std::string_view kMachine =
    "MachineDesc {id:10, node_id:unsigned:4, num_nodes:unsigned:4, version:unsigned:4, hostname:string:-1, "
    "host_id:unsigned long long:8, process_id:unsigned:4}";
constexpr std::string_view kMaxDim = "MaxDimDesc {id:8, max_dim:maxdim:4}";
constexpr std::string_view kProcDesc =
    "ProcDesc {id:6, proc_id:ProcID:8, kind:ProcKind:4, uuid_size:uuid_size:4, cuda_device_uuid:uuid:1}";
constexpr std::string_view kTaskKind = "TaskKind {id:11, task_id:TaskID:4, name:string:-1, overwrite:bool:1}";
constexpr std::string_view kPoint = "IndexSpacePointDesc {id:31, unique_id:IDType:8, dim:unsigned:4, rem:point:8}";
constexpr std::string_view kRect = "IndexSpaceRectDesc {id:32, unique_id:IDType:8, dim:unsigned:4, rem:array:8}";
constexpr std::string_view kTaskWait =
    "TaskWaitInfo {id:16, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, wait_start:timestamp_t:8, "
    "wait_ready:timestamp_t:8, wait_end:timestamp_t:8, wait_event:unsigned long long:8}";
constexpr std::string_view kMetaWait =
    "MetaWaitInfo {id:17, op_id:UniqueID:8, lg_id:unsigned:4, wait_start:timestamp_t:8, wait_ready:timestamp_t:8, "
    "wait_end:timestamp_t:8, wait_event:unsigned long long:8}";
constexpr std::string_view kTaskInfo =
    "TaskInfo {id:18, op_id:UniqueID:8, task_id:TaskID:4, variant_id:VariantID:4, proc_id:ProcID:8, "
    "create:timestamp_t:8, ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, creator:unsigned long "
    "long:8, critical:unsigned long long:8, fevent:unsigned long long:8}";
constexpr std::string_view kMetaInfo =
    "MetaInfo {id:19, op_id:UniqueID:8, lg_id:unsigned:4, proc_id:ProcID:8, create:timestamp_t:8, "
    "ready:timestamp_t:8, start:timestamp_t:8, stop:timestamp_t:8, creator:unsigned long long:8, critical:unsigned "
    "long long:8, fevent:unsigned long long:8}";
constexpr std::string_view kCopyInfo =
    "CopyInfo {id:20, op_id:UniqueID:8, size:unsigned long long:8, create:timestamp_t:8, ready:timestamp_t:8, "
    "start:timestamp_t:8, stop:timestamp_t:8, creator:unsigned long long:8, critical:unsigned long long:8, "
    "fevent:unsigned long long:8, collective:unsigned:4}";
constexpr std::string_view kCopyInst =
    "CopyInstInfo {id:47, src:MemID:8, dst:MemID:8, src_fid:unsigned:4, dst_fid:unsigned:4, src_inst:unsigned "
    "long long:8, dst_inst:unsigned long long:8, fevent:unsigned long long:8, num_hops:unsigned:4, indirect:bool:1}";
constexpr std::string_view kFuture = "Future {id:90, x:frobnicator:3}";

ProfBytes& task_info(ProfBytes& b, std::uint64_t op, std::uint64_t fevent, std::int64_t t0 = 100) {
  return b.id(18).u64(op).u32(7).u32(8).u64(0x1d00000000000001).i64(t0).i64(t0 + 1).i64(t0 + 2).i64(t0 + 10)
      .u64(0x8000000000100001).u64(0x8000000000200001).u64(fevent);
}
ProfBytes& meta_info(ProfBytes& b, std::uint64_t op, std::uint64_t fevent) {
  return b.id(19).u64(op).u32(11).u64(0x1d00000000000000).i64(5).i64(6).i64(7).i64(9).u64(0).u64(0).u64(fevent);
}
ProfBytes& task_wait(ProfBytes& b, std::uint64_t op) {
  return b.id(16).u64(op).u32(7).u32(8).i64(103).i64(104).i64(105).u64(0x8000000000300001);
}
ProfBytes& meta_wait(ProfBytes& b, std::uint64_t op) {
  return b.id(17).u64(op).u32(11).i64(7).i64(8).i64(8).u64(0x8000000000400001);
}
ProfBytes& copy_info(ProfBytes& b, std::uint64_t op, std::uint64_t fevent) {
  return b.id(20).u64(op).u64(4096).i64(1).i64(2).i64(3).i64(4).u64(0).u64(0x8000000000500001).u64(fevent).u32(0);
}
ProfBytes& copy_inst(ProfBytes& b, std::uint64_t fevent, bool indirect) {
  return b.id(47).u64(0x1e00000000000000).u64(0x1e00000000000001).u32(3).u32(4).u64(0x8000000000600001)
      .u64(0x8000000000700001).u64(fevent).u32(1).u8(indirect ? 1 : 0);
}

TEST(LegionProfReader, SizesEverySpecialFieldTypeFromTheHeader) {
  const std::string header = prof_header({kMachine, kMaxDim, kProcDesc, kTaskKind, kPoint, kRect, kTaskInfo, kFuture});
  for (std::uint32_t max_dim : {1u, 2u, 3u}) {
    ProfBytes b;
    b.id(10).u32(3).u32(4).u32(1008).str("node-three").u64(77).u32(1234);
    b.id(8).u32(max_dim);
    b.id(31).u64(1).u32(1);
    for (std::uint32_t d = 0; d < max_dim; ++d) b.i64(5 + d);
    b.id(32).u64(2).u32(2);
    for (std::uint32_t d = 0; d < 2 * max_dim; ++d) b.i64(9);
    const std::string uuid(16, '\xab');
    b.id(6).u64(0x1d00000000000001).u32(2).u32(16).raw(uuid.data(), uuid.size());
    b.id(6).u64(0x1d00000000000004).u32(1).u32(0);    // no uuid bytes at all
    b.id(6).u64(0x1d00000000000005).u32(4).u32(5).raw("\0\0\0\0\0", 5);
    b.id(90).raw("\x01\x02\x03", 3);                  // a type this reader does not know: 3 bytes
    b.id(11).u32(0).str("unnamed_task_0").u8(0);
    b.id(11).u32(0).str("top_level").u8(1);          // overwrite: replaces the name
    b.id(11).u32(1).str("top_level").u8(0);          // the same string, stored once
    b.id(11).u32(0).str("ignored").u8(0);            // no overwrite: the name stays
    task_info(b, 42, 0x8000000000900001);
    const core::ProfileRecords p = read_prof_bytes(header + b.bytes());
    EXPECT_EQ(p.max_dim, max_dim);
    EXPECT_EQ(p.record_count(), 13u);
    EXPECT_EQ(p.count_of("IndexSpacePointDesc"), 1u);
    EXPECT_EQ(p.count_of("IndexSpaceRectDesc"), 1u);
    EXPECT_EQ(p.count_of("Future"), 1u);
    EXPECT_EQ(p.count_of("ProcDesc"), 3u);
    EXPECT_EQ(p.data_bytes, header.size() + b.bytes().size());
    EXPECT_EQ(p.header_bytes, header.size());
    ASSERT_TRUE(p.machine.has_value());
    EXPECT_EQ(p.machine->node_id, 3u);
    EXPECT_EQ(p.machine->num_nodes, 4u);
    EXPECT_EQ(p.machine->version, 1008u);
    EXPECT_EQ(p.machine->host_id, 77u);
    EXPECT_EQ(p.machine->process_id, 1234u);
    EXPECT_EQ(p.string_at(p.machine->hostname), "node-three");
    ASSERT_EQ(p.processors.size(), 3u);
    EXPECT_EQ(p.processors[0].kind, core::RealmProcKind::cpu);
    EXPECT_EQ(p.processors[1].id.value(), 0x1d00000000000004u);
    EXPECT_EQ(p.processors[1].kind, core::RealmProcKind::gpu);
    EXPECT_EQ(p.processors[2].kind, core::RealmProcKind::io);
    ASSERT_EQ(p.task_kinds.size(), 2u);
    EXPECT_EQ(p.string_at(p.task_kinds[0].name), "top_level");
    EXPECT_TRUE(p.task_kinds[0].overwritten);
    EXPECT_EQ(p.task_kinds[1].name, p.task_kinds[0].name);
    EXPECT_FALSE(p.task_kinds[1].overwritten);
    // The record after all of them decodes to its values: everything before it was sized right.
    ASSERT_EQ(p.work.size(), 1u);
    const core::ProfWorkItem& t = p.work[0];
    EXPECT_EQ(t.kind, core::ProfWorkKind::task);
    EXPECT_EQ(t.op_id, 42u);
    EXPECT_EQ(t.function, 7u);
    EXPECT_EQ(t.variant, 8u);
    EXPECT_EQ(t.proc.value(), 0x1d00000000000001u);
    EXPECT_EQ(t.create, 100);
    EXPECT_EQ(t.ready, 101);
    EXPECT_EQ(t.start, 102);
    EXPECT_EQ(t.stop, 110);
    EXPECT_EQ(t.creator.id, 0x8000000000100001u);
    EXPECT_EQ(t.critical.id, 0x8000000000200001u);
    EXPECT_EQ(t.fevent.id, 0x8000000000900001u);
    EXPECT_EQ(t.wait_count, 0u);
    EXPECT_EQ(t.extra, core::kNoIndex);
  }
}

TEST(LegionProfReader, APointRecordBeforeMaxDimDescIsAnError) {
  const std::string header = prof_header({kMaxDim, kPoint});
  ProfBytes b;
  b.id(31).u64(1).u32(1).i64(0).i64(0).i64(0);
  try {
    read_prof_bytes(header + b.bytes());
    FAIL() << "no error";
  } catch (const SourceError& e) {
    EXPECT_NE(std::string(e.what()).find("IndexSpacePointDesc record has point or array fields, but no MaxDimDesc"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.decoded_offset(), header.size());
  }
}

TEST(LegionProfReader, ACorruptMaxDimIsRefused) {
  const std::string header = prof_header({kMaxDim});
  for (std::uint32_t bad : {0u, 1000u}) {
    ProfBytes b;
    b.id(8).u32(bad);
    EXPECT_THROW(read_prof_bytes(header + b.bytes()), SourceError) << bad;
  }
}

TEST(LegionProfReader, JoinsWaitsAndInstancesToTheRecordJustBefore) {
  const std::string header = prof_header({kTaskInfo, kMetaInfo, kTaskWait, kMetaWait, kCopyInfo, kCopyInst, kFuture});
  ProfBytes b;
  task_info(b, 10, 0x8000000000a00001);
  task_wait(b, 10);
  task_wait(b, 10);
  meta_info(b, 11, 0x8000000000b00001);
  meta_wait(b, 11);
  task_wait(b, 11);  // a task wait after a meta-task: not attached
  copy_info(b, 12, 0x8000000000c00001);
  copy_inst(b, 0x8000000000c00001, false);
  copy_inst(b, 0x8000000000c00001, true);
  const std::size_t stray_inst_at = header.size() + b.bytes().size();
  copy_inst(b, 0x8000000000d00001, false);  // another copy's fevent: not attached
  task_info(b, 13, 0x8000000000e00001);
  meta_wait(b, 13);  // a meta wait after a task: not attached
  task_info(b, 14, 0x8000000000f00001);
  task_wait(b, 99);  // attached, but of another op: counted
  b.id(90).raw("abc", 3);
  task_wait(b, 14);  // after a record of another type: not attached
  const core::ProfileRecords p = read_prof_bytes(header + b.bytes());

  ASSERT_EQ(p.work.size(), 4u);
  ASSERT_EQ(p.waits.size(), 7u);
  EXPECT_EQ(p.work[0].first_wait, 0u);
  EXPECT_EQ(p.work[0].wait_count, 2u);
  EXPECT_EQ(p.waits[0].item, 0u);
  EXPECT_EQ(p.waits[1].item, 0u);
  EXPECT_EQ(p.waits[0].wait_start, 103);
  EXPECT_EQ(p.waits[0].wait_ready, 104);
  EXPECT_EQ(p.waits[0].wait_end, 105);
  EXPECT_EQ(p.waits[0].wait_event.id, 0x8000000000300001u);
  EXPECT_EQ(p.waits[0].function, 7u);
  EXPECT_EQ(p.work[1].kind, core::ProfWorkKind::meta_task);
  EXPECT_EQ(p.work[1].function, 11u);
  EXPECT_EQ(p.work[1].first_wait, 2u);
  EXPECT_EQ(p.work[1].wait_count, 1u);
  EXPECT_EQ(p.waits[2].item, 1u);
  EXPECT_EQ(p.waits[3].item, core::kNoIndex);
  EXPECT_EQ(p.work[2].wait_count, 0u);
  EXPECT_EQ(p.waits[4].item, core::kNoIndex);
  EXPECT_EQ(p.work[3].wait_count, 1u);
  EXPECT_EQ(p.waits[5].item, 3u);
  EXPECT_EQ(p.waits[6].item, core::kNoIndex);

  ASSERT_EQ(p.copies.size(), 1u);
  EXPECT_EQ(p.copies[0].size, 4096u);
  EXPECT_EQ(p.copies[0].first_inst, 0u);
  EXPECT_EQ(p.copies[0].inst_count, 2u);
  ASSERT_EQ(p.copy_insts.size(), 3u);
  EXPECT_EQ(p.copy_insts[0].copy, 0u);
  EXPECT_FALSE(p.copy_insts[0].indirect);
  EXPECT_TRUE(p.copy_insts[1].indirect);
  EXPECT_EQ(p.copy_insts[1].src_mem.value(), 0x1e00000000000000u);
  EXPECT_EQ(p.copy_insts[1].dst_mem.value(), 0x1e00000000000001u);
  EXPECT_EQ(p.copy_insts[1].src_fid, 3u);
  EXPECT_EQ(p.copy_insts[1].dst_fid, 4u);
  EXPECT_EQ(p.copy_insts[1].num_hops, 1u);
  EXPECT_EQ(p.copy_insts[2].copy, core::kNoIndex);

  EXPECT_EQ(p.counts[core::Stat::waits_unattached], 3u);
  EXPECT_EQ(p.counts[core::Stat::waits_other_op], 1u);
  EXPECT_EQ(p.counts[core::Stat::copy_insts_unattached], 1u);
  ASSERT_EQ(p.join_messages.size(), 5u);  // the default limit
  EXPECT_EQ(p.join_messages[1].where.decoded_offset, stray_inst_at);
  EXPECT_NE(p.join_messages[1].message.find("CopyInstInfo of fevent 8000000000d00001"), std::string::npos)
      << p.join_messages[1].message;
}

TEST(LegionProfReader, AChangedLayoutOfARecordTypeItDoesNotKeepIsRead) {
  // MapperCallInfo with a field more than in 25.06: only sized, so no error.
  const std::string header = prof_header({"MapperCallInfo {id:25, mapper_id:MapperID:4, extra:unsigned long long:8}",
                                          kTaskInfo});
  ProfBytes b;
  b.id(25).u32(1).u64(2);
  task_info(b, 5, 0x8000000000100002);
  const core::ProfileRecords p = read_prof_bytes(header + b.bytes());
  EXPECT_EQ(p.count_of("MapperCallInfo"), 1u);
  ASSERT_EQ(p.work.size(), 1u);
  EXPECT_EQ(p.work[0].op_id, 5u);
}

TEST(LegionProfReader, AnOptionalFieldMayBeMissing) {
  // CopyInfo without `collective` (an older layout): read as 0.
  const std::string header = prof_header(
      {"CopyInfo {id:20, op_id:UniqueID:8, size:unsigned long long:8, create:timestamp_t:8, ready:timestamp_t:8, "
       "start:timestamp_t:8, stop:timestamp_t:8, creator:unsigned long long:8, critical:unsigned long long:8, "
       "fevent:unsigned long long:8}"});
  ProfBytes b;
  b.id(20).u64(1).u64(64).i64(1).i64(2).i64(3).i64(4).u64(0).u64(0).u64(0x8000000000100003);
  const core::ProfileRecords p = read_prof_bytes(header + b.bytes());
  ASSERT_EQ(p.copies.size(), 1u);
  EXPECT_EQ(p.copies[0].collective, 0u);
  EXPECT_EQ(p.copies[0].fevent.id, 0x8000000000100003u);
}

TEST(LegionProfReader, RecordsStraddlingEveryRefillDecodeTheSame) {
  const std::string decoded = rr::testing::decompress_file(
      std::string(RR_SOURCE_DIR) + "/data/traces/legion-prof/circuit_small_cpu2_util1/prof_0.gz");
  const std::string whole = rr::testing::digest(read_prof_bytes(decoded));
  EXPECT_GT(whole.size(), 100000u);
  for (std::size_t buffer : {64u, 1000u, 4096u}) {
    for (std::size_t step : {1u, 7u, 4093u}) {
      if (step == 1 && buffer != 64) continue;  // one byte per read is slow; once is enough
      ProfReadOptions o;
      o.buffer_bytes = buffer;
      EXPECT_EQ(rr::testing::digest(read_prof_bytes(decoded, o, step)), whole) << buffer << " " << step;
    }
  }
}

TEST(LegionProfReader, ProgressCountsEveryDecodedByte) {
  const std::string header = prof_header({kTaskInfo});
  ProfBytes b;
  for (int i = 0; i < 100; ++i) task_info(b, static_cast<std::uint64_t>(i), 0x8000000000100000u + static_cast<std::uint64_t>(i));
  std::uint64_t seen = 0;
  ProfReadOptions o;
  o.buffer_bytes = 256;
  o.on_progress = [&](std::uint64_t n) { seen += n; };
  const core::ProfileRecords p = read_prof_bytes(header + b.bytes(), o, 100);
  EXPECT_EQ(p.work.size(), 100u);
  EXPECT_EQ(seen, header.size() + b.bytes().size());
}

}  // namespace
}  // namespace rr::parser
