// The Legion Prof graph built in parts over ranks (graph/prof_graph_part.hpp), ranks as threads on a network that
// delivers messages from different ranks in shuffled order: each rank's part must be the whole build's graph
// (build_profile_graph) restricted to the vertices of its nodes, field by field (ids, kinds, nodes, events,
// issuers, positions, payloads and what they name, observed times, launch fractions, measured delays, outside
// work, out-edges in order), with the whole trace's function names and observed origin, and the findings summed
// over ranks the whole build's. On every bundled Legion Prof log, of one process and of two, at 1 to 3 ranks, with
// and without --traced-cores; and a rank that cannot read its file, or whose network fails at any exchange, stops
// every rank with an error naming it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "graph/prof_graph_builder.hpp"
#include "graph/prof_graph_part.hpp"
#include "parser/trace_reader.hpp"
#include "replay/part_exchange.hpp"
#include "support/failing_exchange.hpp"
#include "support/in_process_network.hpp"
#include "support/prof_part_text.hpp"
#include "support/prof_records_builder.hpp"
#include "support/test_dir.hpp"

namespace rr::graph {
namespace {

namespace fs = std::filesystem;
using rr::testing::describe_prof;
using rr::testing::FailingExchange;
using rr::testing::RankFiles;
using rr::testing::read_by_rank;

const fs::path kProfLogs = fs::path(RR_SOURCE_DIR) / "data/traces/legion-prof";
// Every bundled log: two runs of two processes, six of one.
const char* const kTwoProcesses[] = {"circuit_mpi2_medium_cpu2_util1", "ghost_mpi2_n4096_b4_s20_cpu2_util1"};
const char* const kOneProcess[] = {"cgsolver_g8_b4_cpu2_util1", "circuit_medium_cpu2_util1", "circuit_small_cpu2_util1",
                                   "circuit_small_cpu2_util1_nocritical", "ghost_n1024_b2_s10_cpu2_util1",
                                   "multiple_partitions_n1024_b4_cpu1_util1"};

struct Built {
  std::vector<std::optional<GraphPart>> parts;
  std::vector<std::string> errors;
};

// `failing` (with `fail_at`): the rank whose network fails, and at which exchange; ~0u for none.
Built build_parts(const std::vector<PartFiles>& files, const NodeRanks& ranks, std::uint64_t seed,
                  const BuildOptions& options = {}, std::uint32_t failing = ~0u, std::uint32_t fail_at = 0) {
  rr::testing::InProcessNetwork network(ranks.ranks, seed);
  Built built;
  built.parts.resize(ranks.ranks);
  built.errors.resize(ranks.ranks);
  std::vector<std::thread> threads;
  for (std::uint32_t r = 0; r < ranks.ranks; ++r)
    threads.emplace_back([&, r] {
      replay::NetworkRankExchange network_exchange(network.rank(r));
      FailingExchange exchange(network_exchange, r == failing ? fail_at : 0);
      try {
        built.parts[r] = build_prof_graph_part(files[r], ranks, exchange, options);
      } catch (const std::exception& e) {
        built.errors[r] = e.what();
      }
    });
  for (std::thread& t : threads) t.join();
  return built;
}

std::uint32_t traced_nodes(const core::TraceRecords& trace) {
  std::int32_t last = 0;
  for (const core::FileRecords& f : trace.files) last = std::max(last, f.node);
  return static_cast<std::uint32_t>(last) + 1;
}

core::TraceRecords read_whole(const fs::path& dir) {
  auto read = parser::read_trace({dir.string()}, {});
  if (!read.ok()) throw std::runtime_error(read.error().to_string());
  return std::move(*read);
}

// Each rank's files: read from disk on their own, as a rank reads them, or (for records built as structs) copied.
struct RankInputs {
  std::vector<RankFiles> read;
  std::vector<core::TraceRecords> copied;
  std::vector<PartFiles> files;
};

RankInputs split(const core::TraceRecords& trace, const NodeRanks& ranks, bool from_disk) {
  RankInputs in;
  if (from_disk) {
    in.read = read_by_rank(trace, ranks);
    for (const RankFiles& r : in.read) in.files.push_back(r.files);
    return in;
  }
  in.copied.resize(ranks.ranks);
  in.files.resize(ranks.ranks);
  for (std::uint32_t f = 0; f < trace.files.size(); ++f) {
    const std::uint32_t r = ranks.rank_of(static_cast<std::uint32_t>(trace.files[f].node));
    in.copied[r].files.push_back(trace.files[f]);
    in.files[r].file_index.push_back(f);
  }
  for (std::uint32_t r = 0; r < ranks.ranks; ++r) {
    in.copied[r].format = trace.format;
    in.copied[r].width = trace.width;
    in.files[r].records = &in.copied[r];
    in.files[r].total_files = static_cast<std::uint32_t>(trace.files.size());
  }
  return in;
}

// The parts at 1 to 3 ranks against the whole build; returns the edges that leave one rank's part for another's at
// two ranks.
std::uint64_t expect_parts_are_the_whole(const core::TraceRecords& trace, bool from_disk, const BuildOptions& options) {
  const BuildResult whole = build_profile_graph(trace, options);
  const EventGraph& g = whole.graph;
  std::uint64_t crossing_at_two = 0;
  for (std::uint32_t count = 1; count <= 3; ++count) {
    SCOPED_TRACE(std::to_string(count) + " ranks");
    const NodeRanks ranks{count, traced_nodes(trace)};
    const RankInputs inputs = split(trace, ranks, from_disk);
    const Built built = build_parts(inputs.files, ranks, 17 + count, options);
    core::StatCounts summed;
    std::uint64_t external_references = 0, vertices = 0, crossing = 0;
    for (std::uint32_t r = 0; r < count; ++r) {
      if (!built.parts[r]) {
        ADD_FAILURE() << "rank " << r << ": " << built.errors[r];
        return 0;
      }
      const GraphPart& part = *built.parts[r];
      EXPECT_EQ(part.structure_problem(), "");
      EXPECT_EQ(part.whole_vertices, g.vertex_count());
      std::vector<VertexId> expected;
      for (VertexId v = 0; v < g.vertex_count(); ++v)
        if (ranks.rank_of(g.node(v)) == r) expected.push_back(v);
      if (part.ids != expected) {
        ADD_FAILURE() << "rank " << r << " owns other vertices: " << part.ids.size() << " against " << expected.size();
        return 0;
      }
      for (std::size_t i = 0; i < part.size(); ++i) {
        const std::string want = describe_prof(g, part.ids[i]), got = describe_prof(part, i);
        if (want != got) {
          ADD_FAILURE() << "rank " << r << "\n whole: " << want << "\n part:  " << got;
          break;
        }
      }
      if (part.size() > 0) {  // a part without vertices has empty arrays
        EXPECT_EQ(part.external_delay.empty(), !g.has_external_delays());
      }
      EXPECT_EQ(part.observed_origin, g.observed_origin());
      EXPECT_EQ(part.function_names, g.function_names());
      EXPECT_EQ(part.traffic.phases, g.phase_count());
      for (VertexId to : part.successors) crossing += ranks.rank_of(g.node(to)) != r;
      if (count == 1) {
        EXPECT_EQ(part.traffic.bytes_sent, 0u);
      }
      // Rank 0 notes what the whole build notes of the trace as a whole; the others nothing.
      if (r == 0) {
        EXPECT_EQ(part.findings.notes, whole.findings.notes);
        EXPECT_EQ(part.findings.explained_here, whole.findings.explained_here);
      } else {
        EXPECT_TRUE(part.findings.notes.empty());
      }
      summed += part.findings.counts;
      external_references += part.findings.external_references;
      vertices += part.size();
    }
    EXPECT_EQ(vertices, g.vertex_count());
    std::uint64_t whole_crossing = 0;
    for (VertexId v = 0; v < g.vertex_count(); ++v)
      for (VertexId to : g.successors(v)) whole_crossing += ranks.rank_of(g.node(to)) != ranks.rank_of(g.node(v));
    EXPECT_EQ(crossing, whole_crossing);
    if (count == 2) crossing_at_two = crossing;
    for (core::Stat kind : core::finding_stats())
      if (kind != core::Stat::cycle) {
        EXPECT_EQ(summed[kind], whole.findings.count(kind)) << core::stat_key(kind);
      }
    EXPECT_EQ(external_references, whole.findings.external_references);
  }
  return crossing_at_two;
}

std::uint64_t expect_parts_are_the_whole(const std::string& name, const BuildOptions& options = {}) {
  SCOPED_TRACE(name + (options.traced_cores ? " with traced cores" : ""));
  return expect_parts_are_the_whole(read_whole(kProfLogs / name), true, options);
}

TEST(ProfGraphPart, TwoProcessLogsAtOneToThreeRanks) {
  for (const char* name : kTwoProcesses) {
    // The two processes depend on each other: at two ranks edges cross.
    EXPECT_GT(expect_parts_are_the_whole(name), 0u) << name;
  }
}

TEST(ProfGraphPart, OneProcessLogsAtOneToThreeRanks) {
  for (const char* name : kOneProcess) expect_parts_are_the_whole(name);
}

// With the traced process's cores known, spans hold only their own work and start-up silences come out of the
// measured delays: each rank works them out from its own process's log.
TEST(ProfGraphPart, TracedCores) {
  BuildOptions options;
  options.traced_cores = 2;
  for (const char* name : kTwoProcesses) expect_parts_are_the_whole(name, options);
  options.traced_cores = 1;
  expect_parts_are_the_whole("circuit_small_cpu2_util1", options);
}

namespace pr = rr::testing::prof;

// An event created on node 1 (its creator node in bits 47-62, docs/legion-prof.md, Ids): homed on the second rank.
constexpr core::ProfEvent ev1(std::uint64_t n) { return core::ProfEvent{pr::ev(n).id | std::uint64_t{1} << 47}; }

core::ProfEventTrigger trigger(core::ProfEvent result, core::ProfEvent by, core::ProfEvent precondition, core::TimeNs at) {
  return {result, by, precondition, at};
}

// Two processes whose records reach into each other's at every turn the whole build takes: a task logged by process
// 0 that ran on process 1's processor (its vertex, waits and resume are rank 1's; its creator is rank 0's), a task
// launched from the other process, a trigger and an arrival both processes logged, a duplicate producer across the
// files, a launch by no task of the trace, a profiling response about an instance the other process created and one
// about an operation, a merger and a completion queue whose inputs cross, a phase fed from the other process, and
// measured delays behind them.
core::TraceRecords crossing_records() {
  core::ProfileRecords p0 = pr::with_processors(), p1;
  p0.machine = core::ProfMachine{0, 3, 1008, 1, 0, core::kNoIndex};  // node 2's log is missing
  p0.strings = {"main", "worker"};
  p0.task_kinds = {{1, 0, false}, {2, 1, false}};
  p1.strings = {"worker v2"};
  p1.task_kinds = {{2, 0, true}};
  p1.processors = {{core::Handle::make(pr::kCpuNode1), core::RealmProcKind::cpu}};
  const core::ProfEvent a = pr::ev(1), queue = pr::ev(60), instance = pr::ev(50);
  const core::ProfEvent b = ev1(5), dup = ev1(7), merged = ev1(8), r = ev1(10), awaited = ev1(11), late = ev1(12);
  const core::ProfEvent phase = pr::barrier(1, 3, 1);
  // Process 0.
  p0.work.push_back(pr::work(core::ProfWorkKind::task, pr::kCpu0, a, 0, 0, 10, 5000, {}, {}, 1));
  pr::add_waits(p0, {pr::wait_on(awaited, 400, 700, 900), pr::wait_on(b, 1500, 1600, 1700)});
  p0.work.push_back(pr::work(core::ProfWorkKind::task, pr::kCpuNode1, pr::ev(2), 100, 2600, 2700, 3200, a, merged, 2));
  pr::add_waits(p0, {pr::wait_on(b, 2800, 2900, 2950)});
  core::ProfCopy copy{};
  copy.fevent = dup;
  copy.creator = a;
  copy.create = 300;
  copy.ready = copy.start = 310;
  copy.stop = 400;
  copy.size = 64;
  p0.copies.push_back(copy);
  copy.fevent = pr::ev(3);
  copy.creator = pr::ev(99);  // produced by no record: an unknown issuer
  copy.ready = 2'000'000;     // and a long stall behind it
  copy.start = 2'000'100;
  copy.stop = 2'000'200;
  p0.copies.push_back(copy);
  p0.triggers.push_back(trigger(r, a, b, 350));
  p0.arrivals.push_back(trigger(phase, a, {}, 360));
  p0.completion_queues.push_back(pr::merger(queue, a, 370, {a, b, {}, {}}));
  core::ProfInstance inst{};
  inst.inst_uid = instance;
  inst.creator = a;
  inst.create = 150;
  p0.instances.push_back(inst);
  // Process 1.
  p1.work.push_back(pr::work(core::ProfWorkKind::task, pr::kCpuNode1, b, 120, 130, 140, 1200, a, {}, 2));
  p1.work.push_back(pr::work(core::ProfWorkKind::task, pr::kCpuNode1, dup, 0, 1300, 1300, 1400, b));
  p1.work.push_back(pr::work(core::ProfWorkKind::task, pr::kCpuNode1, late, 200, 3'000'000, 3'000'100, 3'000'500, b, phase));
  p1.work.push_back(pr::work(core::ProfWorkKind::prof_task, pr::kCpuNode1, ev1(20), 500, 500, 500, 520, instance));
  p1.work.push_back(pr::work(core::ProfWorkKind::prof_task, pr::kCpuNode1, ev1(21), 1250, 1250, 1250, 1260, b));
  p1.mergers.push_back(pr::merger(merged, b, 1210, {b, r, queue, {}}));
  p1.triggers.push_back(trigger(r, a, b, 350));  // forwarded to the event's creator: logged by both
  p1.triggers.push_back(trigger(awaited, b, {}, 600));
  p1.arrivals.push_back(trigger(phase, a, {}, 360));  // an arrival on process 1's barrier: logged by both
  return pr::trace_of({std::move(p0), std::move(p1)});
}

TEST(ProfGraphPart, RecordsThatCrossProcesses) {
  const core::TraceRecords trace = crossing_records();
  const BuildResult whole = build_profile_graph(trace);
  // Each turn happens in the whole build: otherwise this test would test less than it says.
  EXPECT_EQ(whole.findings.count(core::Stat::duplicate_producer), 1u);
  EXPECT_EQ(whole.findings.count(core::Stat::unknown_issuer), 1u);
  EXPECT_TRUE(whole.findings.cycle.empty());
  EXPECT_TRUE(whole.graph.has_external_delays());
  EXPECT_EQ(whole.graph.waits().size(), 3u);
  EXPECT_EQ(whole.findings.notes.size(), 1u);
  EXPECT_GT(expect_parts_are_the_whole(trace, false, {}), 0u);
  // The task process 0 logged on process 1's processor is rank 1's, its record rank 0's.
  const NodeRanks ranks{2, 2};
  const RankInputs inputs = split(trace, ranks, false);
  const Built built = build_parts(inputs.files, ranks, 9);
  ASSERT_TRUE(built.parts[1]) << built.errors[1];
  EXPECT_EQ(built.parts[1]->traffic.vertices_from_others, 1u);
}

// Mergers that wait on each other across processes: the whole build reports the cycle; the parts cannot order their
// fire times, and every rank stops saying so.
TEST(ProfGraphPart, ACycleOfMergersStopsEveryRank) {
  core::ProfileRecords p0 = pr::with_processors(), p1;
  p0.work.push_back(pr::work(core::ProfWorkKind::task, pr::kCpu0, pr::ev(1), 0, 0, 10, 100));
  p0.mergers.push_back(pr::merger(pr::ev(2), {}, 50, {ev1(3), pr::ev(1), {}, {}}));
  p1.mergers.push_back(pr::merger(ev1(3), {}, 60, {pr::ev(2), {}, {}, {}}));
  const core::TraceRecords trace = pr::trace_of({std::move(p0), std::move(p1)});
  ASSERT_FALSE(build_profile_graph(trace).findings.cycle.empty());
  const NodeRanks ranks{2, 2};
  const RankInputs inputs = split(trace, ranks, false);
  const Built built = build_parts(inputs.files, ranks, 3);
  for (std::uint32_t r = 0; r < 2; ++r) {
    EXPECT_FALSE(built.parts[r]);
    EXPECT_NE(built.errors[r].find("in a cycle"), std::string::npos) << built.errors[r];
  }
}

// A rank whose log cannot be read stops with its reading error; the other stops too, naming that rank and its error,
// instead of waiting for it.
TEST(ProfGraphPart, ARankThatCannotReadItsFileStopsEveryRank) {
  const rr::testing::TestDir dir("rr_prof_part_bad");
  const fs::path source = kProfLogs / kTwoProcesses[0];
  fs::copy_file(source / "prof_0.gz", dir.path() / "prof_0.gz");
  {
    std::ifstream in(source / "prof_1.gz", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream out(dir.path() / "prof_1.gz", std::ios::binary);
    out << bytes.substr(0, bytes.size() / 2);  // a gzip stream cut short
  }
  const NodeRanks ranks{2, 2};
  std::vector<PartFiles> files(2);
  std::vector<core::TraceRecords> records(2);
  for (std::uint32_t r = 0; r < 2; ++r) {
    files[r].file_index = {r};
    files[r].total_files = 2;
    auto read = parser::read_trace({(dir.path() / ("prof_" + std::to_string(r) + ".gz")).string()}, {});
    if (!read) {
      files[r].read_error = read.error().to_string();
    } else {
      records[r] = std::move(*read);
      files[r].records = &records[r];
    }
  }
  ASSERT_EQ(files[1].records, nullptr) << "prof_1.gz was read although it is cut short";
  ASSERT_NE(files[1].read_error.find("prof_1.gz"), std::string::npos) << files[1].read_error;
  const Built built = build_parts(files, ranks, 5);
  for (std::uint32_t r = 0; r < 2; ++r) {
    EXPECT_FALSE(built.parts[r]) << "rank " << r << " built a part";
    EXPECT_NE(built.errors[r].find("prof_1.gz"), std::string::npos) << built.errors[r];
  }
  EXPECT_NE(built.errors[0].find("rank 1 of 2 stopped building its part of the graph"), std::string::npos)
      << built.errors[0];
}

// A rank that fails between exchanges (its network, at each exchange of the build in turn, the rounds of fire times
// among them) stops every other rank at that exchange, naming it.
TEST(ProfGraphPart, ARankThatFailsLaterStopsEveryRank) {
  const core::TraceRecords trace = read_whole(kProfLogs / kTwoProcesses[1]);
  const NodeRanks ranks{2, 2};
  std::vector<RankFiles> by_rank = read_by_rank(trace, ranks);
  std::vector<PartFiles> files;
  for (const RankFiles& r : by_rank) files.push_back(r.files);
  std::uint32_t fail_at = 1;
  for (;; ++fail_at) {
    const Built built = build_parts(files, ranks, fail_at, {}, 1, fail_at);
    if (built.parts[0] && built.parts[1]) break;  // past the build's last exchange
    for (std::uint32_t r = 0; r < 2; ++r) {
      EXPECT_FALSE(built.parts[r]) << "rank " << r << " built a part; exchange " << fail_at;
      EXPECT_NE(built.errors[r].find("the network went away"), std::string::npos) << built.errors[r];
    }
    EXPECT_NE(built.errors[0].find("rank 1 of 2"), std::string::npos) << built.errors[0];
    ASSERT_LT(fail_at, 100u) << "the build never ends";
  }
  // Two directories, the layout, the deliveries, the waits, the positions, at least one round of fire times and
  // the last agreement: nine exchanges or more.
  EXPECT_GE(fail_at, 10u);
}

}  // namespace
}  // namespace rr::graph
