// Calibration against an oracle: traces whose true machine is known (the generator's truth machine), measured
// times from the truth, a base machine that is wrong in one cost: the fit finds the true value. Also the runs
// file formats and their errors, and the same fit at any thread count.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "calibration/calibration.hpp"
#include "support/test_dir.hpp"

namespace rr::calibration {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

TEST(CalibrationRuns, TomlAndCsvWithPathsRelativeToTheFile) {
  const rr::testing::TestDir s("rr_cal");
  write(s.path() / "runs.toml", "[[run]]\ntrace = \"a\"\nmeasured_s = 1.5\nhow = \"stopwatch\"\n[[run]]\ntrace = \"/abs/b\"\nmeasured_s = 2\n");
  auto t = read_runs((s.path() / "runs.toml").string());
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  ASSERT_EQ(t->size(), 2u);
  EXPECT_EQ((*t)[0].trace, (s.path() / "a").string());
  EXPECT_EQ((*t)[0].measured_s, 1.5);
  EXPECT_EQ((*t)[0].how, "stopwatch");
  EXPECT_EQ((*t)[1].trace, "/abs/b");
  write(s.path() / "runs.csv", "trace,measured_s,how\na,1.5,the app, its own timer\n");
  auto c = read_runs((s.path() / "runs.csv").string());
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  ASSERT_EQ(c->size(), 1u);
  EXPECT_EQ((*c)[0].how, "the app, its own timer");
}

TEST(CalibrationRuns, EveryBadFileIsAnErrorNamingFileAndLine) {
  const rr::testing::TestDir s("rr_cal");
  struct Case {
    const char* name;
    const char* text;
    const char* message;
    std::uint64_t line;
  };
  const Case cases[] = {
      {"a.toml", "[[run]]\ntrace = \"a\"\n", "needs measured_s", 1},
      {"b.toml", "[[run]]\ntrace = \"a\"\nmeasured_s = -1\n", "measured_s", 1},
      {"c.toml", "[[run]]\ntrace = \"a\"\nmeasured_s = 1\nspeed = 2\n", "unknown key 'speed'", 4},
      {"d.toml", "run = 3\n", "[[run]] tables", 1},
      {"e.toml", "[[run]\n", "TOML syntax", 1},
      {"f.csv", "a,1\nb,fast\n", "'fast' is not a number", 2},
      {"g.csv", "a\n", "expected trace,measured_s", 1},
  };
  for (const auto& c : cases) {
    write(s.path() / c.name, c.text);
    auto r = read_runs((s.path() / c.name).string());
    ASSERT_FALSE(r.ok()) << c.name;
    EXPECT_NE(r.error().message.find(c.message), std::string::npos) << c.name << ": " << r.error().message;
    EXPECT_EQ(r.error().where.line, c.line) << c.name;
    EXPECT_EQ(r.error().where.file, (s.path() / c.name).string());
  }
  EXPECT_FALSE(read_runs((s.path() / "missing.toml").string()).ok());
}

// Chains that cross nodes at every step: their run time grows with the network latency. Measured = the
// generator's truth (latency 2000 ns); the base machine says 50000 ns. The fit must find 2000.
TEST(Calibration, RecoversTheTrueNetworkLatencyOfGeneratedRuns) {
  const rr::testing::TestDir s("rr_cal");
  std::vector<std::unique_ptr<session::LoadedTrace>> loaded;
  std::vector<const session::LoadedTrace*> traces;
  std::vector<MeasuredRun> runs;
  for (std::uint32_t length : {12u, 30u}) {
    const fs::path dir = s.path() / ("chain" + std::to_string(length));
    gen::Program p = gen::make_chain(length, {2, 1, length});
    gen::TruthMachine m;
    gen::Truth truth = gen::schedule(p, m);
    gen::write_trace(p, truth, m, dir.string(), gen::Compression::none);
    auto t = session::load_trace({dir.string()}, {});
    ASSERT_TRUE(t.ok());
    loaded.push_back(std::make_unique<session::LoadedTrace>(std::move(*t)));
    traces.push_back(loaded.back().get());
    runs.push_back({dir.string(), static_cast<double>(truth.makespan_ns) / 1e9, "the generator's truth"});
  }
  CalibrationOptions options;
  options.base = {(s.path() / "chain12" / "machine.toml").string(), {"network.latency_ns=50000"}};
  options.fit = {"network.latency_ns"};
  options.threads = 1;
  auto one = calibrate(traces, runs, options);
  ASSERT_TRUE(one.ok()) << one.error().to_string();
  ASSERT_EQ(one->fitted.size(), 1u);
  EXPECT_EQ(one->initial[0].second, 50000);
  EXPECT_NEAR(one->fitted[0].second, 2000, 100);  // the search's last step is 1/64 in log(value + 1 µs)
  EXPECT_GT(one->error_before, 0.5);
  EXPECT_LT(one->error_after, 0.01);
  ASSERT_TRUE(one->error_left_out);
  EXPECT_LT(*one->error_left_out, 0.02);  // one chain's latency predicts the other's time
  for (const auto& r : one->runs) EXPECT_NEAR(static_cast<double>(r.after_ns), r.measured_ns, 0.01 * r.measured_ns);
  options.threads = 2;
  auto two = calibrate(traces, runs, options);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(one->fitted, two->fitted);
  EXPECT_EQ(one->evaluations, two->evaluations);
  // The leave-one-out fits run side by side at 2 threads: the same predictions, in run order.
  ASSERT_EQ(one->runs.size(), two->runs.size());
  for (std::size_t i = 0; i < one->runs.size(); ++i) {
    EXPECT_EQ(one->runs[i].left_out_ns, two->runs[i].left_out_ns) << i;
    EXPECT_EQ(one->runs[i].after_ns, two->runs[i].after_ns) << i;
  }
  EXPECT_EQ(one->error_left_out, two->error_left_out);
  options.fit = {"processors.cpu.speed"};
  auto bad = calibrate(traces, runs, options);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("not a cost calibrate can fit"), std::string::npos);
}

}  // namespace
}  // namespace rr::calibration
