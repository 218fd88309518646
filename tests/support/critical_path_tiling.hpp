// Test helper without GoogleTest (the fuzz targets use it too): the critical path's invariant — its classes add
// up to the estimate and its steps tile [0, makespan], each non-empty and beginning where the one
// before ended. Returns what breaks it, or an empty string.
#pragma once

#include <string>

#include "replay/critical_path.hpp"

namespace rr::testing {

inline std::string tiling_problem(const replay::CriticalPath& cp, replay::TimeNs makespan) {
  replay::TimeNs sum = 0;
  for (auto t : cp.by_class) {
    if (t < 0) return "a class has negative time";
    sum += t;
  }
  if (sum != makespan)
    return "the classes add up to " + std::to_string(sum) + ", not the makespan " + std::to_string(makespan);
  replay::TimeNs contended = 0;
  for (const auto& [resource, t] : cp.contention) contended += t;
  if (contended != cp.by_class[static_cast<std::size_t>(replay::PathClass::contention)])
    return "the contention by resource adds up to " + std::to_string(contended) + ", not the contention class";
  if (cp.length_ns != makespan) return "length " + std::to_string(cp.length_ns) + " is not the makespan";
  replay::TimeNs at = 0;
  for (const auto& st : cp.steps) {
    if (st.begin != at) return "a gap or an overlap before " + st.label;
    if (st.begin >= st.end) return "an empty step: " + st.label;
    at = st.end;
  }
  if (at != makespan) return "the steps end at " + std::to_string(at) + ", not at the makespan";
  return {};
}

}  // namespace rr::testing
