// The generators: deterministic output, logs that parse cleanly with the counts the writer reports, a graph
// equal to the generator's own program, and a replay on the truth machine that reproduces the truth exactly.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <tuple>
#include <sstream>

#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "gen/s3d.hpp"
#include "graph/graph_builder.hpp"
#include "parser/trace_reader.hpp"
#include "session/session.hpp"
#include "support/test_dir.hpp"

namespace rr::gen {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Generated {
  Program program;
  Truth truth;
  TruthMachine machine;
  WriteResult written;
};

Generated generate(const std::string& kind, const SmallOptions& o, const fs::path& dir,
                   Compression c = Compression::none) {
  Generated g;
  g.program = kind == "chain" ? make_chain(60, o) : kind == "fork-join" ? make_fork_join(7, 6, o) : make_random_dag(1500, o);
  g.truth = schedule(g.program, g.machine);
  g.written = write_trace(g.program, g.truth, g.machine, dir.string(), c);
  return g;
}

TEST(Generator, SameSeedSameBytesOtherSeedOtherBytes) {
  const rr::testing::TestDir a("rr_gen_a");
  const rr::testing::TestDir b("rr_gen_b");
  const rr::testing::TestDir c("rr_gen_c");
  generate("random-dag", {3, 2, 11}, a.path());
  generate("random-dag", {3, 2, 11}, b.path());
  generate("random-dag", {3, 2, 12}, c.path());
  for (const char* f : {"node_0.log", "node_1.log", "node_2.log", "truth.json", "machine.toml"})
    EXPECT_EQ(slurp(a.path() / f), slurp(b.path() / f)) << f;
  EXPECT_NE(slurp(a.path() / "node_0.log"), slurp(c.path() / "node_0.log"));
  EXPECT_NE(slurp(a.path() / "truth.json"), slurp(c.path() / "truth.json"));
}

TEST(Generator, LogsParseCleanlyWithTheReportedCounts) {
  for (const char* kind : {"chain", "fork-join", "random-dag"}) {
    for (auto c : {Compression::none, Compression::gzip, Compression::xz, Compression::zstd}) {
      const rr::testing::TestDir s("rr_gen");
      auto g = generate(kind, {2, 2, 5}, s.path(), c);
      auto trace = parser::read_trace({s.path().string()}, {});
      ASSERT_TRUE(trace.ok()) << kind << ": " << trace.error().to_string();
      std::map<std::string, std::uint64_t> parsed;
      std::uint64_t malformed = 0;
      for (const auto& f : trace->files) {
        malformed += f.stats.malformed_total();
        for (auto k : core::all_record_kinds())
          if (f.stats.records[k]) parsed[std::string(core::record_kind_name(k))] += f.stats.records[k];
      }
      EXPECT_EQ(malformed, 0u) << kind;
      EXPECT_EQ(parsed, g.written.records) << kind;
      EXPECT_EQ(trace->era, core::Era::e2) << kind;
    }
  }
}

// Replays a written trace on the machine its truth was scheduled on, through the session.
struct Replayed {
  graph::BuildResult built;
  std::uint64_t malformed_lines = 0;
  std::int64_t makespan_ns = -1;
  std::uint64_t stuck = 0;
  std::vector<replay::TimeNs> start, end;  // per vertex, as the replay reports them
  core::IdWidth width = core::IdWidth::bits32;
};
Replayed replay_written(const fs::path& dir) {
  Replayed out;
  auto trace = session::load_trace({dir.string()}, {});
  if (!trace.ok()) {
    ADD_FAILURE() << trace.error().to_string();
    return out;
  }
  auto run = session::replay_trace(*trace, {(dir / "machine.toml").string(), {}}, {});
  if (!run.ok()) {
    ADD_FAILURE() << run.error().to_string();
    return out;
  }
  out.makespan_ns = run->result.makespan_ns;
  out.stuck = run->result.stuck;
  out.malformed_lines = trace->malformed_lines();
  for (graph::VertexId v = 0; v < run->result.ops.size(); ++v) {
    out.start.push_back(run->result.start(v));
    out.end.push_back(run->result.end(v));
  }
  out.width = trace->records.width;
  out.built = std::move(trace->built);
  return out;
}

// Property: the graph built from the logs is the generator's own program, operation for operation.
TEST(GeneratorProperty, GraphFromTheLogsEqualsTheGeneratedProgram) {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const rr::testing::TestDir s("rr_gen");
    auto g = generate("random-dag", {1 + static_cast<std::uint32_t>(seed % 4), 2, seed}, s.path());
    auto trace = parser::read_trace({s.path().string()}, {});
    ASSERT_TRUE(trace.ok());
    auto built = graph::build_event_graph(*trace);
    EXPECT_EQ(built.findings.total(), 0u) << "seed " << seed;
    ASSERT_EQ(built.graph.vertex_count(), g.program.ops.size());
    // Vertex of each op by its event: the writer numbers events per node in op order.
    std::map<std::pair<std::uint32_t, std::uint64_t>, graph::VertexId> by_node_index;
    core::IdLayout layout = core::IdLayout::for_width(trace->width);
    for (graph::VertexId v = 0; v < built.graph.vertex_count(); ++v)
      by_node_index[{layout.node_of(built.graph.event(v).id()), layout.index_of(built.graph.event(v).id())}] = v;
    std::vector<std::uint32_t> next(g.program.nodes, 1);
    std::vector<graph::VertexId> vertex(g.program.ops.size());
    for (std::size_t i = 0; i < g.program.ops.size(); ++i) vertex[i] = by_node_index.at({g.program.ops[i].node, next[g.program.ops[i].node]++});
    for (std::size_t i = 0; i < g.program.ops.size(); ++i) {
      const auto& op = g.program.ops[i];
      const auto kind = built.graph.kind(vertex[i]);
      EXPECT_EQ(kind, op.kind == GenKind::task ? graph::OpKind::task : op.kind == GenKind::copy ? graph::OpKind::copy
                                                                                                 : graph::OpKind::merge);
      std::multiset<graph::VertexId> expected, actual;
      for (auto in : op.inputs) expected.insert(vertex[in]);
      for (auto p : built.graph.predecessors(vertex[i])) actual.insert(p);
      EXPECT_EQ(actual, expected) << "op " << i << " seed " << seed;
    }
  }
}

