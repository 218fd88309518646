// Walks a critical path once for the steps that are operations doing work.
#include "replay/critical_operations.hpp"

namespace rr::replay {

std::vector<const PathStep*> work_steps(const CriticalPath& cp) {
  std::vector<const PathStep*> out;
  for (const auto& step : cp.steps)
    if (step.cls == PathClass::compute || step.cls == PathClass::copy) out.push_back(&step);
  return out;
}

std::vector<std::string> critical_operations(const CriticalPath& cp) {
  std::vector<std::string> out;
  for (const PathStep* step : work_steps(cp)) {
    std::string e = core::to_string(step->event);
    if (out.empty() || out.back() != e) out.push_back(std::move(e));
  }
  return out;
}

}  // namespace rr::replay
