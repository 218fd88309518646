// Parallel replays for compare and sweep (tbb::parallel_for over jobs, each job independent and deterministic).
#include "run_grid.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "machine_models/machine_loader.hpp"
#include "parser/trace_reader.hpp"
#include "progress.hpp"
#include "replay/critical_path.hpp"
#include "replay/replay_engine.hpp"

namespace rr::app {

namespace {
std::string label_of(const std::string& path) {
  std::filesystem::path p(path);
  std::string name = p.filename().string();
  if (name.empty()) name = p.parent_path().filename().string();
  for (const char* ext : {".tar.zst", ".tar.gz", ".tar.xz", ".tar", ".tgz"}) {
    std::string_view e(ext);
    if (name.size() > e.size() && name.ends_with(e)) {
      name.resize(name.size() - e.size());
      break;
    }
  }
  return name;
}

unsigned thread_count(unsigned requested) {
  return requested ? requested : std::max(1u, std::thread::hardware_concurrency());
}
}  // namespace

std::string trace_family(const std::string& path, const std::string& label) {
  std::filesystem::path truth = std::filesystem::path(path) / "truth.json";
  std::ifstream in(truth);
  if (in) {
    auto j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_discarded() && j.contains("parameters")) {
      const auto& p = j["parameters"];
      std::string family;
      for (const char* key : {"generator", "mechanism", "mapping"})
        if (p.contains(key) && p[key].is_string()) family += (family.empty() ? "" : "-") + p[key].get<std::string>();
      if (!family.empty()) return family;
    }
  }
  std::string family;
  for (std::size_t i = 0; i < label.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(label[i]))) {
      family += 'N';
      while (i + 1 < label.size() && std::isdigit(static_cast<unsigned char>(label[i + 1]))) ++i;
    } else {
      family += label[i];
    }
  }
  return family;
}

core::Expected<std::unique_ptr<LoadedTrace>> load_trace(const std::string& path, unsigned threads) {
  parser::ReadOptions read;
  read.threads = threads;
  auto records = read_trace_with_progress({path}, read);
  if (!records) return records.error();
  auto t = std::make_unique<LoadedTrace>();
  t->path = path;
  t->label = label_of(path);
  t->family = trace_family(path, t->label);
  t->records = std::move(*records);
  graph::BuildOptions build;
  build.threads = threads;
  t->built = graph::build_event_graph_releasing(t->records, build);
  return t;
}

core::Expected<std::vector<replay::RunSummary>> run_grid(const std::vector<GridJob>& jobs, unsigned threads) {
  std::vector<std::optional<replay::RunSummary>> out(jobs.size());
  std::vector<std::optional<core::InputError>> errors(jobs.size());
  tbb::task_arena arena(static_cast<int>(thread_count(threads)));
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, jobs.size(), [&](std::size_t i) {
      const GridJob& job = jobs[i];
      auto model = machine::load_machine(job.machine_path, job.overrides);
      if (!model) {
        errors[i] = model.error();
        return;
      }
      auto map = replay::MachineMap::build(job.trace->records, *model, job.fold);
      if (!map) {
        errors[i] = map.error();
        return;
      }
      auto result = replay::run_replay(job.trace->built.graph, *map, *model);
      if (!result) {
        errors[i] = result.error();
        return;
      }
      auto cp = replay::critical_path(job.trace->built.graph, *map, *model, *result);
      auto s = replay::summarise_run(job.trace->built.graph, *map, *result, cp);
      s.trace_label = job.trace->label;
      s.family = job.trace->family;
      s.machine_label = job.machine_label;
      if (s.machine_label.empty()) {
        s.machine_label = model->name;
        for (const auto& o : job.overrides) s.machine_label += " " + o;
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

}  // namespace rr::app
