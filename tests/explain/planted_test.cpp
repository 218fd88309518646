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

TEST(Planted, UtilityProcessorAndSlowFunction) {
  const rr::testing::TestDir d("rr_explain_s3d");
  const gen::SlowFunction slow{16, 0, 1.3};  // chemistry on node 0
  const auto a = write(d.path() / "a", Program::s3d, {std::nullopt, gen::TruthMachine{}.network_latency_ns, 2});
  const auto u = write(d.path() / "u", Program::s3d, {std::nullopt, gen::TruthMachine{}.network_latency_ns, 3});
  const auto f = write(d.path() / "f", Program::s3d, {slow, gen::TruthMachine{}.network_latency_ns, 2});
  const auto fu = write(d.path() / "fu", Program::s3d, {slow, gen::TruthMachine{}.network_latency_ns, 3});
  const ExplainResult ru = explain_pair(a, u), rf = explain_pair(a, f), rfu = explain_pair(a, fu);
  for (const auto* r : {&ru, &rf, &rfu}) expect_exact(*r, r->label_b);
  EXPECT_EQ(ru.placement, "pool");
  expect_worth(ru, "one more utility processor");
  expect_worth(rf, "slow chemistry");
  expect_recovered(ru, FactKind::processors, ru.difference_ns(), "utility processor alone");
  expect_rest_small(ru, {FactKind::processors}, "utility processor alone");
  // The slow function alone replays under traced placement, the pair with a processor more under pool placement:
  // its effect alone is taken under pool placement too, by replays of its own.
  auto pool_replay = [](const fs::path& dir) {
    session::ReplaySettings s;
    s.mapping.placement = machine::Placement::pool;
    s.critical_path = false;
    auto run = session::replay_trace(load(dir), {(dir / "machine.toml").string(), {}}, s);
    if (!run) ADD_FAILURE() << run.error().to_string();
    return run ? run->result.makespan_ns : 0;
  };
  const std::int64_t slow_alone = pool_replay(f) - pool_replay(a);
  expect_recovered(rfu, FactKind::durations, slow_alone, "slow chemistry, with a utility processor");
  expect_recovered(rfu, FactKind::processors, ru.difference_ns(), "utility processor, with slow chemistry");
  expect_rest_small(rfu, {FactKind::durations, FactKind::processors}, "slow chemistry and a utility processor");
}

}  // namespace
}  // namespace rr::explain
