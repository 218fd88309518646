// Test helper: the critical path's invariant (critical_path_tiling.hpp) and its lower bound, as expectations.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "replay/critical_path.hpp"
#include "support/critical_path_tiling.hpp"

namespace rr::testing {

inline void expect_tiles(const replay::CriticalPath& cp, replay::TimeNs makespan, const std::string& what = "") {
  EXPECT_EQ(tiling_problem(cp, makespan), "") << what;
  EXPECT_LE(cp.lower_bound_ns, makespan) << what;
}

}  // namespace rr::testing
