// The eight real Legion Prof runs against the independent decoder (scripts/make_prof_oracle.sh): the count of
// every record type per file equals the decoder's, and the decoder's first records of every type the
// reader keeps decode to the same values.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "parser/trace_reader.hpp"

namespace rr::parser {
namespace {

namespace fs = std::filesystem;

const fs::path kRuns = fs::path(RR_SOURCE_DIR) / "data/traces/legion-prof";

std::vector<fs::path> runs() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kRuns))
    if (e.is_directory()) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// One record as the decoder prints it: `  Type: field=value field=value ...`, values in Python's repr.
struct OracleRecord {
  std::string type;
  std::map<std::string, std::string> fields;  // strings unquoted and unescaped

  const std::string& at(const std::string& field) const {
    auto it = fields.find(field);
    if (it == fields.end()) throw std::runtime_error(type + " has no field " + field + " in the oracle");
    return it->second;
  }
  std::uint64_t u64(const std::string& field) const {
    const std::string& v = at(field);
    return v.starts_with("0x") ? std::stoull(v.substr(2), nullptr, 16) : std::stoull(v);
  }
  std::int64_t i64(const std::string& field) const { return std::stoll(at(field)); }
  bool flag(const std::string& field) const { return at(field) == "True"; }
};

// Python's repr of a str: quoted with ' (or " when it holds a '), backslash escapes.
std::string unrepr(const std::string& line, std::size_t& i) {
  const char quote = line[i++];
  std::string out;
  while (i < line.size() && line[i] != quote) {
    char c = line[i++];
    if (c == '\\' && i < line.size()) {
      c = line[i++];
      if (c == 'n') c = '\n';
      else if (c == 't') c = '\t';
      else if (c == 'r') c = '\r';
      else if (c == 'x') {
        c = static_cast<char>(std::stoi(line.substr(i, 2), nullptr, 16));
        i += 2;
      }
    }
    out.push_back(c);
  }
  ++i;
  return out;
}

OracleRecord parse_record(const std::string& line) {
  OracleRecord r;
  const std::size_t colon = line.find(": ");
  r.type = line.substr(2, colon - 2);
  std::size_t i = colon + 2;
  while (i < line.size()) {
    const std::size_t eq = line.find('=', i);
    const std::string key = line.substr(i, eq - i);
    i = eq + 1;
    std::string value;
    if (line[i] == '\'' || line[i] == '"') {
      value = unrepr(line, i);
    } else {
      const std::size_t end = line[i] == '[' ? line.find(']', i) + 1 : line.find(' ', i);
      value = line.substr(i, end == std::string::npos ? std::string::npos : end - i);
      i = end == std::string::npos ? line.size() : end;
    }
    r.fields[key] = value;
    while (i < line.size() && line[i] == ' ') ++i;
  }
  return r;
}

// decoder_first.txt: per file ("== prof_N.gz: ..."), the first records of every type.
std::map<std::string, std::vector<OracleRecord>> parse_first(const fs::path& path) {
  std::map<std::string, std::vector<OracleRecord>> out;
  std::ifstream in(path);
  std::string line, file;
  while (std::getline(in, line)) {
    if (line.starts_with("== ")) {
      file = line.starts_with("== total") ? "" : line.substr(3, line.find(':') - 3);
      continue;
    }
    // Count lines are "  Type   N" (no colon right after the type); record lines are "  Type: ...".
    const std::size_t colon = line.find(": ");
    if (file.empty() || !line.starts_with("  ") || colon == std::string::npos ||
        line.find(' ', 2) < colon)
      continue;
    out[file].push_back(parse_record(line));
  }
  return out;
}

bool is_task_kind(core::ProfWorkKind k) {
  return k == core::ProfWorkKind::task || k == core::ProfWorkKind::gpu_task || k == core::ProfWorkKind::implicit_task;
}

// Compares one oracle record with the reader's `nth` record of its type; returns false for the types the
// reader does not keep.
class SpotCheck {
 public:
  explicit SpotCheck(const core::ProfileRecords& p) : p_(p) {}

