// The traced machine of a trace read in parts (session/traced_part_machine.hpp): at 1 to 4 ranks as threads, every
// rank gets one process's traced machine, byte for byte (its processors, memories and nodes from every rank's
// records, its median copy size and its fitted network latency; for Legion Prof logs what they measured), from the
// logs, Legion Prof logs among them, and from a packed trace; and the
// median over ranks is the element one process's nth_element takes, however the values are spread. Under a fold, the
// parts split by model node serve the fit and the folded run.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "gen/generators.hpp"
#include "platform/output_target.hpp"
#include "machine_models/mapping.hpp"
#include "replay/machine_map.hpp"
#include "replay/network_sums.hpp"
#include "replay/part_replay.hpp"
#include "replay/part_exchange.hpp"
#include "machine_models/prof_facts.hpp"
#include "session/session.hpp"
#include "session/src/prof_part_facts.hpp"
#include "session/trace_packing.hpp"
#include "session/trace_part.hpp"
#include "session/traced_fit.hpp"
#include "session/traced_part_machine.hpp"
#include "support/generated_trace.hpp"
#include "support/in_process_network.hpp"
#include "support/ranks_as_threads.hpp"
#include "support/test_dir.hpp"

namespace rr::session {
namespace {

// Every rank's traced machine from its part of `trace` (logs, or with `packed` a packed trace), or why it failed.
std::vector<std::string> tomls_by_rank(const std::string& trace, std::uint32_t count, bool packed) {
  const auto files = packed ? core::Expected<TraceFilesByNode>(TraceFilesByNode{}) : files_by_node({trace});
  if (!files) return {files.error().to_string()};
  rr::testing::InProcessNetwork net(count, 3 + count);
  return rr::testing::on_ranks(net, count, [&](std::uint32_t r, replay::BlockNetwork& end) {
    replay::NetworkRankExchange exchange(end);
    std::string out;
    try {
      auto part = packed ? load_packed_part(trace, {}, count, r) : load_trace_part({trace}, *files, {}, count, exchange);
      if (!part) return part.error().to_string();
      replay::ReplayOptions options;
      options.execution.network = &end;
      auto machine = traced_machine_of_part(*part, exchange, options);
      out = machine ? machine->toml : "error: " + machine.error().to_string();
    } catch (const std::exception& e) {
      out = std::string("error: ") + e.what();
    }
    end.part_done();
    return out;
  });
}

// One process's traced machine of `trace`, read afresh (a copy would share an earlier fit).
std::string one_process_toml(const std::string& trace) {
  auto loaded = load_trace({trace}, {});
  if (!loaded) return loaded.error().to_string();
  return fit_traced_machine(*loaded).toml;
}

void expect_one_processs(const std::string& trace, std::uint32_t max_ranks, const std::string& name,
                         bool packed = false) {
  const std::string want = one_process_toml(trace);
  for (std::uint32_t ranks = 1; ranks <= max_ranks; ++ranks) {
    const auto got = tomls_by_rank(trace, ranks, packed);
    ASSERT_EQ(got.size(), ranks) << name << ": " << got.front();
    for (std::uint32_t r = 0; r < ranks; ++r)
      EXPECT_EQ(got[r], want) << name << " at " << ranks << " ranks, rank " << r;
  }
}

TEST(TracedPartMachine, TheRealTwoNodeTracesFittedMachineIsOneProcesss) {
  const std::string trace = RR_SOURCE_DIR "/data/traces/real/full_circuit_2node_p4_cpu2";
  // (fitted: the check compares a real bisection from parts, not a refusal)
  ASSERT_NE(one_process_toml(trace).find("[F] fitted so that"), std::string::npos);
  expect_one_processs(trace, 2, "full_circuit_2node_p4_cpu2");
}

TEST(TracedPartMachine, GeneratedMultiNodeTracesAreOneProcesssAtEveryRankCount) {
  const rr::testing::TestDir dir("rr_traced_part_machine");
  rr::testing::mixed_s3d(dir.path() / "s3d", 4);
  expect_one_processs((dir.path() / "s3d").string(), 4, "mixed S3D, 4 nodes");
  gen::SmallOptions three;
  three.nodes = 3;
  rr::testing::write_program(dir.path() / "random", gen::make_random_dag(3000, three));
  expect_one_processs((dir.path() / "random").string(), 3, "random DAG, 3 nodes");
  expect_one_processs(RR_SOURCE_DIR "/data/traces/s3d/dme_mixed_4n", 4, "S3D sample, 4 nodes");
}

// Legion Prof logs: the machine from every log's descriptions, and what the logs measured (the task segments'
// overheads, the latency and bandwidth of copies within a node) from each rank's own logs. At one rank the whole
// text is one process's; the two-process runs' fit replays are refused at two ranks (completion queues fed from both
// processes), so there what the logs measured is checked on its own, found over the ranks.
TEST(TracedPartMachine, LegionProfLogsMachineIsOneProcesss) {
  const std::string logs = RR_SOURCE_DIR "/data/traces/legion-prof/";
  for (const char* name : {"circuit_mpi2_medium_cpu2_util1", "cgsolver_g8_b4_cpu2_util1", "circuit_small_cpu2_util1"}) {
    const std::string want = one_process_toml(logs + name);
    // (measured: the check compares values found from the parts, not the assumptions)
    EXPECT_NE(want.find("task segments that waited for their processor"), std::string::npos) << name;
    expect_one_processs(logs + name, 1, name);
  }
}

std::string prof_facts_text(const machine::TracedFacts& f) {
  std::string out;
  auto add = [&](const char* what, const std::optional<machine::MeasuredValue>& v) {
    out += std::string(what) + ": " + (v ? std::to_string(v->value) + " " + v->tag + " " + v->note : "none") + "\n";
  };
  for (const auto& overhead : f.segment_overhead_ns) add("segment overhead", overhead);
  add("local latency", f.local_latency_ns);
  add("local bandwidth", f.local_bandwidth_gbs);
  return out;
}

TEST(TracedPartMachine, WhatLegionProfLogsMeasuredIsFoundOverTheRanks) {
  const std::string logs = RR_SOURCE_DIR "/data/traces/legion-prof/";
  for (const char* name : {"circuit_mpi2_medium_cpu2_util1", "ghost_mpi2_n4096_b4_s20_cpu2_util1"}) {
    auto loaded = load_trace({logs + name}, {});
    ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
    machine::TracedFacts whole;
    machine::add_prof_facts(loaded->records, whole);
    const std::string want = prof_facts_text(whole);
    // (measured: the overheads on both runs, and the circuit's copies within a node)
    EXPECT_NE(want.find("task segments that waited"), std::string::npos) << name << ": " << want;
    if (std::string(name) == "circuit_mpi2_medium_cpu2_util1") {
      EXPECT_NE(want.find("within a node"), std::string::npos) << name << ": " << want;
    }
    const auto files = files_by_node({logs + name});
    ASSERT_TRUE(files.ok()) << files.error().to_string();
    for (std::uint32_t count = 1; count <= 2; ++count) {
      rr::testing::InProcessNetwork net(count, 9 + count);
      const auto got = rr::testing::on_ranks(net, count, [&](std::uint32_t, replay::BlockNetwork& end) {
        replay::NetworkRankExchange exchange(end);
        std::string out;
        try {
          auto part = load_trace_part({logs + name}, *files, {}, count, exchange);
          if (!part) return part.error().to_string();
          machine::TracedFacts facts;
          add_prof_facts_over_ranks(*part, end, facts);
          out = prof_facts_text(facts);
        } catch (const std::exception& e) {
          out = std::string("error: ") + e.what();
        }
        end.part_done();
        return out;
      });
      for (std::uint32_t r = 0; r < count; ++r)
        EXPECT_EQ(got[r], want) << name << " at " << count << " ranks, rank " << r;
    }
  }
}

// A packed trace: its facts as packed, and the fit over the ranks, or the machine as packed fitted.
TEST(TracedPartMachine, APackedTracesMachineIsOneProcesss) {
  const rr::testing::TestDir dir("rr_traced_part_machine_packed");
  for (const bool fit : {false, true}) {
    ReadingOptions summarised;
    summarised.summarise = true;
    auto loaded = load_trace({RR_SOURCE_DIR "/data/traces/real/full_circuit_2node_p4_cpu2"}, summarised);
    ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
    const std::string path = (dir.path() / (fit ? "fitted.rrg" : "facts.rrg")).string();
    platform::OutputTarget out;
    ASSERT_EQ(out.open(path), "");
    ASSERT_TRUE(write_packed_trace(*loaded, out, fit).ok());
    ASSERT_EQ(out.commit(), "");
    expect_one_processs(path, 2, fit ? "packed fitted" : "packed with its facts", true);
  }
}

// Under a fold the parts are split by model node, and the fit replays the trace unfolded on them (its blocks each
// rank's traced nodes, not consecutive ones): every rank gets one process's machine, and the part it prepared serves
// the run's folded map too, whose replay ends when one process's does.
TEST(TracedPartMachine, AFoldedRunsMachineIsOneProcesss) {
  const std::string trace = RR_SOURCE_DIR "/data/traces/s3d/dme_mixed_4n";
  auto loaded = load_trace({trace}, {});
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  const std::string want = fit_traced_machine(*loaded).toml;
  const auto files = files_by_node({trace});
  ASSERT_TRUE(files.ok());
  for (const auto& [fold, rule] : {std::pair{2u, machine::NodeMapRule::cyclic}, {3u, machine::NodeMapRule::block}}) {
    ReplaySettings settings;
    settings.critical_path = false;
    settings.mapping.fold = fold;
    settings.mapping.nodes.rule = rule;
    auto one = replay_trace(*loaded, {std::string(machine::kTracedMachine), {}}, settings);
    ASSERT_TRUE(one.ok()) << one.error().to_string();
    auto folded = machine::fold_nodes(settings.mapping, replay::MachineMap::traced_node_count(loaded->records));
    ASSERT_TRUE(folded.ok());
    for (std::uint32_t count = 2; count <= fold; ++count) {
      const std::string at = "fold " + std::to_string(fold) + " at " + std::to_string(count) + " ranks";
      rr::testing::InProcessNetwork net(count, 7 + count);
      const auto got = rr::testing::on_ranks(net, count, [&](std::uint32_t, replay::BlockNetwork& end) {
        replay::NetworkRankExchange exchange(end);
        std::pair<std::string, replay::TimeNs> out{"", -1};
        try {
          auto part = load_trace_part({trace}, *files, {}, count, exchange, *folded);
          if (!part) return std::pair<std::string, replay::TimeNs>{part.error().to_string(), -1};
          replay::ReplayOptions options;
          options.execution.network = &end;
          auto fitted = traced_machine_of_part(*part, exchange, options, settings.mapping);
          if (!fitted) return std::pair<std::string, replay::TimeNs>{"error: " + fitted.error().to_string(), -1};
          out.first = fitted->toml;
          auto model = traced_machine_model(fitted->toml, part->label, {});
          auto map = replay::MachineMap::build(part->records, *model, settings.mapping);
          auto run = replay::run_part_over_network(fitted->prepared, part->ranks, exchange, *map, *model, options);
          if (!run) out.first = "error: " + run.error().to_string();
          else out.second = run->makespan_ns;
        } catch (const std::exception& e) {
          out.first = std::string("error: ") + e.what();
        }
        end.part_done();
        return out;
      });
      ASSERT_EQ(got.size(), count) << at;
      for (std::uint32_t r = 0; r < count; ++r) {
        EXPECT_EQ(got[r].first, want) << at << ", rank " << r;
        EXPECT_EQ(got[r].second, one->result.makespan_ns) << at << ", rank " << r;
      }
    }
  }
}

// What nth_element at n/2 takes of all the values, in one process.
std::optional<std::uint64_t> one_process_median(std::vector<std::uint64_t> all) {
  if (all.empty()) return std::nullopt;
  std::nth_element(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(all.size() / 2), all.end());
  return all[all.size() / 2];
}

TEST(TracedPartMachine, TheMedianOverRanksIsOneProcesss) {
  const std::vector<std::vector<std::vector<std::uint64_t>>> spreads{
      {{5, 1, 9}, {7}, {3}},                        // odd count
      {{4, 8}, {2, 6}},                             // even count: the upper of the middle two
      {{7, 7, 7}, {7, 1}, {7, 9, 9}},               // duplicates
      {{}, {65536, 4096}, {1 << 20}, {}},           // ranks with no copy
      {{}, {}},                                     // none at all
      {{~std::uint64_t{0}, 1}, {~std::uint64_t{0} - 1}},  // the ends of the range
      {{12}},
  };
  for (const auto& spread : spreads) {
    std::vector<std::uint64_t> all;
    for (const auto& mine : spread) all.insert(all.end(), mine.begin(), mine.end());
    const auto want = one_process_median(all);
    const auto ranks = static_cast<std::uint32_t>(spread.size());
    rr::testing::InProcessNetwork net(ranks, 11);
    const auto got = rr::testing::on_ranks(net, ranks, [&](std::uint32_t r, replay::BlockNetwork& end) {
      auto median = replay::median_over_ranks(end, spread[r]);
      end.part_done();
      return median;
    });
    for (std::uint32_t r = 0; r < ranks; ++r) EXPECT_EQ(got[r], want) << "rank " << r << " of " << all.size() << " values";
  }
}

}  // namespace
}  // namespace rr::session
