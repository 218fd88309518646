// Test helper: the models on which the splits of one replay (on threads, over ranks, from parts) are checked against
// one engine where nodes share their cores and processors start up: 1 and 2 cores per node (fewer than the threads
// busy on them), a typical start-up, both together, and measured start-ups in order (one of no length) then the
// typical one. Each is a name and the machine file's `--set` overrides.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace rr::testing {

using NamedOverrides = std::pair<std::string, std::vector<std::string>>;

inline const std::vector<NamedOverrides>& cores_and_start_up_models() {
  static const std::vector<NamedOverrides> models = {
      {"1 core per node", {"node.cores=1"}},
      {"2 cores per node", {"node.cores=2"}},
      {"start-ups of 50 us", {"runtime.processor_start_ns=50000"}},
      {"2 cores per node, start-ups of 20 us", {"node.cores=2", "runtime.processor_start_ns=20000"}},
      {"start-ups of 30, 0 and 10 us, then 5 us",
       {"runtime.processor_starts_ns=[30000, 0, 10000]", "runtime.processor_start_ns=5000"}}};
  return models;
}

}  // namespace rr::testing