// Fidelity: replaying on the machine the truth was scheduled on reproduces the truth, to the nanosecond.
TEST(GeneratorFidelity, ReplayOnTheTruthMachineReproducesTheTruth) {
  const std::vector<std::pair<std::string, SmallOptions>> cases = {
      {"chain", {2, 1, 1}}, {"fork-join", {3, 2, 2}}, {"random-dag", {1, 2, 3}},
      {"random-dag", {4, 3, 4}}, {"random-dag", {40, 1, 5}}};  // 40 nodes: 64-bit ids
  for (const auto& [kind, o] : cases) {
    const rr::testing::TestDir s("rr_gen");
    auto g = generate(kind, o, s.path());
    auto r = replay_written(s.path());
    EXPECT_EQ(r.makespan_ns, g.truth.makespan_ns) << kind << " on " << o.nodes << " node(s)";
    EXPECT_EQ(r.stuck, 0u);
    EXPECT_GT(g.truth.makespan_ns, 0);
  }
}

// The graph vertex of every op of a written program. The writer gives every op but a phase an event
// (node, index) numbered per node in op order from 1, then each barrier an index on its owner node after
// those; a phase's event is (barrier, generation). Arrives and alters produce no event of their own (their
// vertex carries the phase's), so they are matched by (kind, logging node, issuer, phase) in log order,
// which is op order within a node's file.
std::vector<graph::VertexId> vertices_of_ops(const Program& p, const graph::EventGraph& g, core::IdWidth width) {
  const core::IdLayout layout = core::IdLayout::for_width(width);
  using Key = std::tuple<std::uint32_t, std::uint64_t, std::uint32_t>;  // node, index, generation
  auto key_of = [&](const core::EventKey& e) { return Key{layout.node_of(e.id()), layout.index_of(e.id()), e.gen}; };
  std::map<Key, graph::VertexId> producer;
  std::map<std::tuple<graph::OpKind, std::uint32_t, graph::VertexId, Key>, std::vector<graph::VertexId>> arrivals;
  for (graph::VertexId v = 0; v < g.vertex_count(); ++v) {
    const auto kind = g.kind(v);
    if (kind == graph::OpKind::task_resume) continue;
    if (kind == graph::OpKind::barrier_arrive || kind == graph::OpKind::barrier_alter)
      arrivals[{kind, g.node(v), g.issuer(v), key_of(g.event(v))}].push_back(v);
    else
      EXPECT_TRUE(producer.emplace(key_of(g.event(v)), v).second) << "two producers of " << core::to_string(g.event(v));
  }
  std::vector<std::uint64_t> next(p.nodes, 1);
  std::vector<Key> key(p.ops.size());
  for (std::size_t i = 0; i < p.ops.size(); ++i)
    if (p.ops[i].kind != GenKind::phase) key[i] = {p.ops[i].node, next[p.ops[i].node]++, 1};
  std::vector<std::uint64_t> barrier_index(p.barriers.size());
  for (std::size_t b = 0; b < p.barriers.size(); ++b) barrier_index[b] = next[p.barriers[b].node]++;
  auto phase_key = [&](const GenOp& op) { return Key{p.barriers[op.barrier].node, barrier_index[op.barrier], op.generation}; };
  std::vector<graph::VertexId> vertex(p.ops.size(), graph::kNoVertex);
  std::map<std::tuple<graph::OpKind, std::uint32_t, graph::VertexId, Key>, std::size_t> taken;
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const GenOp& op = p.ops[i];
    if (op.kind == GenKind::arrive || op.kind == GenKind::alter) {
      const auto kind = op.kind == GenKind::arrive ? graph::OpKind::barrier_arrive : graph::OpKind::barrier_alter;
      const graph::VertexId issuer = op.issuer == kNoOp ? graph::kNoVertex : vertex[op.issuer];  // issuers come first
      const auto k = std::make_tuple(kind, op.node, issuer, phase_key(op));
      const auto& candidates = arrivals[k];
      const std::size_t n = taken[k]++;
      if (n < candidates.size()) vertex[i] = candidates[n];
    } else {
      auto it = producer.find(op.kind == GenKind::phase ? phase_key(op) : key[i]);
      if (it != producer.end()) vertex[i] = it->second;
    }
    EXPECT_NE(vertex[i], graph::kNoVertex) << "no vertex for op " << i << " (" << kGenKindNames[static_cast<int>(op.kind)] << ")";
  }
  return vertex;
}

