// Planted changes (docs/explain.md, Validation): one program generated twice with the same seed, the second with a
// change worth at least 5% of the run, explained on each run's own machine. Each change is recovered within 5% of
// its effect (the change planted alone) and the rest of the difference stays under 2% of it; the shares add up to
// B − A exactly; A with no class from B replays as A and A with every class as B.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <string>

#include "explain/explain.hpp"
#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "gen/plant.hpp"
#include "gen/s3d.hpp"
#include "support/test_dir.hpp"

namespace rr::explain {
namespace {

namespace fs = std::filesystem;

struct Planted {
  std::optional<gen::SlowFunction> slow;
  std::int64_t latency_ns = gen::TruthMachine{}.network_latency_ns;
  std::uint32_t utility = 2;
};

enum class Program { stencil, s3d };

fs::path write(const fs::path& dir, Program kind, const Planted& change) {
  gen::Program p = kind == Program::stencil
                       ? gen::make_stencil(1, 30, {4, 2, 3})
                       : gen::make_s3d({"dme", "all", 2, 1, 48, 5, change.utility});
  if (change.slow) gen::plant_slow_function(p, *change.slow);
  gen::TruthMachine m;
  m.network_latency_ns = change.latency_ns;
  gen::write_trace(p, gen::schedule(p, m), m, dir.string(), gen::Compression::none);
  return dir;
}

session::LoadedTrace load(const fs::path& dir) {
  auto t = session::load_trace({dir.string()}, {});
  if (!t) ADD_FAILURE() << t.error().to_string();
  return std::move(*t);
}

ExplainResult explain_pair(const fs::path& a, const fs::path& b, const ExplainOptions& base = {}) {
  ExplainOptions o = base;
  o.machine_a = {(a / "machine.toml").string(), {}};
  o.machine_b = {(b / "machine.toml").string(), {}};
  auto r = explain_traces(load(a), load(b), o);
  if (!r) ADD_FAILURE() << r.error().to_string();
  return std::move(*r);
}

// The invariants every explanation keeps.
void expect_exact(const ExplainResult& r, const std::string& what) {
  std::int64_t sum = 0;
  for (const FactClass& c : r.classes) sum += c.share_ns;
  EXPECT_EQ(sum, r.difference_ns()) << what;
  ASSERT_EQ(r.subset_ns.size(), std::size_t{1} << r.classes.size()) << what;
  EXPECT_EQ(r.subset_ns.front(), r.replay_a_ns) << what;
  EXPECT_EQ(r.subset_ns.back(), r.replay_b_ns) << what;
}

std::int64_t share_of(const ExplainResult& r, FactKind kind) {
  std::int64_t s = 0;
  for (const FactClass& c : r.classes)
    if (c.kind == kind) s += c.share_ns;
  return s;
}

// The planted class's share against the change's effect, and the rest against it.
void expect_recovered(const ExplainResult& r, FactKind kind, std::int64_t effect, const std::string& what) {
  ASSERT_NE(effect, 0) << what;
  const std::int64_t share = share_of(r, kind);
  const double error = std::abs(static_cast<double>(share - effect)) / std::abs(static_cast<double>(effect));
  std::cout << what << ": effect " << effect << " ns, share " << share << " ns, error " << 100 * error << "%\n";
  EXPECT_LE(error, 0.05) << what;
}

void expect_rest_small(const ExplainResult& r, std::initializer_list<FactKind> planted, const std::string& what) {
  std::int64_t rest = r.difference_ns();
  for (FactKind k : planted) rest -= share_of(r, k);
  std::cout << what << ": rest " << rest << " ns of " << r.difference_ns() << "\n";
  EXPECT_LE(std::abs(static_cast<double>(rest)), 0.02 * std::abs(static_cast<double>(r.difference_ns()))) << what;
}

void expect_worth(const ExplainResult& r, const std::string& what) {
  EXPECT_GE(std::abs(static_cast<double>(r.difference_ns())), 0.05 * static_cast<double>(r.replay_a_ns)) << what;
}

TEST(Planted, SameRunsExplainNothing) {
  const rr::testing::TestDir d("rr_explain_same");
  const auto a = write(d.path() / "a", Program::stencil, {});
  const ExplainResult r = explain_pair(a, a);
  EXPECT_TRUE(r.classes.empty());
  EXPECT_EQ(r.difference_ns(), 0);
  EXPECT_EQ(r.replays, 2u);  // the empty subset, and B's own replay
}

TEST(Planted, SlowFunctionLatencyAndBoth) {
  const rr::testing::TestDir d("rr_explain_stencil");
  const gen::SlowFunction slow{7, 1, 1.3};
  const auto a = write(d.path() / "a", Program::stencil, {});
  const auto f = write(d.path() / "f", Program::stencil, {slow});
  const auto l = write(d.path() / "l", Program::stencil, {std::nullopt, 4 * gen::TruthMachine{}.network_latency_ns});
  const auto fl = write(d.path() / "fl", Program::stencil, {slow, 4 * gen::TruthMachine{}.network_latency_ns});
  const ExplainResult rf = explain_pair(a, f), rl = explain_pair(a, l), rfl = explain_pair(a, fl);
  for (const auto* r : {&rf, &rl, &rfl}) expect_exact(*r, r->label_b);
  expect_worth(rf, "slow function");
  expect_worth(rl, "latency x4");
  expect_recovered(rf, FactKind::durations, rf.difference_ns(), "slow function alone");
  expect_recovered(rl, FactKind::costs, rl.difference_ns(), "latency alone");
  expect_rest_small(rf, {FactKind::durations}, "slow function alone");
  expect_rest_small(rl, {FactKind::costs}, "latency alone");
  // Two at once: each against its effect planted alone.
  expect_recovered(rfl, FactKind::durations, rf.difference_ns(), "slow function, with latency");
  expect_recovered(rfl, FactKind::costs, rl.difference_ns(), "latency, with slow function");
  expect_rest_small(rfl, {FactKind::durations, FactKind::costs}, "slow function and latency");
}

TEST(Planted, UtilityProcessor) {
  const rr::testing::TestDir d("rr_explain_s3d");
  const auto a = write(d.path() / "a", Program::s3d, {std::nullopt, gen::TruthMachine{}.network_latency_ns, 2});
  const auto u = write(d.path() / "u", Program::s3d, {std::nullopt, gen::TruthMachine{}.network_latency_ns, 3});
  const ExplainResult ru = explain_pair(a, u);
  expect_exact(ru, "one more utility processor");
  EXPECT_EQ(ru.placement, "pool");
  expect_worth(ru, "one more utility processor");
  expect_recovered(ru, FactKind::processors, ru.difference_ns(), "utility processor alone");
  expect_rest_small(ru, {FactKind::processors}, "utility processor alone");
}

// Two changes that interact: a slower function matters more with more utility processors (less of the run waits
// for them). Shapley values split the interaction evenly: each share is its effect alone (under the pair's pool
// placement) plus half the interaction, exactly (to the ns of rounding).
TEST(Planted, InteractingChangesSplitTheirInteraction) {
  const rr::testing::TestDir d("rr_explain_s3d_pair");
  const gen::SlowFunction slow{16, 0, 1.3};  // chemistry on node 0
  const auto a = write(d.path() / "a", Program::s3d, {std::nullopt, gen::TruthMachine{}.network_latency_ns, 2});
  const auto fu = write(d.path() / "fu", Program::s3d, {slow, gen::TruthMachine{}.network_latency_ns, 3});
  const ExplainResult r = explain_pair(a, fu);
  expect_exact(r, "slow chemistry and a utility processor");
  // The two planted classes (a third, the drivers' waits, which moved with the run, may come with them).
  std::size_t slow_bit = r.classes.size(), processors_bit = r.classes.size();
  for (std::size_t i = 0; i < r.classes.size(); ++i) {
    if (r.classes[i].name == "durations of chemistry") slow_bit = i;
    if (r.classes[i].kind == FactKind::processors) processors_bit = i;
  }
  ASSERT_LT(slow_bit, r.classes.size());
  ASSERT_LT(processors_bit, r.classes.size());
  const std::size_t s = std::size_t{1} << slow_bit, p = std::size_t{1} << processors_bit;
  const std::int64_t interaction = r.subset_ns[s | p] - r.subset_ns[s] - r.subset_ns[p] + r.subset_ns[0];
  for (std::size_t bit : {slow_bit, processors_bit}) {
    const FactClass& c = r.classes[bit];
    std::cout << c.name << ": alone " << c.alone_ns << " ns, share " << c.share_ns << " ns, interaction "
              << interaction << " ns\n";
    EXPECT_LE(std::abs(static_cast<double>(c.share_ns - c.alone_ns) - static_cast<double>(interaction) / 2),
              0.02 * std::abs(static_cast<double>(r.difference_ns())));
  }
  std::int64_t rest = r.difference_ns() - r.classes[slow_bit].share_ns - r.classes[processors_bit].share_ns;
  std::cout << "rest " << rest << " ns of " << r.difference_ns() << "\n";
  EXPECT_LE(std::abs(static_cast<double>(rest)), 0.02 * std::abs(static_cast<double>(r.difference_ns())));
}

}  // namespace
}  // namespace rr::explain
