// A planted better mapping (docs/mapping.md, Tuning): on a generated trace whose tasks all ran on CPUs, on a machine
// with an idle GPU per node, function 7 runs 10x faster on the GPU, said by a factors file or by the machine's
// function_speed, beside functions that would run slower there. tune's first step is the planted move, its best
// mapping keeps it, it beats everything the search finds without the planted factor, and the written mapping
// replays to its estimate.
#include <gtest/gtest.h>

#include <fstream>

#include "gen/generators.hpp"
#include "gen/log_writer.hpp"
#include "gen/truth_files.hpp"
#include "session/replay_choices.hpp"
#include "support/test_dir.hpp"
#include "tuning/tuning.hpp"
#include "tuning_fixture.hpp"

namespace rr::tuning {
namespace {

using namespace rr::tuning::testing;

struct Planted {
  session::LoadedTrace trace;
  std::string machine;
};

// 3,000 operations of `gen random-dag` on 2 nodes of 2 CPUs: tasks of functions 5 to 12 on random CPUs.
Planted random_dag(const std::filesystem::path& dir) {
  const gen::Program program = gen::make_random_dag(3000, {2, 2, 1});
  gen::TruthMachine truth;
  gen::write_trace(program, gen::schedule(program, truth), truth, dir.string(), gen::Compression::none);
  return {load(dir.string()), (dir / "machine.toml").string()};
}

bool moves_7_to_gpu(const machine::MappingSpec& m) {
  for (const auto& move : m.moves)
    if (move.function == 7 && move.kind == core::ProcessorKind::gpu) return true;
  return false;
}

TuneResult search(const Planted& p, const std::vector<std::string>& overrides, const machine::FunctionFactors* f) {
  const auto model = machine_for(p.trace, p.machine, overrides);
  TuneOptions options;
  options.space.factors = f;
  auto r = tune(p.trace, model, {}, options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
  return std::move(*r);
}

void expect_found(const TuneResult& r, const std::string& route) {
  ASSERT_FALSE(r.path.empty()) << route;
  EXPECT_NE(r.path[0].change.find("function 7 to GPU"), std::string::npos) << route << ": " << r.path[0].change;
  EXPECT_TRUE(moves_7_to_gpu(r.best)) << route << "\n" << machine::mapping_toml(r.best);
  EXPECT_LT(r.best_ns, r.start_ns * 9 / 10) << route << ": the planted move is worth more than a tenth";
}

TEST(PlantedMapping, TuneFindsAFunctionTenTimesFasterOnTheGpu) {
  const rr::testing::TestDir dir("rr_planted");
  const Planted p = random_dag(dir.path() / "trace");
  const std::vector<std::string> gpu{"processors.gpu.count=1"};
  const auto decoys = factors(dir.path() / "decoys.toml", "[8]\ngpu = 20\n[9]\ngpu = 5\n");
  const auto planted = factors(dir.path() / "planted.toml", "[7]\ngpu = 0.1\n[8]\ngpu = 20\n[9]\ngpu = 5\n");

  const TuneResult without = search(p, gpu, &decoys);
  EXPECT_FALSE(moves_7_to_gpu(without.best));
  const TuneResult by_file = search(p, gpu, &planted);
  expect_found(by_file, "factors file");
  EXPECT_LT(by_file.path[0].after_ns, without.best_ns) << "the planted move alone beats every mapping without it";

  // The machine says it instead: function 7 runs 10x faster on its GPUs, function 8 20x slower.
  const TuneResult by_machine =
      search(p, {"processors.gpu.count=1", "processors.gpu.function_speed.7=10", "processors.gpu.function_speed.8=0.05"},
             nullptr);
  expect_found(by_machine, "function_speed");
  EXPECT_EQ(by_machine.path[0].after_ns, by_file.path[0].after_ns) << "a factor of 0.1 and a speed of 10 price it alike";

  // The written mapping replays to the estimate.
  const auto file = dir.path() / "best.toml";
  std::ofstream(file) << machine::mapping_toml(by_file.best);
  session::ReplayChoices choices;
  choices.mapping = file.string();
  auto settings = session::replay_settings(choices);
  ASSERT_TRUE(settings.ok());
  auto replayed = session::replay_trace(p.trace, {p.machine, gpu}, *settings);
  ASSERT_TRUE(replayed.ok()) << replayed.error().to_string();
  EXPECT_EQ(replayed->result.makespan_ns, by_file.best_ns);
}

}  // namespace
}  // namespace rr::tuning