// Every op's start and end in the replay on the truth machine equal the truth's, to the nanosecond. The two
// mean the same thing for every kind: a task starts when its first segment takes its processor and ends when
// its last segment ends (a task that waits is a task vertex plus one task_resume vertex per wait, and its
// finish event leaves the last one); a copy starts when it takes a lane and ends when its data is there; a
// merge starts when its last input is seen and ends merge_ns later; a trigger, arrive or alter starts and
// ends when it is issued and its precondition seen. A phase is compared by when it fires: the replay gives it no
// time of its own (its start is its end, so that the critical path charges the wait to its arrivals), while the
// truth's start is when the phase before it fired.
void expect_replay_reproduces_every_op(const Program& p, const Truth& truth, const fs::path& dir, const std::string& what) {
  auto r = replay_written(dir);
  ASSERT_EQ(r.start.size(), r.built.graph.vertex_count()) << what;
  EXPECT_EQ(r.makespan_ns, truth.makespan_ns) << what;
  EXPECT_EQ(r.stuck, 0u) << what;
  const auto vertex = vertices_of_ops(p, r.built.graph, r.width);
  std::map<std::string, std::uint64_t> checked, wrong;
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    const graph::VertexId v = vertex[i];
    if (v == graph::kNoVertex) continue;
    const std::string kind = kGenKindNames[static_cast<int>(p.ops[i].kind)];
    graph::VertexId last = v;  // the segment whose end is the task's end
    if (r.built.graph.kind(v) == graph::OpKind::task && !r.built.graph.waits_of(v).empty())
      last = r.built.graph.waits_of(v).back().resume;
    ++checked[kind];
    const bool phase = p.ops[i].kind == GenKind::phase;
    const bool start_ok = phase ? r.start[v] == r.end[v] : r.start[v] == truth.start[i];
    if (!start_ok || r.end[last] != truth.end[i]) {
      if (wrong[kind]++ < 5)
        ADD_FAILURE() << what << ": op " << i << " (" << kind << ", " << core::to_string(r.built.graph.event(v))
                      << ") replayed " << r.start[v] << ".." << r.end[last] << " ns, truth " << truth.start[i] << ".."
                      << truth.end[i] << " ns";
    }
  }
  EXPECT_TRUE(wrong.empty()) << what << ": ops off the truth by kind: " << ::testing::PrintToString(wrong)
                             << " of " << ::testing::PrintToString(checked);
  EXPECT_EQ(std::accumulate(checked.begin(), checked.end(), std::uint64_t{0}, [](auto a, const auto& e) { return a + e.second; }),
            p.ops.size()) << what;
}

