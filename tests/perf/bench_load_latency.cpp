// How long one load takes when its address comes from the load before it, by the size of the memory it roams
// over: the engine's steps are such chains (docs/performance.md), so this bounds how fast a replay can go on a
// machine. Each benchmark follows a random cycle through every 64-byte line of a buffer; `huge` asks for
// transparent huge pages; `other core` has a second thread follow the cycle just before, to see whether a line
// another core loaded is any nearer.
//
//   build/tests/perf/bench_load_latency --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

namespace {

struct alignas(64) Line {
  std::uint64_t next;
  char rest[56];
};

struct FreeDeleter {
  void operator()(Line* p) const { std::free(p); }
};

// A buffer of `bytes` whose lines form one random cycle.
class Cycle {
 public:
  Cycle(std::size_t bytes, bool huge) : lines_(bytes / sizeof(Line)) {
    constexpr std::size_t kHugePage = 2 << 20;
    const std::size_t size = (lines_ * sizeof(Line) + kHugePage - 1) / kHugePage * kHugePage;
    lines_data_.reset(static_cast<Line*>(std::aligned_alloc(kHugePage, size)));
    if (huge) madvise(lines_data_.get(), size, MADV_HUGEPAGE);
    std::vector<std::uint64_t> order(lines_);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937_64(lines_));
    for (std::size_t i = 0; i < lines_; ++i) lines_data_.get()[order[i]].next = order[(i + 1) % lines_];
  }
  // Follows the cycle for `steps` loads from `from`; returns where it stopped.
  std::uint64_t follow(std::uint64_t from, std::size_t steps) const {
    const Line* lines = lines_data_.get();
    for (std::size_t i = 0; i < steps; ++i) from = lines[from].next;
    return from;
  }
  std::size_t lines() const { return lines_; }

 private:
  std::size_t lines_;
  std::unique_ptr<Line, FreeDeleter> lines_data_;
};

// Args: buffer in KiB, huge pages (0/1), a second thread first (0/1).
void DependentLoads(benchmark::State& state) {
  const Cycle cycle(static_cast<std::size_t>(state.range(0)) << 10, state.range(1) != 0);
  const bool other_core_first = state.range(2) != 0;
  const std::size_t steps = std::min<std::size_t>(cycle.lines(), 1 << 18);
  std::uint64_t at = cycle.follow(0, cycle.lines());  // every line touched once: no first-touch faults timed
  for (auto _ : state) {
    if (other_core_first) {
      state.PauseTiming();
      std::thread([&] { benchmark::DoNotOptimize(cycle.follow(at, steps)); }).join();
      state.ResumeTiming();
    }
    at = cycle.follow(at, steps);
    benchmark::DoNotOptimize(at);
  }
  state.counters["ns_per_load"] =
      benchmark::Counter(static_cast<double>(state.iterations() * steps), benchmark::Counter::kIsRate |
                                                                              benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(DependentLoads)
    ->ArgNames({"KiB", "huge", "other_core"})
    ->Args({256, 0, 0})
    ->Args({1024, 0, 0})
    ->Args({4096, 0, 0})
    ->Args({16384, 0, 0})
    ->Args({262144, 0, 0})
    ->Args({4096, 1, 0})
    ->Args({16384, 1, 0})
    ->Args({262144, 1, 0})
    ->Args({4096, 0, 1})
    ->Args({16384, 0, 1})
    ->Args({262144, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK_MAIN();
