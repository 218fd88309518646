// Test helper: the critical path's invariant (critical_path_tiling.hpp) and its lower bound, as expectations; and a
// path against one engine's.
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

// A critical path walked otherwise (over ranks, from parts) against one engine's: its sums, which every rank gets.
inline void expect_same_sums(const replay::CriticalPath& a, const replay::CriticalPath& b, const std::string& what) {
  EXPECT_EQ(a.length_ns, b.length_ns) << what;
  EXPECT_EQ(a.lower_bound_ns, b.lower_bound_ns) << what;
  EXPECT_EQ(a.by_class, b.by_class) << what;
  EXPECT_EQ(a.by_label, b.by_label) << what;
  EXPECT_EQ(a.contention, b.contention) << what;
  EXPECT_EQ(a.compute_by_function, b.compute_by_function) << what;
}

// ... and its steps, which rank 0 gets: each one's operation (by whole id) and event, class, label and span.
inline void expect_same_steps(const replay::CriticalPath& a, const replay::CriticalPath& b, const std::string& what) {
  ASSERT_EQ(a.steps.size(), b.steps.size()) << what;
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    const replay::PathStep &x = a.steps[i], &y = b.steps[i];
    EXPECT_TRUE(x.vertex == y.vertex && x.event == y.event && x.cls == y.cls && x.label == y.label &&
                x.begin == y.begin && x.end == y.end)
        << what << ": step " << i << " of " << a.steps.size() << " is " << y.label << " of " << y.vertex << " "
        << core::to_string(y.event) << " [" << y.begin << ", " << y.end << "), not " << x.label << " of " << x.vertex
        << " " << core::to_string(x.event) << " [" << x.begin << ", " << x.end << ")";
  }
}

}  // namespace rr::testing
