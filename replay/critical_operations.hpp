// The operations that do the work on a critical path (its compute and copy steps), for the reports that list
// them: critpath's top operations, replay's JSON and the comparison summaries.
#pragma once

#include <string>
#include <vector>

#include "replay/critical_path.hpp"

namespace rr::replay {

// The compute and copy steps, in path order.
std::vector<const PathStep*> work_steps(const CriticalPath& cp);
// Their events "(id,gen)" in path order; consecutive steps of one operation (a task's segments) once. From the steps
// alone (PathStep::event), so that rank 0 of a replay over ranks lists them without the other ranks' vertices.
std::vector<std::string> critical_operations(const CriticalPath& cp);

}  // namespace rr::replay
