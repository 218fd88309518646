// Test helper: the critical path's invariant (DESIGN §3): its classes add up to the estimate and its steps tile
// [0, makespan] — each inside it, non-empty, each beginning where the one before ended.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "replay/critical_path.hpp"

namespace rr::testing {

inline void expect_tiles(const replay::CriticalPath& cp, replay::TimeNs makespan, const std::string& what = "") {
  replay::TimeNs sum = 0;
  for (auto t : cp.by_class) {
    EXPECT_GE(t, 0) << what;
    sum += t;
  }
  EXPECT_EQ(sum, makespan) << what;
  EXPECT_EQ(cp.length_ns, makespan) << what;
  EXPECT_LE(cp.lower_bound_ns, makespan) << what;
  replay::TimeNs at = 0;
  for (const auto& st : cp.steps) {
    EXPECT_EQ(st.begin, at) << what << ": a gap or an overlap before " << st.label;
    EXPECT_LT(st.begin, st.end) << what;
    at = st.end;
  }
  EXPECT_EQ(at, makespan) << what;
}

}  // namespace rr::testing
