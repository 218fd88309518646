// Parallel replays for compare and sweep: tbb::parallel_for over jobs, each job independent and deterministic.
#include "session/run_grid.hpp"

#include "session/bounds.hpp"
#include "platform/usable_threads.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <optional>

namespace rr::session {

core::Expected<std::vector<replay::RunSummary>> run_grid(const std::vector<GridJob>& jobs, unsigned threads) {
  std::vector<std::optional<replay::RunSummary>> out(jobs.size());
  std::vector<std::optional<core::InputError>> errors(jobs.size());
  const unsigned workers = platform::threads_or_all(threads);
  tbb::task_arena arena(static_cast<int>(workers));
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, jobs.size(), [&](std::size_t i) {
      const GridJob& job = jobs[i];
      ReplaySettings settings = job.settings;
      settings.critical_path = true;
      auto run = replay_trace(*job.trace, job.machine, settings);
      if (!run) {
        errors[i] = run.error();
        return;
      }
      auto s = replay::summarise_run(job.trace->graph(), run->map, run->result, *run->critical);
      s.trace_label = job.trace->label;
      s.family = job.trace->family;
      for (const RunBound& b : find_bounds(*job.trace, *run)) s.bounded_by.push_back({b.name, b.path_ns, b.change});
      s.machine_label = job.machine_label;
      if (s.machine_label.empty()) {
        s.machine_label = run->model.name;
        for (const auto& o : job.machine.overrides) s.machine_label += " " + o;
      }
      out[i] = std::move(s);
    });
  });
  std::vector<replay::RunSummary> runs;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (errors[i]) return *errors[i];
    runs.push_back(std::move(*out[i]));
  }
  return runs;
}

}  // namespace rr::session