  // It is over 120 lines because it holds one comparison per record type, side by side with the others.
  bool check(const OracleRecord& r, std::size_t nth) {
    const std::string& t = r.type;
    static const std::map<std::string, core::ProfWorkKind> kWork = {
        {"TaskInfo", core::ProfWorkKind::task},          {"GPUTaskInfo", core::ProfWorkKind::gpu_task},
        {"ImplicitTaskInfo", core::ProfWorkKind::implicit_task}, {"MetaInfo", core::ProfWorkKind::meta_task},
        {"MessageInfo", core::ProfWorkKind::message},    {"PartitionInfo", core::ProfWorkKind::partition},
        {"ProfTaskInfo", core::ProfWorkKind::prof_task}};
    if (auto k = kWork.find(t); k != kWork.end()) return work(r, nth_of(p_.work, nth, [&](const auto& w) { return w.kind == k->second; }));
    if (t == "TaskWaitInfo" || t == "MetaWaitInfo") {
      const bool task = t == "TaskWaitInfo";
      const auto& w = nth_of(p_.waits, nth, [&](const core::ProfWait& w) {
        return w.item != core::kNoIndex && is_task_kind(p_.work[w.item].kind) == task;
      });
      EXPECT_EQ(w.op_id, r.u64("op_id"));
      EXPECT_EQ(w.function, r.u64(task ? "task_id" : "lg_id"));
      EXPECT_EQ(w.wait_start, r.i64("wait_start"));
      EXPECT_EQ(w.wait_ready, r.i64("wait_ready"));
      EXPECT_EQ(w.wait_end, r.i64("wait_end"));
      EXPECT_EQ(w.wait_event.id, r.u64("wait_event"));
      EXPECT_EQ(p_.work[w.item].op_id, w.op_id);
      return true;
    }
    if (t == "CopyInfo") {
      const auto& c = at(p_.copies, nth);
      times(r, c.create, c.ready, c.start, c.stop);
      events(r, c.creator, c.critical, c.fevent);
      EXPECT_EQ(c.op_id, r.u64("op_id"));
      EXPECT_EQ(c.size, r.u64("size"));
      EXPECT_EQ(c.collective, r.u64("collective"));
      EXPECT_GE(c.inst_count, 1u);
      return true;
    }
    if (t == "CopyInstInfo") {
      const auto& c = at(p_.copy_insts, nth);
      EXPECT_EQ(c.src_mem.value(), r.u64("src"));
      EXPECT_EQ(c.dst_mem.value(), r.u64("dst"));
      EXPECT_EQ(c.src_fid, r.u64("src_fid"));
      EXPECT_EQ(c.dst_fid, r.u64("dst_fid"));
      EXPECT_EQ(c.src_inst.id, r.u64("src_inst"));
      EXPECT_EQ(c.dst_inst.id, r.u64("dst_inst"));
      EXPECT_EQ(c.fevent.id, r.u64("fevent"));
      EXPECT_EQ(c.num_hops, r.u64("num_hops"));
      EXPECT_EQ(c.indirect, r.flag("indirect"));
      EXPECT_EQ(p_.copies.at(c.copy).fevent, c.fevent);
      return true;
    }
    if (t == "FillInfo") {
      const auto& c = at(p_.fills, nth);
      times(r, c.create, c.ready, c.start, c.stop);
      events(r, c.creator, c.critical, c.fevent);
      EXPECT_EQ(c.op_id, r.u64("op_id"));
      EXPECT_EQ(c.size, r.u64("size"));
      return true;
    }
    if (t == "FillInstInfo") {
      const auto& c = at(p_.fill_insts, nth);
      EXPECT_EQ(c.dst_mem.value(), r.u64("dst"));
      EXPECT_EQ(c.fid, r.u64("fid"));
      EXPECT_EQ(c.dst_inst.id, r.u64("dst_inst"));
      EXPECT_EQ(c.fevent.id, r.u64("fevent"));
      EXPECT_EQ(p_.fills.at(c.fill).fevent, c.fevent);
      return true;
    }
    if (t == "InstTimelineInfo") {
      const auto& i = at(p_.instances, nth);
      EXPECT_EQ(i.inst_uid.id, r.u64("inst_uid"));
      EXPECT_EQ(i.inst_id, r.u64("inst_id"));
      EXPECT_EQ(i.mem.value(), r.u64("mem_id"));
      EXPECT_EQ(i.size, r.u64("size"));
      EXPECT_EQ(i.op_id, r.u64("op_id"));
      EXPECT_EQ(i.create, r.i64("create"));
      EXPECT_EQ(i.ready, r.i64("ready"));
      EXPECT_EQ(i.destroy, r.i64("destroy"));
      EXPECT_EQ(i.creator.id, r.u64("creator"));
      return true;
    }
    if (t == "EventWaitInfo") {
      const auto& w = at(p_.event_waits, nth);
      EXPECT_EQ(w.proc.value(), r.u64("proc_id"));
      EXPECT_EQ(w.fevent.id, r.u64("fevent"));
      EXPECT_EQ(w.wait_event.id, r.u64("wait_event"));
      EXPECT_EQ(w.backtrace_id, r.u64("backtrace_id"));
      return true;
    }
    if (t == "EventMergerInfo" || t == "CompletionQueueInfo") {
      const auto& m = at(t == "EventMergerInfo" ? p_.mergers : p_.completion_queues, nth);
      EXPECT_EQ(m.result.id, r.u64("result"));
      EXPECT_EQ(m.fevent.id, r.u64("fevent"));
      EXPECT_EQ(m.performed, r.i64("performed"));
      for (int i = 0; i < 4; ++i) EXPECT_EQ(m.pre[i].id, r.u64("pre" + std::to_string(i)));
      return true;
    }
    if (t == "EventTriggerInfo" || t == "BarrierArrivalInfo") {
      const auto& e = at(t == "EventTriggerInfo" ? p_.triggers : p_.arrivals, nth);
      EXPECT_EQ(e.result.id, r.u64("result"));
      EXPECT_EQ(e.fevent.id, r.u64("fevent"));
      EXPECT_EQ(e.precondition.id, r.u64("precondition"));
      EXPECT_EQ(e.performed, r.i64("performed"));
      return true;
    }
    if (t == "EventPoisonInfo") {
      const auto& e = at(p_.poisons, nth);
      EXPECT_EQ(e.result.id, r.u64("result"));
      EXPECT_EQ(e.fevent.id, r.u64("fevent"));
      EXPECT_EQ(e.performed, r.i64("performed"));
      return true;
    }
    if (t == "ReservationAcquireInfo") {
      const auto& e = at(p_.reservation_acquires, nth);
      EXPECT_EQ(e.result.id, r.u64("result"));
      EXPECT_EQ(e.fevent.id, r.u64("fevent"));
      EXPECT_EQ(e.precondition.id, r.u64("precondition"));
      EXPECT_EQ(e.performed, r.i64("performed"));
      EXPECT_EQ(e.reservation, r.u64("reservation"));
      return true;
    }
    if (t == "InstanceReadyInfo") {
      const auto& e = at(p_.instance_readies, nth);
      EXPECT_EQ(e.result.id, r.u64("result"));
      EXPECT_EQ(e.precondition.id, r.u64("precondition"));
      EXPECT_EQ(e.inst_uid.id, r.u64("inst_uid"));
      EXPECT_EQ(e.performed, r.i64("performed"));
      return true;
    }
    if (t == "InstanceRedistrictInfo") {
      const auto& e = at(p_.instance_redistricts, nth);
      EXPECT_EQ(e.result.id, r.u64("result"));
      EXPECT_EQ(e.precondition.id, r.u64("precondition"));
      EXPECT_EQ(e.previous.id, r.u64("previous"));
      EXPECT_EQ(e.next.id, r.u64("next"));
      EXPECT_EQ(e.performed, r.i64("performed"));
      return true;
    }
    return check_names_and_machine(r, nth);
  }

