#include "session/part_what_ifs.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "replay/machine_map.hpp"
#include "replay/part_replay.hpp"
#include "session/src/over_ranks.hpp"

namespace rr::session {

namespace {

// Another rank's failure, on a rank that had none of its own to report: that rank's error, named by rank.
std::string failed_elsewhere(const OverRanks& all) { return "the what-if failed on " + all.error; }

// One replay from parts on a machine map and model: from the part, or from a part prepared once.
using ReplayFromParts = std::function<core::Expected<replay::ReplayResult>(
    const replay::MachineMap&, const machine::MachineModel&, const replay::ReplayOptions&)>;

void run_one(const ReplayFromParts& replay_on, const core::TraceRecords& machine_records,
             const ReplaySettings& settings, RunBound& bound) {
  replay::BlockNetwork& net = *settings.engine.execution.network;
  std::string error;
  auto map = replay::MachineMap::build(machine_records, bound.changed, settings.mapping);
  if (!map) error = map.error().to_string();
  // A rank that cannot map the machine would leave the others waiting in the replay's first round: all agree first.
  if (const OverRanks all = agree_over_ranks(net, map.ok(), 0, error); !all.everyone) {
    bound.what_if_error = error.empty() ? failed_elsewhere(all) : error;
    return;
  }
  std::optional<replay::TimeNs> makespan;
  auto run = replay_on(*map, bound.changed, settings.engine);
  if (run)
    makespan = run->makespan_ns;
  else
    error = run.error().to_string();
  // Each rank's makespan is its own operations' latest end: the run's is the latest over the ranks.
  const OverRanks all = agree_over_ranks(net, makespan.has_value(), makespan.value_or(0), error);
  if (all.everyone)
    bound.what_if_ns = all.latest;
  else
    bound.what_if_error = error.empty() ? failed_elsewhere(all) : error;
}

// The bounds' what-ifs, each a replay from parts: as run_what_ifs, an estimate only, on the bound's machine, which
// has the mapping's processor counts already.
void run_all(const ReplayFromParts& replay_on, const core::TraceRecords& machine_records,
             const ReplaySettings& settings, std::vector<RunBound>& bounds) {
  if (!settings.engine.execution.network) throw std::invalid_argument("what-ifs from parts: no network to run over");
  ReplaySettings as_run = settings;
  as_run.critical_path = false;
  as_run.engine.detail.record_intervals = false;
  as_run.mapping.processors = {};
  ReplaySettings pooled = as_run;
  pooled.mapping.placement = machine::Placement::pool;
  for (RunBound& bound : bounds)
    if (!bound.overrides.empty()) run_one(replay_on, machine_records, bound.pool ? pooled : as_run, bound);
}

}  // namespace

void run_what_ifs_from_part(const graph::GraphPart& part, const graph::NodeRanks& ranks, graph::RankExchange& exchange,
                            const core::TraceRecords& machine_records, const ReplaySettings& settings,
                            std::vector<RunBound>& bounds) {
  run_all([&](const replay::MachineMap& map, const machine::MachineModel& model, const replay::ReplayOptions& options) {
    return replay::run_part_over_network(part, ranks, exchange, map, model, options);
  }, machine_records, settings, bounds);
}

void run_what_ifs_from_part(const std::shared_ptr<const replay::PreparedPart>& prepared, const graph::NodeRanks& ranks,
                            graph::RankExchange& exchange, const core::TraceRecords& machine_records,
                            const ReplaySettings& settings, std::vector<RunBound>& bounds) {
  run_all([&](const replay::MachineMap& map, const machine::MachineModel& model, const replay::ReplayOptions& options) {
    return replay::run_part_over_network(prepared, ranks, exchange, map, model, options);
  }, machine_records, settings, bounds);
}

void run_what_ifs_from_part(const TracePart& part, graph::RankExchange& exchange, const ReplaySettings& settings,
                            std::vector<RunBound>& bounds) {
  run_what_ifs_from_part(part.part, part.ranks, exchange, part.map_records(), settings, bounds);
}

}  // namespace rr::session
