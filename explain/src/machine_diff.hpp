// What differs between the machines two runs are replayed on, split as explain's classes split it: the costs
// (everything but the processors) and the processors (counts per kind and node, cores).
#pragma once

#include <string>
#include <vector>

#include "machine_models/machine_model.hpp"

namespace rr::explain {

struct MachineDifferences {
  std::vector<std::string> costs;       // "network latency 2000 -> 8000 ns"
  std::vector<std::string> processors;  // "utility processors per node 2 -> 3"
};

MachineDifferences machine_differences(const machine::MachineModel& a, const machine::MachineModel& b);

// The machine a counterfactual replay runs on: A's, with B's costs and/or B's processors. Both from B gives B's
// machine exactly, neither A's.
machine::MachineModel compose_machine(const machine::MachineModel& a, const machine::MachineModel& b, bool costs_from_b,
                                      bool processors_from_b);

}  // namespace rr::explain