TEST(GeneratorFidelity, EveryOperationStartsAndEndsAsInTheTruth) {
  struct Case {
    std::string what;
    Program program;
  };
  std::vector<Case> cases;
  cases.push_back({"chain on 2 nodes", make_chain(60, {2, 1, 1})});
  cases.push_back({"fork-join on 3 nodes", make_fork_join(7, 6, {3, 2, 2})});
  cases.push_back({"random-dag on 1 node", make_random_dag(1500, {1, 2, 3})});
  cases.push_back({"random-dag on 4 nodes", make_random_dag(1500, {4, 3, 4})});
  cases.push_back({"random-dag on 40 nodes (64-bit ids)", make_random_dag(1500, {40, 1, 5})});
  cases.push_back({"stencil 1-D", make_stencil(1, 12, {8, 2, 4})});
  cases.push_back({"stencil 3-D", make_stencil(3, 12, {8, 2, 4})});
  cases.push_back({"s3d dme all, 2 nodes, 3 steps (drivers wait)", make_s3d({"dme", "all", 2, 3, 48, 5})});
  cases.push_back({"s3d dme mixed, 5 nodes", make_s3d({"dme", "mixed", 5, 1, 48, 3})});
  for (const auto& c : cases) {
    const rr::testing::TestDir s("rr_gen");
    TruthMachine m;
    Truth truth = schedule(c.program, m);
    ASSERT_EQ(truth.never_ran, 0u) << c.what;
    write_trace(c.program, truth, m, s.path().string(), Compression::none);
    expect_replay_reproduces_every_op(c.program, truth, s.path(), c.what);
  }
}

