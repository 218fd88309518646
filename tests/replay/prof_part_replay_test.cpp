// A replay from parts of Legion Prof logs, ranks as threads on an in-process network that shuffles messages from
// different ranks: each rank reads its own processes' logs (session::load_trace_part on the real logs), builds its
// part, trades the machine's descriptions and replays from its view (replay/part_replay.hpp). Each rank's view must
// hold the Legion Prof facts the engine and the reports read, as the whole graph holds them, for its own vertices and
// its ghosts alike: observed start and end, launch fraction, measured delay, the observed origin, and the outside
// work it owns. Then every owned operation's record must be one engine's on the whole graph, the sums added over the
// ranks one engine's (outside work, measured waits and what is left out of the estimate included), every rank's
// estimate one engine's, and the critical path walked over the ranks one engine's step by step.
//
// On every bundled Legion Prof log at one rank, with and without noise. The bundled runs of two processes feed
// completion queues from both processes, which no split serves (a completion queue takes the input applied first):
// at two ranks every rank refuses alike, with that reason, as the replay over ranks of the whole graph does. The same
// runs with their completion queues read as mergers (records as structs, split by process as the ranks read them)
// replay from parts at two ranks. A Legion Prof file that one rank cannot read stops every rank with an error naming
// that rank and the file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "machine_models/machine_loader.hpp"
#include "replay/critical_path.hpp"
#include "replay/part_exchange.hpp"
#include "replay/part_replay.hpp"
#include "session/session.hpp"
#include "session/trace_part.hpp"
#include "support/critical_path_checks.hpp"
#include "support/in_process_network.hpp"
#include "support/prof_part_run.hpp"
#include "support/ranks_as_threads.hpp"
#include "support/test_dir.hpp"

