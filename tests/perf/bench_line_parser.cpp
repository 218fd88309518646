// Google Benchmark of the line parser: each record kind alone and the real traces' mix, bytes/s and lines/s.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "parser/line_parser.hpp"

namespace {

const char* kLines[] = {
    "[0 - 7fffe241b6c0] {2}{graph}: Processor: 80800001 2",
    "[0 - 7fffe241b6c0] {2}{graph}: Group: 90000001 2 80000000 80000001",
    "[0 - 7fffe241b6c0] {2}{graph}: Memory: 607f0000 0",
    "[0 - 7fffe221a6c0] {2}{graph}: Task Request: 4 90000001 (20000006,2) (0,0) (20000005,1) 1 0x7fffe2219ca0 24",
    "[0 - 7fffe221a6c0] {1}{graph}: Task Time: (20000005,1) 7315",
    "[0 - 7fffe221a6c0] {1}{graph}: Task Wait: (20000005,1) (20000006,1) 7230",
    "[0 - 7fffc24196c0] {2}{graph}: Event Merge: (20000032,4) 6",
    "[0 - 7fffc24196c0] {2}{graph}: Event Precondition: (20000032,4) (2000002d,2)",
    "[0 - 7fffe221a6c0] {2}{graph}: Event Trigger: (20000008,2) (0,0) (2000000f,1)",
    "[0 - 7fffc22186c0] {2}{graph}: Barrier Creation: 20000006 1",
    "[0 - 7fffc24196c0] {2}{graph}: Barrier Alter: (20000006,3) (20000024,2) 1",
    "[0 - 7fffc24196c0] {2}{graph}: Barrier Arrive: (20000006,3) (20000030,2) (20000024,2) 1",
    "[0 - 7fffe221a6c0] {2}{graph}: Copy Request: (200000bc,1) (200000bb,1) (200000b9,3) 60800000 60000000",
    "[0 - 7fffe2c1c6c0] {1}{graph}: Copy Size: (2080000e,1) 112000",
};

void run(benchmark::State& state, const std::vector<std::string>& lines) {
  std::uint64_t bytes = 0;
  for (const auto& l : lines) bytes += l.size() + 1;
  for (auto _ : state) {
    rr::core::RecordBatch batch;
    rr::core::FileStats stats;
    rr::parser::LineParser parser(batch, stats, 5);
    std::uint32_t n = 0;
    for (const auto& l : lines) parser.parse_line(l, n++);
    benchmark::DoNotOptimize(batch.record_count());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * lines.size()));
}

void BM_Kind(benchmark::State& state) {
  std::vector<std::string> lines(4096, kLines[state.range(0)]);
  state.SetLabel(std::string(kLines[state.range(0)]).substr(31, 18));
  run(state, lines);
}
BENCHMARK(BM_Kind)->DenseRange(0, 13);

// The record mix of the real full_circuit trace: 59% preconditions, 13% requests, 13% times, ...
void BM_RealMix(benchmark::State& state) {
  const int mix[14] = {0, 0, 0, 13, 13, 1, 8, 59, 5, 0, 0, 0, 1, 1};
  std::vector<std::string> lines;
  for (int round = 0; round < 50; ++round)
    for (int k = 0; k < 14; ++k)
      for (int i = 0; i < mix[k]; ++i) lines.emplace_back(kLines[k]);
  run(state, lines);
}
BENCHMARK(BM_RealMix);

}  // namespace

BENCHMARK_MAIN();