// Every injected quirk shows up in stats and validate as exactly what was injected, and nothing else; the
// timing is untouched, so the replay still reproduces the truth.
TEST(GeneratorQuirks, StatsAndValidateReportExactlyWhatWasInjected) {
  const rr::testing::TestDir s("rr_gen");
  Program p = make_random_dag(3000, {3, 2, 9});
  TruthMachine m;
  Truth truth = schedule(p, m);
  Quirks q;
  q.nil_args = 0.1;
  q.spaced_preconditions = 0.05;
  q.orphan_copy_sizes = 0.2;
  q.external_preconditions = 0.3;
  q.other_categories = 0.02;
  q.pending_dump = true;
  q.truncate_last_line = true;
  auto w = write_trace(p, truth, m, s.path().string(), Compression::none, q);
  for (const char* quirk : {"nil_args", "spaced_preconditions", "orphan_copy_sizes", "external_preconditions", "other_categories"})
    EXPECT_GT(w.injected[quirk], 0u) << quirk;
  auto trace = parser::read_trace({s.path().string()}, {});
  ASSERT_TRUE(trace.ok());
  core::FileStats total;
  for (const auto& f : trace->files) {
    total.records += f.stats.records;
    total.counts += f.stats.counts;
    total.null_args += f.stats.null_args;
    total.era += f.stats.era;
  }
  EXPECT_EQ(total.null_args, w.injected["nil_args"]);
  EXPECT_EQ(total.era.spaced_preconditions, w.injected["spaced_preconditions"]);
  EXPECT_EQ(total.counts[core::Stat::other_category], w.injected["other_categories"]);
  // The last line (node 0's "DONE") was cut: one dump line fewer, one line of unprefixed text.
  EXPECT_EQ(total.counts[core::Stat::pending_event_dump], w.injected["pending_dump_lines"] - 1);
  EXPECT_EQ(total.counts[core::Stat::unprefixed_text], 1u);
  EXPECT_EQ(total.malformed_total(), 0u);
  EXPECT_EQ(trace->era, core::Era::e2c);
  auto built = graph::build_event_graph(*trace);
  EXPECT_EQ(built.findings.count(core::Stat::external_event), w.injected["external_preconditions"]);
  EXPECT_EQ(built.findings.count(core::Stat::zero_byte_copy_orphan), w.injected["orphan_copy_sizes"]);
  EXPECT_EQ(built.findings.total(), w.injected["external_preconditions"] + w.injected["orphan_copy_sizes"]);
  EXPECT_EQ(replay_written(s.path()).makespan_ns, truth.makespan_ns);
}

TEST(GeneratorQuirks, ATruncatedRecordLineIsOneMalformedLine) {
  const rr::testing::TestDir s("rr_gen");
  Program p = make_chain(20, {1, 1, 1});
  Quirks q;
  q.truncate_last_line = true;
  auto w = write_trace(p, schedule(p, {}), {}, s.path().string(), Compression::gzip, q);
  auto trace = parser::read_trace({s.path().string()}, {});
  ASSERT_TRUE(trace.ok());
  EXPECT_EQ(trace->files[0].stats.malformed_total(), 1u);
  EXPECT_EQ(trace->files[0].stats.records[core::RecordKind::task_time], w.records["Task Time"]);
}

TEST(S3dGenerator, TaskCountsPerNodeAndStepFollowTheSpecTables) {
  // docs/s3d.md, Tasks and durations: 91 (DME) and 136 (heptane) RHS tasks per node per RK stage, 6 stages per step.
  for (const auto& [mechanism, per_step] : std::vector<std::pair<std::string, std::uint64_t>>{{"dme", 546}, {"heptane", 816}}) {
    for (const char* mapping : {"all", "mixed"}) {
      Program p = make_s3d({mechanism, mapping, 3, 2, 48, 1});
      std::vector<std::uint64_t> tasks(p.nodes, 0), cpu_tasks(p.nodes, 0);
      std::uint64_t meta = 0, copies = 0, drivers = 0, app = 0, utility = 0;
      for (const auto& op : p.ops) {
        if (op.kind == GenKind::copy) ++copies;
        if (op.kind != GenKind::task) continue;
        if (op.func == 3) ++drivers;
        if (op.func == 4) {
          ++meta;
          utility += p.processors[op.processor].kind == GenProcKind::utility;
        }
        if (op.func < 10) continue;
        ++app;
        ++tasks[op.node];
        cpu_tasks[op.node] += p.processors[op.processor].kind == GenProcKind::cpu ? 1 : 0;
      }
      // docs/s3d.md: five meta-tasks per application task, 1.5 per copy, all on utility processors; one driver a node.
      EXPECT_EQ(meta, 5 * app + copies + (copies + 1) / 2);
      EXPECT_EQ(utility, meta);
      EXPECT_EQ(drivers, p.nodes);
      for (std::uint32_t n = 0; n < p.nodes; ++n) {
        EXPECT_EQ(tasks[n], 2 * per_step) << mechanism << " " << mapping;
        // mixed: the species gradient and flux batches run on CPUs (docs/s3d.md: 288 DME / 468 heptane per step).
        const std::uint64_t cpu = std::string(mapping) == "all" ? 0 : (mechanism == "dme" ? 288 : 468);
        EXPECT_EQ(cpu_tasks[n], 2 * cpu) << mechanism << " " << mapping;
      }
    }
  }
}

