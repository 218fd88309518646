// For tests: a replay from parts of Legion Prof records built as structs, ranks as threads on an in-process network
// that shuffles messages from different ranks. Each rank is given the files of its processes, as it would read them,
// builds its part (graph::build_prof_graph_part), trades the machine's descriptions (session's prof_machine_view) and
// replays from its part (replay/part_replay.hpp); then runs what the test asks of its result while the network is
// still there. And the bundled two-process runs with their completion queues read as mergers, which no split refuses.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "graph/prof_graph_part.hpp"
#include "parser/trace_reader.hpp"
#include "replay/part_exchange.hpp"
#include "replay/part_replay.hpp"
#include "session/session.hpp"
#include "session/src/prof_machine_view.hpp"
#include "support/in_process_network.hpp"
#include "support/part_replay_run.hpp"
#include "support/ranks_as_threads.hpp"

namespace rr::testing {

// A rank's part of Legion Prof records and every file's machine.
struct ProfRankTrace {
  graph::GraphPart part;
  graph::NodeRanks ranks;
  core::TraceRecords machine_files;
};

inline ProfRankTrace prof_part_from_records(const core::TraceRecords& records, std::uint32_t count,
                                            graph::RankExchange& exchange) {
  std::uint32_t nodes = 1;
  for (const core::FileRecords& f : records.files) nodes = std::max(nodes, static_cast<std::uint32_t>(f.node) + 1);
  ProfRankTrace out;
  out.ranks = {count, nodes, {}};
  core::TraceRecords own;
  own.format = records.format;
  own.width = records.width;
  graph::PartFiles files;
  for (std::uint32_t f = 0; f < records.files.size(); ++f)
    if (out.ranks.rank_of(static_cast<std::uint32_t>(records.files[f].node)) == exchange.rank()) {
      own.files.push_back(records.files[f]);
      files.file_index.push_back(f);
    }
  files.records = &own;
  files.total_files = static_cast<std::uint32_t>(records.files.size());
  out.part = graph::build_prof_graph_part(files, out.ranks, exchange);
  out.machine_files = session::every_file_machine(own, files.file_index, files.total_files, exchange);
  return out;
}

// `count` ranks on a network shuffled by `seed`, each replaying its part of `records` on `model`.
inline std::vector<PartRun> run_prof_parts_of_records(const core::TraceRecords& records,
                                                      const machine::MachineModel& model,
                                                      const session::ReplaySettings& settings, std::uint32_t count,
                                                      std::uint64_t seed, const AfterPartReplay& after = {}) {
  InProcessNetwork net(count, seed);
  return on_ranks(net, count, [&](std::uint32_t r, replay::BlockNetwork& end) {
    PartRun out;
    replay::NetworkRankExchange exchange(end);
    try {
      ProfRankTrace trace = prof_part_from_records(records, count, exchange);
      auto map = replay::MachineMap::build(trace.machine_files, model, settings.mapping);
      if (!map) throw std::runtime_error(map.error().to_string());
      out.ids = trace.part.ids;
      replay::ReplayOptions options = settings.engine;
      options.execution.network = &end;
      auto run = replay::run_part_over_network(trace.part, trace.ranks, exchange, *map, model, options);
      if (!run) throw std::runtime_error(run.error().to_string());
      out.result = std::move(*run);
      if (after) after(r, *map, *out.result);
    } catch (const std::exception& e) {
      out.error = e.what();
    }
    end.part_done();
    return out;
  });
}

// A bundled Legion Prof run's records with its completion queues read as mergers (which wait for every input, so
// that no split refuses them), ids laid out as the Legion Prof build reads them.
inline core::TraceRecords prof_records_without_completion_queues(const std::string& path) {
  auto read = parser::read_trace({path}, {});
  if (!read) throw std::runtime_error(read.error().to_string());
  for (core::FileRecords& f : read->files) {
    for (auto& q : f.profile.completion_queues) f.profile.mergers.push_back(q);
    f.profile.completion_queues.clear();
  }
  read->width = core::IdWidth::realm;  // (as session::load_records reads Legion Prof logs)
  return std::move(*read);
}

}  // namespace rr::testing
