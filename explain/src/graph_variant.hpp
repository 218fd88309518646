// A graph that is another one with some facts replaced: every array views the base graph's (no copy) but the
// tasks', copies' and waits' attributes, which the caller gives. What a counterfactual replay runs on.
#pragma once

#include <vector>

#include "graph/event_graph.hpp"
#include "replay/machine_map.hpp"

namespace rr::explain {

// The base graph with `tasks`, `copies` and `waits` in place of its own (each the size of the base's). The
// result views the base's other arrays: the base must outlive it.
graph::EventGraph graph_with_facts(const graph::EventGraph& base, std::vector<graph::TaskInfo> tasks,
                                   std::vector<graph::CopyInfo> copies, std::vector<graph::WaitInfo> waits);

// The base graph's arrays, for a caller that changes some of them.
std::vector<graph::TaskInfo> tasks_of(const graph::EventGraph& g);
std::vector<graph::CopyInfo> copies_of(const graph::EventGraph& g);
std::vector<graph::WaitInfo> waits_of(const graph::EventGraph& g);

// Whether two graphs are one program: every array the same but the facts a counterfactual replay takes from the
// other run (tasks' times and processors, copies' sizes, waits' measured durations). `same_processors` also
// asks for the same processor handle of every task; otherwise a task's processor kind and node must agree
// (pool placement looks at nothing else), the kinds as each trace's map gives them.
bool same_program(const graph::EventGraph& a, const replay::MachineMap& map_a, const graph::EventGraph& b,
                  const replay::MachineMap& map_b, bool same_processors);

}  // namespace rr::explain