TEST(S3dGenerator, DeterministicParsesCleanlyAndReplaysToItsTruth) {
  for (const char* mapping : {"all", "mixed"}) {
    for (std::uint32_t nodes : {2u, 5u}) {
      const rr::testing::TestDir a("rr_gen_a");
      const rr::testing::TestDir b("rr_gen_b");
      Program p = make_s3d({"dme", mapping, nodes, 1, 48, 3});
      TruthMachine m;
      Truth truth = schedule(p, m);
      write_trace(p, truth, m, a.path().string(), Compression::zstd);
      write_trace(make_s3d({"dme", mapping, nodes, 1, 48, 3}), truth, m, b.path().string(), Compression::zstd);
      EXPECT_EQ(slurp(a.path() / "node_1.log.zst"), slurp(b.path() / "node_1.log.zst"));
      auto r = replay_written(a.path());
      EXPECT_EQ(r.malformed_lines, 0u);
      EXPECT_EQ(r.built.findings.total(), 0u);
      EXPECT_EQ(r.makespan_ns, truth.makespan_ns) << mapping << " on " << nodes << " nodes";
      EXPECT_EQ(r.stuck, 0u);
    }
  }
}

// The planted changes of studies: the mixed strategy's CPU tasks 2.5 times as fast (the same random draws, so each
// busy time is the default's divided by 2.5, rounded) and its device-host copies of 64 KiB; the other operations keep
// their times and sizes, all-GPU programs are unchanged, and the replay still reproduces the truth.
TEST(S3dGenerator, CpuSpeedAndHostCopyBytesChangeOnlyTheMixedStrategysCpuWorkAndCopies) {
  S3dOptions plain{"dme", "mixed", 2, 1, 48, 3};
  S3dOptions planted = plain;
  planted.cpu_speed = 2.5;
  planted.host_copy_bytes = 65536;
  const Program a = make_s3d(plain), b = make_s3d(planted);
  ASSERT_EQ(a.ops.size(), b.ops.size());
  std::uint64_t cpu_tasks = 0, host_copies = 0;
  for (std::size_t i = 0; i < a.ops.size(); ++i) {
    const GenOp &x = a.ops[i], &y = b.ops[i];
    const bool app_cpu = x.kind == GenKind::task && x.func >= 10 && a.processors[x.processor].kind == GenProcKind::cpu;
    const bool host = x.kind == GenKind::copy && x.node == x.dst_node && x.bytes == 3481600;
    if (app_cpu) {
      ++cpu_tasks;
      EXPECT_NEAR(static_cast<double>(y.busy_us), static_cast<double>(x.busy_us) / 2.5, 1.0) << i;
    } else if (host) {
      ++host_copies;
      EXPECT_EQ(y.bytes, 65536u) << i;
    } else {
      EXPECT_EQ(y.busy_us, x.busy_us) << i;
      EXPECT_EQ(y.bytes, x.bytes) << i;
    }
  }
  EXPECT_EQ(cpu_tasks, 2u * 6 * 48);      // per node and stage: 24 species gradients and 24 species fluxes
  EXPECT_EQ(host_copies, 2u * 6 * 40);    // 16 down and 24 up
  S3dOptions all = plain, all_planted = planted;
  all.mapping = all_planted.mapping = "all";
  const Program c = make_s3d(all), d = make_s3d(all_planted);
  for (std::size_t i = 0; i < c.ops.size(); ++i) EXPECT_EQ(c.ops[i].busy_us, d.ops[i].busy_us) << i;
  const rr::testing::TestDir s("rr_gen");
  TruthMachine m;
  Truth truth = schedule(b, m);
  write_trace(b, truth, m, s.path().string(), Compression::none);
  EXPECT_EQ(replay_written(s.path()).makespan_ns, truth.makespan_ns);
}