 private:
  bool check_names_and_machine(const OracleRecord& r, std::size_t nth) {
    const std::string& t = r.type;
    if (t == "MachineDesc") {
      EXPECT_EQ(nth, 0u);
      const auto& m = p_.machine.value();
      EXPECT_EQ(m.node_id, r.u64("node_id"));
      EXPECT_EQ(m.num_nodes, r.u64("num_nodes"));
      EXPECT_EQ(m.version, r.u64("version"));
      EXPECT_EQ(m.host_id, r.u64("host_id"));
      EXPECT_EQ(m.process_id, r.u64("process_id"));
      EXPECT_EQ(p_.string_at(m.hostname), r.at("hostname"));
      return true;
    }
    if (t == "ZeroTime") {
      EXPECT_EQ(p_.zero_time.value(), r.i64("zero_time"));
      return true;
    }
    if (t == "CalibrationErr") {
      EXPECT_EQ(p_.calibration_err.value(), r.i64("calibration_err"));
      return true;
    }
    if (t == "MaxDimDesc") {
      EXPECT_EQ(p_.max_dim, r.u64("max_dim"));
      return true;
    }
    if (t == "ProcDesc") {
      // Descriptions are kept once per id; look the id up.
      const auto& x = find(p_.processors, [&](const auto& x) { return x.id.value() == r.u64("proc_id"); });
      EXPECT_EQ(static_cast<std::uint64_t>(x.kind), r.u64("kind"));
      return true;
    }
    if (t == "MemDesc") {
      const auto& x = find(p_.memories, [&](const auto& x) { return x.id.value() == r.u64("mem_id"); });
      EXPECT_EQ(static_cast<std::uint64_t>(x.kind), r.u64("kind"));
      EXPECT_EQ(x.capacity, r.u64("capacity"));
      return true;
    }
    if (t == "ProcMDesc") {
      const auto& x = find(p_.affinities, [&](const auto& x) {
        return x.proc.value() == r.u64("proc_id") && x.mem.value() == r.u64("mem_id");
      });
      EXPECT_EQ(x.bandwidth, r.u64("bandwidth"));
      EXPECT_EQ(x.latency, r.u64("latency"));
      return true;
    }
    if (t == "TaskKind") {
      const auto id = r.u64("task_id");
      const auto& x = find(p_.task_kinds, [&](const auto& x) { return x.task_id == id; });
      // The rule of Legion Prof: the first name stays unless a later record overwrites it.
      if (r.flag("overwrite")) {
        EXPECT_TRUE(x.overwritten);
      } else if (task_kinds_seen_.insert(id).second && !x.overwritten) {
        EXPECT_EQ(p_.string_at(x.name), r.at("name"));
      }
      return true;
    }
    if (t == "TaskVariant") {
      const auto& x = find(p_.task_variants, [&](const auto& x) {
        return x.task_id == r.u64("task_id") && x.variant_id == r.u64("variant_id");
      });
      EXPECT_EQ(p_.string_at(x.name), r.at("name"));
      return true;
    }
    if (t == "MetaDesc") {
      const auto& x = at(p_.meta_kinds, nth);
      EXPECT_EQ(x.kind, r.u64("kind"));
      EXPECT_EQ(x.message, r.flag("message"));
      EXPECT_EQ(x.ordered_vc, r.flag("ordered_vc"));
      EXPECT_EQ(p_.string_at(x.name), r.at("name"));
      return true;
    }
    if (t == "OpDesc") {
      const auto& x = at(p_.op_kinds, nth);
      EXPECT_EQ(x.kind, r.u64("kind"));
      EXPECT_EQ(p_.string_at(x.name), r.at("name"));
      return true;
    }
    if (t == "OperationInstance") {
      const auto& x = at(p_.operations, nth);
      EXPECT_EQ(x.op_id, r.u64("op_id"));
      EXPECT_EQ(x.parent_id, r.u64("parent_id"));
      EXPECT_EQ(x.kind, r.u64("kind"));
      EXPECT_EQ(x.provenance, r.u64("provenance"));
      return true;
    }
    return false;
  }

