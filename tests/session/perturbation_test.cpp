// The estimate under noise: the same for a seed whatever the thread count, no noise without sigma, percentiles
// ordered, and different seeds giving different samples.
#include <gtest/gtest.h>

#include "session/perturbation.hpp"
#include "support/replay_fixture.hpp"

namespace rr::session {
namespace {

TEST(Perturbation, SameSamplesForASeedAtAnyThreadCount) {
  auto r = testing::replay_real("full_circuit_2node_p4_cpu2");
  auto one = perturbed_estimates(r.trace, r.run.model, {}, {}, {0.2, 40, 11, 1});
  auto two = perturbed_estimates(r.trace, r.run.model, {}, {}, {0.2, 40, 11, 2});
  ASSERT_TRUE(one.ok() && two.ok());
  EXPECT_EQ(one->samples, two->samples);
  EXPECT_EQ(one->mean_ns, two->mean_ns);
  EXPECT_LE(one->min_ns, one->p5_ns);
  EXPECT_LE(one->p5_ns, one->p50_ns);
  EXPECT_LE(one->p50_ns, one->p95_ns);
  EXPECT_LE(one->p95_ns, one->max_ns);
  EXPECT_LT(one->min_ns, one->max_ns);  // noise does move the estimate
  auto other = perturbed_estimates(r.trace, r.run.model, {}, {}, {0.2, 40, 12, 2});
  ASSERT_TRUE(other.ok());
  EXPECT_NE(one->samples, other->samples);
}

TEST(Perturbation, ZeroSigmaGivesTheDeterministicEstimate) {
  auto r = testing::replay_real("full_ghost_b2_cpu2");
  auto d = perturbed_estimates(r.trace, r.run.model, {}, {}, {0.0, 5, 1, 2});
  ASSERT_TRUE(d.ok());
  for (auto t : d->samples) EXPECT_EQ(t, r.run.result.makespan_ns);
}

// Nearest-rank percentiles on a case small enough to check by hand: 20 samples, p5 is the 1st smallest, p50
// the 10th, p95 the 19th.
TEST(Perturbation, PercentilesAreNearestRank) {
  auto r = testing::replay_real("full_ghost_b2_cpu2");
  auto d = perturbed_estimates(r.trace, r.run.model, {}, {}, {0.3, 20, 5, 2});
  ASSERT_TRUE(d.ok());
  auto sorted = d->samples;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(d->p5_ns, sorted[0]);
  EXPECT_EQ(d->p50_ns, sorted[9]);
  EXPECT_EQ(d->p95_ns, sorted[18]);
}

}  // namespace
}  // namespace rr::session