TEST(StencilGenerator, HaloExchangeWithBarriersReplaysToItsTruth) {
  for (std::uint32_t dims : {1u, 3u}) {
    const rr::testing::TestDir s("rr_gen");
    Program p = make_stencil(dims, 12, {8, 2, 4});
    TruthMachine m;
    Truth truth = schedule(p, m);
    EXPECT_EQ(truth.never_ran, 0u);
    auto w = write_trace(p, truth, m, s.path().string(), Compression::none);
    // Every directed neighbour pair has a barrier of two arrivals per step: the sender's, and the receiver's
    // from the second step on (an Alter of -1 in the first).
    const std::uint64_t links = dims == 1 ? 2 * 7 : 2 * (4 + 4 + 4);  // 8 nodes: a line, or a 2x2x2 grid
    EXPECT_EQ(w.records["Barrier Creation"], links);
    EXPECT_EQ(w.records["Barrier Alter"], links);
    EXPECT_EQ(w.records["Barrier Arrive"], links * (2 * 12 - 1));
    auto r = replay_written(s.path());
    EXPECT_EQ(r.built.findings.total(), 0u) << dims;
    EXPECT_EQ(r.makespan_ns, truth.makespan_ns) << dims;
    EXPECT_EQ(r.stuck, 0u);
  }
}

TEST(S3dGenerator, DriversWaitAcrossStepsAndTheReplayStillMatchesTheTruth) {
  const rr::testing::TestDir s("rr_gen");
  Program p = make_s3d({"dme", "all", 2, 3, 48, 5});
  ASSERT_EQ(p.waits.size(), 2u * 3u);  // each driver waits for every step
  TruthMachine m;
  Truth truth = schedule(p, m);
  auto w = write_trace(p, truth, m, s.path().string(), Compression::gzip);
  EXPECT_EQ(w.records["Task Wait"], 6u);
  EXPECT_GT(w.records["Event Trigger"], 0u);
  EXPECT_GT(w.records["Barrier Arrive"], 0u);
  // Task Time of a driver = its busy time + its waits (so the replay's busy = Task Time - waits).
  std::int64_t waited = 0;
  for (std::size_t i = 0; i < p.waits.size(); ++i)
    if (p.waits[i].task == 0) waited += truth.wait_us[i];
  EXPECT_GT(waited, 0);
  auto r = replay_written(s.path());
  EXPECT_EQ(r.built.findings.total(), 0u);
  EXPECT_EQ(r.makespan_ns, truth.makespan_ns);
}

TEST(GeneratorCycle, ValidationNamesTheInjectedCycle) {
  const rr::testing::TestDir s("rr_gen");
  Program p = make_chain(6, {2, 1, 1});
  ASSERT_TRUE(inject_cycle(p));
  TruthMachine m;
  Truth truth = schedule(p, m);
  EXPECT_EQ(truth.never_ran, 6u);
  write_trace(p, truth, m, s.path().string(), Compression::none);
  auto r = replay_written(s.path());
  EXPECT_EQ(r.built.findings.count(core::Stat::cycle), 1u);
  ASSERT_EQ(r.built.findings.cycle.size(), 6u);  // the whole chain, from its first task
  EXPECT_EQ(r.built.graph.event(r.built.findings.cycle.front()), core::EventKey::make(0x20000001, 1));
  EXPECT_EQ(r.stuck, 6u);

  const rr::testing::TestDir d("rr_gen_dag");
  Program dag = make_random_dag(400, {3, 2, 8});
  ASSERT_TRUE(inject_cycle(dag));
  write_trace(dag, schedule(dag, m), m, d.path().string(), Compression::none);
  auto rd = replay_written(d.path());
  EXPECT_EQ(rd.built.findings.count(core::Stat::cycle), 1u);
  EXPECT_GE(rd.built.findings.cycle.size(), 2u);
}

}  // namespace
}  // namespace rr::gen