  bool work(const OracleRecord& r, const core::ProfWorkItem& w) {
    EXPECT_EQ(w.op_id, r.u64("op_id"));
    // PartitionInfo names no processor (Realm runs dependent partitioning in the background).
    EXPECT_EQ(w.proc.value(), w.kind == core::ProfWorkKind::partition ? 0 : r.u64("proc_id"));
    EXPECT_EQ(w.start, r.i64("start"));
    EXPECT_EQ(w.stop, r.i64("stop"));
    EXPECT_EQ(w.creator.id, r.u64("creator"));
    EXPECT_EQ(w.fevent.id, r.u64("fevent"));
    if (w.kind == core::ProfWorkKind::prof_task) {
      EXPECT_EQ(w.completion, r.flag("completion"));
      EXPECT_EQ(w.create, w.start);
      return true;
    }
    EXPECT_EQ(w.create, r.i64("create"));
    EXPECT_EQ(w.ready, r.i64("ready"));
    EXPECT_EQ(w.critical.id, r.u64("critical"));
    switch (w.kind) {
      case core::ProfWorkKind::task:
      case core::ProfWorkKind::gpu_task:
      case core::ProfWorkKind::implicit_task:
        EXPECT_EQ(w.function, r.u64("task_id"));
        EXPECT_EQ(w.variant, r.u64("variant_id"));
        break;
      case core::ProfWorkKind::message: EXPECT_EQ(p_.spawns.at(w.extra).spawn, r.i64("spawn")); [[fallthrough]];
      case core::ProfWorkKind::meta_task: EXPECT_EQ(w.function, r.u64("lg_id")); break;
      case core::ProfWorkKind::partition: EXPECT_EQ(w.function, r.u64("part_op")); break;
      case core::ProfWorkKind::prof_task: break;
    }
    return true;
  }