namespace rr::replay {
namespace {

namespace fs = std::filesystem;
using graph::VertexId;

const std::string kTitan = RR_SOURCE_DIR "/data/machines/titan.toml";
const fs::path kProfLogs = fs::path(RR_SOURCE_DIR) / "data/traces/legion-prof";
const char* const kTwoProcesses[] = {"circuit_mpi2_medium_cpu2_util1", "ghost_mpi2_n4096_b4_s20_cpu2_util1"};
const char* const kOneProcess[] = {"cgsolver_g8_b4_cpu2_util1", "circuit_small_cpu2_util1_nocritical",
                                   "multiple_partitions_n1024_b4_cpu1_util1"};

struct RankOutcome {
  std::vector<VertexId> ids;
  std::optional<ReplayResult> result;
  std::optional<CriticalPath> path;
  std::string facts;  // where the rank's view holds other Legion Prof facts than the whole graph; empty: none
  std::string error;
};

// The first vertex of the view (own or ghost) whose facts differ from the whole graph's, and the outside work,
// which the view lists for its own vertices only.
std::string facts_differ(const graph::EventGraph& view, const graph::EventGraph& whole,
                         const std::vector<VertexId>& own) {
  std::ostringstream out;
  if (view.observed_origin() != whole.observed_origin()) out << "observed origin " << view.observed_origin() << "; ";
  if (view.has_observed() != whole.has_observed()) out << "observed times held: " << view.has_observed() << "; ";
  if (view.has_external_delays() != whole.has_external_delays())
    out << "delays held: " << view.has_external_delays() << "; ";
  for (VertexId x = 0; x < view.vertex_count(); ++x) {
    const VertexId w = view.whole_id(x);
    if (view.observed_start(x) != whole.observed_start(w) || view.observed_end(x) != whole.observed_end(w) ||
        view.issue_fraction(x) != whole.issue_fraction(w) || view.external_delay(x) != whole.external_delay(w)) {
      out << "vertex " << w << ": observed " << view.observed_start(x) << ',' << view.observed_end(x) << " fraction "
          << view.issue_fraction(x) << " delay " << view.external_delay(x) << ", whole " << whole.observed_start(w)
          << ',' << whole.observed_end(w) << ' ' << whole.issue_fraction(w) << ' ' << whole.external_delay(w) << "; ";
      break;
    }
  }
  std::vector<VertexId> expected, listed;
  for (VertexId w : whole.outside_work())
    if (std::binary_search(own.begin(), own.end(), w)) expected.push_back(w);
  for (VertexId x : view.outside_work()) listed.push_back(view.whole_id(x));
  if (listed != expected) out << "outside work: " << listed.size() << " listed, " << expected.size() << " owned";
  return out.str();
}

std::vector<RankOutcome> run_prof_parts(const std::vector<std::string>& inputs, const core::TraceRecords* records,
                                        const machine::MachineModel& model, const session::ReplaySettings& settings,
                                        std::uint32_t count, std::uint64_t seed, const graph::EventGraph& whole) {
  rr::testing::InProcessNetwork net(count, seed);
  return rr::testing::on_ranks(net, count, [&](std::uint32_t, BlockNetwork& end) {
    RankOutcome out;
    NetworkRankExchange exchange(end);
    try {
      rr::testing::ProfRankTrace trace;
      if (records) {
        trace = rr::testing::prof_part_from_records(*records, count, exchange);
      } else {
        auto files = session::files_by_node(inputs);
        if (!files) throw std::runtime_error(files.error().to_string());
        auto read = session::load_trace_part(inputs, *files, {}, count, exchange);
        if (!read) throw std::runtime_error(read.error().to_string());
        if (!read->machine_files) throw std::runtime_error("no machine files");
        trace = {std::move(read->part), read->ranks, std::move(*read->machine_files)};
      }
      auto map = MachineMap::build(trace.machine_files, model, settings.mapping);
      if (!map) throw std::runtime_error(map.error().to_string());
      out.ids = trace.part.ids;
      ReplayOptions options = settings.engine;
      options.execution.network = &end;
      auto run = run_part_over_network(trace.part, trace.ranks, exchange, *map, model, options);
      if (!run) throw std::runtime_error(run.error().to_string());
      out.facts = facts_differ(graph_of_part(*run), whole, out.ids);
      out.path = critical_path(graph_of_part(*run), *map, model, *run);
      out.result = std::move(*run);
    } catch (const std::exception& e) {
      out.error = e.what();
    }
    end.part_done();
    return out;
  });
}

std::string record_of(const ReplayResult& r, VertexId v) {
  return "ready " + std::to_string(r.ready(v)) + " start " + std::to_string(r.start(v)) + " end " +
         std::to_string(r.end(v)) + " released by " + std::to_string(r.released_by(v)) + " (" +
         release_name(r.release(v)) + ") processor " + std::to_string(r.processor_of[v]) + " counted " +
         std::to_string(r.counts(v));
}

std::vector<std::uint64_t> own_counts(const ReplayResult& r) {
  return {r.operations,     r.stuck,           r.tasks_without_time,  r.outside_work,   r.after_untimed,
          r.measured_waits, static_cast<std::uint64_t>(r.measured_wait_ns), r.copies_default_size,
          r.clamped_waits};
}

// One engine on the whole trace, then the parts at 1 to `max_ranks` ranks against it; the runs that were split.
int expect_prof_parts_same(const std::string& name, const session::LoadedTrace& trace,
                           const std::vector<std::string>& inputs, const core::TraceRecords* records,
                           std::uint32_t max_ranks, double sigma) {
  session::ReplaySettings settings;
  settings.engine.rules.noise = {sigma, 7};
  auto one = session::replay_trace(trace, {kTitan, {}}, settings);
  if (!one || !one->critical) {
    ADD_FAILURE() << name << ": " << (one ? "no critical path" : one.error().to_string());
    return 0;
  }
  const graph::EventGraph& whole = trace.graph();
  EXPECT_TRUE(whole.has_observed()) << name;
  int split = 0;
  for (std::uint32_t count = 1; count <= max_ranks; ++count) {
    const std::string at = name + " (noise " + std::to_string(sigma) + ") at " + std::to_string(count) + " ranks";
    const auto runs = run_prof_parts(inputs, records, one->model, settings, count, 31 + count, whole);
    std::vector<std::uint64_t> counts(own_counts(one->result).size());
    std::vector<ProcessorUsage> processors(one->result.processors.size());
    std::uint64_t owned = 0;
    for (std::uint32_t r = 0; r < count; ++r) {
      const RankOutcome& mine = runs[r];
      if (!mine.result) {
        ADD_FAILURE() << at << ", rank " << r << ": " << mine.error;
        return split;
      }
      EXPECT_EQ(mine.facts, "") << at << ", rank " << r;
      for (std::size_t i = 0; i < mine.ids.size(); ++i)
        if (record_of(one->result, mine.ids[i]) != record_of(*mine.result, static_cast<VertexId>(i))) {
          ADD_FAILURE() << at << ", rank " << r << ", operation " << mine.ids[i] << "\n one engine: "
                        << record_of(one->result, mine.ids[i])
                        << "\n from parts: " << record_of(*mine.result, static_cast<VertexId>(i));
          break;
        }
      owned += mine.ids.size();
      const std::vector<std::uint64_t> its = own_counts(*mine.result);
      for (std::size_t i = 0; i < counts.size(); ++i) counts[i] += its[i];
      for (std::size_t p = 0; p < processors.size(); ++p) processors[p].busy_ns += mine.result->processors[p].busy_ns;
      EXPECT_EQ(mine.result->makespan_ns, one->result.makespan_ns) << at << ", rank " << r;
      EXPECT_EQ(mine.result->last_end_ns, one->result.last_end_ns) << at << ", rank " << r;
      rr::testing::expect_same_sums(*one->critical, *mine.path, at + ", rank " + std::to_string(r));
    }
    EXPECT_EQ(owned, whole.vertex_count()) << at;
    EXPECT_EQ(counts, own_counts(one->result))
        << at << " (operations, stuck, tasks without time, outside work, after them, measured waits and their time, "
                 "copies of the default size, clamped waits)";
    for (std::size_t p = 0; p < processors.size(); ++p)
      EXPECT_EQ(processors[p].busy_ns, one->result.processors[p].busy_ns) << at << ", processor " << p;
    rr::testing::expect_same_steps(*one->critical, *runs[0].path, at);
    split += count > 1;
  }
  return split;
}

session::LoadedTrace load(const std::string& name) {
  auto trace = session::load_trace({(kProfLogs / name).string()}, {});
  if (!trace) throw std::runtime_error(trace.error().to_string());
  return std::move(*trace);
}

TEST(ProfPartReplay, EveryBundledLogAtOneRankGivesTheOneEngineRecordsAndPath) {
  for (const char* name : kTwoProcesses)
    for (const double sigma : {0.0, 0.2})
      expect_prof_parts_same(name, load(name), {(kProfLogs / name).string()}, nullptr, 1, sigma);
  for (const char* name : kOneProcess)
    expect_prof_parts_same(name, load(name), {(kProfLogs / name).string()}, nullptr, 1, 0.1);
}

// The bundled runs of two processes feed completion queues from both: at two ranks every rank refuses, with the
// reason the replay over ranks of the whole graph gives for running on one engine.
TEST(ProfPartReplay, CompletionQueuesFedFromTwoProcessesAreRefusedByEveryRank) {
  for (const char* name : kTwoProcesses) {
    const session::LoadedTrace trace = load(name);
    auto model = machine::load_machine(kTitan, {});
    ASSERT_TRUE(model.ok());
    const auto runs = run_prof_parts({(kProfLogs / name).string()}, nullptr, *model, {}, 2, 3, trace.graph());
    for (std::uint32_t r = 0; r < 2; ++r) {
      EXPECT_FALSE(runs[r].result) << name << ", rank " << r;
      EXPECT_NE(runs[r].error.find("a completion queue has inputs from two blocks"), std::string::npos)
          << name << ", rank " << r << ": " << runs[r].error;
    }
  }
}

// The two-process runs with their completion queues read as mergers (which wait for every input): the split serves
// them, and at two ranks every record, sum and step is one engine's.
TEST(ProfPartReplay, TwoProcessRunsWithoutCompletionQueuesSplitOverTwoRanks) {
  for (const char* name : kTwoProcesses) {
    const core::TraceRecords records = rr::testing::prof_records_without_completion_queues((kProfLogs / name).string());
    auto trace = session::load_records(records, name, {});
    ASSERT_TRUE(trace.ok()) << trace.error().to_string();
    const std::string label = name + std::string(" without completion queues");
    for (const double sigma : {0.0, 0.2})
      EXPECT_EQ(expect_prof_parts_same(label, *trace, {}, &records, 2, sigma), 1) << name;
  }
}

// Rank 1's log cut short: rank 1 cannot read it, and every rank stops with an error naming the file, the others
// naming rank 1 too, without waiting for it.
TEST(ProfPartReplay, AnUnreadableLogOnOneRankStopsEveryRank) {
  const rr::testing::TestDir dir("rr_prof_part_unreadable");
  const fs::path from = kProfLogs / kTwoProcesses[0];
  fs::copy_file(from / "prof_0.gz", dir.path() / "prof_0.gz");
  {
    std::ifstream in(from / "prof_1.gz", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(dir.path() / "prof_1.gz", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  auto trace = session::load_trace({(from).string()}, {});
  ASSERT_TRUE(trace.ok());
  auto model = machine::load_machine(kTitan, {});
  ASSERT_TRUE(model.ok());
  const auto runs = run_prof_parts({dir.path().string()}, nullptr, *model, {}, 2, 5, trace->graph());
  for (std::uint32_t r = 0; r < 2; ++r) {
    EXPECT_FALSE(runs[r].result) << "rank " << r;
    EXPECT_NE(runs[r].error.find("prof_1.gz"), std::string::npos) << "rank " << r << ": " << runs[r].error;
  }
  // (rank 0's is the one realm-replay-mpi prints)
  EXPECT_NE(runs[0].error.find("rank 1 of 2"), std::string::npos) << runs[0].error;
}

}  // namespace
}  // namespace rr::replay
