// What bounds a replay: candidates from its critical path, each with the change that gives it more, and their
// what-if replays side by side on oneTBB (each writes only its own bound, so the order they run in is irrelevant).
#include "session/bounds.hpp"
#include "platform/usable_threads.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace rr::session {

namespace {

using replay::PathResource;
using replay::TimeNs;

std::string count_text(double value) {
  const double rounded = std::round(value);
  if (std::abs(value - rounded) < 1e-9) return std::to_string(static_cast<long long>(rounded));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", value);
  return buf;
}

// The processors of one kind doubled on every node.
void more_processors(RunBound& b, core::ProcessorKind kind, const machine::MappingSpec& mapping) {
  const auto k = static_cast<std::size_t>(kind);
  if (k >= 3) return;  // the program's own thread: the trace brings one per process
  b.count_in_mapping = mapping.processors.of(kind).has_value();
  machine::ProcessorClass& p = b.changed.processors[k];
  const std::string key = std::string("processors.") + machine::kProcessorSections[k];
  b.change = std::to_string(2 * p.count) + " instead of " + std::to_string(p.count) + " per node";
  b.pool = true;
  p.count *= 2;
  b.overrides.push_back(key + ".count=" + std::to_string(p.count));
  if (!p.per_node.empty()) {
    std::string list = "[";
    for (std::size_t i = 0; i < p.per_node.size(); ++i) {
      p.per_node[i] *= 2;
      list += (i ? "," : "") + std::to_string(p.per_node[i]);
    }
    b.overrides.push_back(key + ".per_node=" + list + "]");
    b.change = "twice the processors on every node";
  }
}

// Twice the lanes of every channel the copy path takes.
void more_lanes(RunBound& b, const PathResource& r) {
  const machine::CopyPath* path = b.changed.path(r.src, r.dst, r.remote);
  if (!path || path->hops.empty()) return;
  std::string names;
  for (std::uint32_t c : path->hops) {
    machine::Channel& channel = b.changed.channels[c];
    names += (names.empty() ? "" : ", ") + channel.name + " " + std::to_string(channel.lanes) + " -> " +
             std::to_string(2 * channel.lanes);
    channel.lanes *= 2;
    b.overrides.push_back("channels." + channel.name + ".lanes=" + std::to_string(channel.lanes));
  }
  b.change = "twice the lanes (" + names + ")";
}

RunBound resource_bound(const machine::MachineModel& model, const machine::MappingSpec& mapping, const PathResource& r,
                        TimeNs path_ns) {
  RunBound b;
  b.kind = RunBound::Kind::resource;
  b.name = replay::resource_group_name(r);
  b.path_ns = path_ns;
  b.changed = model;
  switch (r.type) {
    case PathResource::Type::processors: more_processors(b, r.kind, mapping); break;
    case PathResource::Type::copy_lanes: more_lanes(b, r); break;
    case PathResource::Type::cores:
      b.change = std::to_string(2 * model.node.cores) + " cores instead of " + std::to_string(model.node.cores) + " per node";
      b.changed.node.cores = 2 * model.node.cores;
      b.overrides.push_back("node.cores=" + std::to_string(b.changed.node.cores));
      break;
    case PathResource::Type::start_ups:
      b.change = "start-ups half as long";
      b.changed.runtime.processor_start_ns = model.runtime.processor_start_ns / 2;
      b.overrides.push_back("runtime.processor_start_ns=" + std::to_string(b.changed.runtime.processor_start_ns));
      if (!model.runtime.processor_starts_ns.empty()) {
        std::string list;
        for (TimeNs& t : b.changed.runtime.processor_starts_ns) {
          t /= 2;
          list += (list.empty() ? "" : ",") + std::to_string(t);
        }
        b.overrides.push_back("runtime.processor_starts_ns=[" + list + "]");
      }
      break;
    case PathResource::Type::other: break;
  }
  return b;
}

RunBound function_bound(const machine::MachineModel& model, const graph::EventGraph& g, std::uint32_t func,
                        core::ProcessorKind kind, TimeNs path_ns) {
  RunBound b;
  b.kind = RunBound::Kind::function;
  b.name = g.function_name(func) + " on " + std::string(core::processor_kind_name(kind));
  b.path_ns = path_ns;
  b.changed = model;
  const auto k = static_cast<std::size_t>(kind);
  if (k >= 3) return b;
  double& speed = b.changed.processors[k].function_speed.try_emplace(func, 1.0).first->second;
  speed *= 2;
  b.change = "twice as fast";
  b.overrides.push_back(std::string("processors.") + machine::kProcessorSections[k] + ".function_speed." +
                        std::to_string(func) + "=" + count_text(speed));
  return b;
}

}  // namespace

std::vector<RunBound> find_bounds(const LoadedTrace& trace, const ReplayRun& run) { return find_bounds(trace.graph(), run); }

std::vector<RunBound> find_bounds(const graph::EventGraph& g, const ReplayRun& run) {
  std::vector<RunBound> out;
  if (!run.critical) return out;
  const replay::CriticalPath& cp = *run.critical;

  // Resources across nodes: the same kind of processor, copy path, cores or start-ups on every node.
  std::map<PathResource, TimeNs> resources;
  for (const auto& [r, t] : cp.contention) {
    PathResource all = r;
    all.node = 0;
    resources[all] += t;
  }
  // Functions by the kind they ran on: their compute on the path.
  const auto& functions = cp.compute_by_function;

  std::vector<std::tuple<TimeNs, std::string, RunBound>> ranked;
  for (const auto& [r, t] : resources) {
    if (r.type == PathResource::Type::other || t <= 0) continue;
    RunBound b = resource_bound(run.model, run.map.mapping(), r, t);
    ranked.emplace_back(t, b.name, std::move(b));
  }
  for (const auto& [key, t] : functions) {
    if (t <= 0) continue;
    RunBound b = function_bound(run.model, g, key.first, key.second, t);
    ranked.emplace_back(t, b.name, std::move(b));
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) > std::get<0>(b) : std::get<1>(a) < std::get<1>(b);
  });
  for (std::size_t i = 0; i < ranked.size() && i < kMaxBounds; ++i) out.push_back(std::move(std::get<2>(ranked[i])));
  return out;
}

void run_what_ifs(const LoadedTrace& trace, const ReplaySettings& settings, std::vector<RunBound>& bounds,
                  unsigned threads) {
  ReplaySettings as_run = settings;
  as_run.critical_path = false;
  as_run.engine.detail.record_intervals = false;  // a what-if reports its estimate only
  // Each what-if's machine is the run's, which has the mapping's processor counts already: laid over it again, they
  // would undo a what-if of more processors.
  as_run.mapping.processors = {};
  ReplaySettings pooled = as_run;
  pooled.mapping.placement = machine::Placement::pool;
  auto run_one = [&](RunBound& b) {
    if (b.overrides.empty()) return;
    core::Expected<ReplayRun> run = replay_on(trace, b.changed, b.pool ? pooled : as_run);
    if (run)
      b.what_if_ns = run->result.makespan_ns;
    else
      b.what_if_error = run.error().to_string();
  };
  // Over ranks each what-if is one replay over every rank, which all run in the same order, one at a time.
  if (settings.engine.execution.network) {
    for (RunBound& b : bounds) run_one(b);
    return;
  }
  const unsigned workers = platform::threads_or_all(threads);
  tbb::task_arena arena(static_cast<int>(std::min<std::size_t>(workers, std::max<std::size_t>(1, bounds.size()))));
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, bounds.size(), [&](std::size_t i) { run_one(bounds[i]); });
  });
}

}  // namespace rr::session