  void times(const OracleRecord& r, std::int64_t create, std::int64_t ready, std::int64_t start, std::int64_t stop) {
    EXPECT_EQ(create, r.i64("create"));
    EXPECT_EQ(ready, r.i64("ready"));
    EXPECT_EQ(start, r.i64("start"));
    EXPECT_EQ(stop, r.i64("stop"));
  }
  void events(const OracleRecord& r, core::ProfEvent creator, core::ProfEvent critical, core::ProfEvent fevent) {
    EXPECT_EQ(creator.id, r.u64("creator"));
    EXPECT_EQ(critical.id, r.u64("critical"));
    EXPECT_EQ(fevent.id, r.u64("fevent"));
  }

  template <typename T>
  static const T& at(const std::vector<T>& v, std::size_t nth) {
    if (nth >= v.size()) throw std::runtime_error("the reader has fewer records of this type than the oracle");
    return v[nth];
  }
  template <typename T, typename P>
  static const T& nth_of(const std::vector<T>& v, std::size_t nth, P&& pred) {
    for (const T& x : v)
      if (pred(x) && nth-- == 0) return x;
    throw std::runtime_error("the reader has fewer records of this type than the oracle");
  }
  template <typename T, typename P>
  static const T& find(const std::vector<T>& v, P&& pred) {
    return nth_of(v, 0, pred);
  }

  const core::ProfileRecords& p_;
  std::set<std::uint64_t> task_kinds_seen_;
};

class LegionProfOracle : public ::testing::TestWithParam<fs::path> {};

TEST_P(LegionProfOracle, CountsOfEveryRecordTypeAndFirstRecordsMatchTheDecoder) {
  const fs::path run = GetParam();
  std::ifstream counts_file(run / "decoder_counts.json");
  ASSERT_TRUE(counts_file) << "missing oracle: run scripts/make_prof_oracle.sh";
  const nlohmann::json oracle = nlohmann::json::parse(counts_file);
  const auto first = parse_first(run / "decoder_first.txt");

  auto trace = read_trace({run.string()}, {}, 1);
  ASSERT_TRUE(trace.ok()) << trace.error().to_string();
  EXPECT_EQ(trace->format, core::TraceFormat::legion_prof);
  ASSERT_EQ(trace->files.size(), oracle["files"].size());

  std::map<std::string, std::uint64_t> total;
  std::size_t checked = 0;
  for (const auto& f : trace->files) {
    const std::string name = fs::path(f.path).filename().string();
    SCOPED_TRACE(run.filename().string() + "/" + name);
    ASSERT_TRUE(oracle["files"].contains(name));
    const auto& expected = oracle["files"][name];
    std::set<std::string> declared;
    for (const auto& t : f.profile.record_types) {
      declared.insert(t.name);
      EXPECT_EQ(t.count, expected.value(t.name, std::uint64_t{0})) << t.name;
      total[t.name] += t.count;
    }
    for (const auto& [type, count] : expected.items()) EXPECT_TRUE(declared.count(type)) << type;
    EXPECT_EQ(f.node, static_cast<int>(f.profile.machine.value().node_id));
    EXPECT_EQ(f.profile.counts.total(core::unjoined_record_stats()), 0u);  // every child joins its parent in these logs

    SpotCheck check(f.profile);
    std::map<std::string, std::size_t> nth;
    ASSERT_TRUE(first.count(name));
    for (const auto& r : first.at(name)) {
      SCOPED_TRACE(r.type + " #" + std::to_string(nth[r.type]));
      if (check.check(r, nth[r.type]++)) ++checked;
    }
  }
  for (const auto& [type, count] : oracle["total"].items()) EXPECT_EQ(total[type], count.get<std::uint64_t>()) << type;
  // The oracle's first records of the kept types: at least MachineDesc, ZeroTime, ... in every run.
  EXPECT_GE(checked, 40u);
}

INSTANTIATE_TEST_SUITE_P(Runs, LegionProfOracle, ::testing::ValuesIn(runs()),
                         [](const auto& info) { return info.param.filename().string(); });

}  // namespace
}  // namespace rr::parser
