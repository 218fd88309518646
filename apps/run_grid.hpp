// Running many replays side by side: traces read once, then every (trace, machine configuration) replayed in
// parallel with oneTBB, results in job order so the output does not depend on the schedule.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "graph/graph_builder.hpp"
#include "core/result.hpp"
#include "core/trace_records.hpp"
#include "replay/run_summary.hpp"

namespace rr::app {

struct LoadedTrace {
  std::string path;
  std::string label;   // the trace folder or archive name
  std::string family;  // see trace_family()
  core::TraceRecords records;
  graph::BuildResult built;
};

// Runs whose family matches differ only in node count: the generator's "mechanism-mapping" from truth.json
// beside the logs when there is one, else the label with its digits replaced by 'N'.
std::string trace_family(const std::string& path, const std::string& label);

core::Expected<std::unique_ptr<LoadedTrace>> load_trace(const std::string& path, unsigned threads);

struct GridJob {
  const LoadedTrace* trace = nullptr;
  std::string machine_path;
  std::vector<std::string> overrides;
  std::string machine_label;  // empty: the machine's name, plus the overrides
  std::uint32_t fold = 0;
};

// Every job replayed with its critical path; fails with the first failing job (in job order).
core::Expected<std::vector<replay::RunSummary>> run_grid(const std::vector<GridJob>& jobs, unsigned threads);

}  // namespace rr::app
