// Replay-side benchmark: replay throughput (operations/s, one thread: the engine alone, and replay_trace with
// the machine's loading and mapping), the critical path of the replay (walk and lower bound), a sweep of 8
// machine configurations on 1 and 2 threads (speed-up, and a check that both give identical results), and the
// context trie against naive per-operation string aggregation. Medians of --repeat runs; peak RSS at the end.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "renumbered_graph.hpp"
#include "bench_timing.hpp"
#include "proc_status.hpp"
#include "replay/context_profile.hpp"
#include "replay/critical_path.hpp"
#include "replay/result_difference.hpp"
#include "session/run_grid.hpp"
#include "session/session.hpp"

namespace {

using rr::bench::Clock;
using rr::bench::median;
using rr::bench::seconds_since;

// The oracle of the context profile: a stack string per task segment, summed in a map.
std::map<std::string, std::int64_t> naive_profile(const rr::graph::EventGraph& g, const rr::replay::ReplayResult& r) {
  std::map<std::string, std::int64_t> sums;
  for (rr::graph::VertexId v = 0; v < g.vertex_count(); ++v) {
    auto k = g.kind(v);
    if ((k != rr::graph::OpKind::task && k != rr::graph::OpKind::task_resume) || r.end(v) < 0) continue;
    rr::graph::VertexId task = k == rr::graph::OpKind::task ? v : g.resume_wait(v).task;
    std::vector<std::uint32_t> funcs;
    for (auto u = task; u != rr::graph::kNoVertex; u = g.issuer(u)) funcs.push_back(g.task(u).func_id);
    std::string stack;
    for (auto it = funcs.rbegin(); it != funcs.rend(); ++it) stack += (stack.empty() ? "f" : ";f") + std::to_string(*it);
    sums[stack] += r.end(v) - r.start(v);
  }
  return sums;
}

void print_peak() {
  std::printf("peak RSS %.1f MiB\n", static_cast<double>(rr::bench::status_kib("VmHWM:")) / 1024.0);
}

struct BenchOptions {
  std::string machine;
  int repeat = 3;
  bool replay_only = false;  // --replay-only: section 1 alone (profiling the engine)
  bool interleave = false;   // --interleave: also time the engine on the graph renumbered with nodes interleaved
  bool start_order = false;  // --start-order: ... and on the graph renumbered in the order the replay started it
  bool lower_bound_order = false;  // --lower-bound-order: ... in the order it would start with unlimited resources
  bool random_order = false;       // --random-order: ... in no order at all (what locality is worth)
  std::vector<std::uint32_t> block_counts;  // --blocks N[,N...]: also time one replay split into N blocks
  std::uint32_t block_threads = 0;          // --block-threads T: on T workers (default: one per block)
  std::vector<std::string> inputs;
};

std::optional<BenchOptions> parse_options(int argc, char** argv) {
  BenchOptions o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--machine" && i + 1 < argc) o.machine = argv[++i];
    else if (a == "--repeat" && i + 1 < argc) o.repeat = std::stoi(argv[++i]);
    else if (a == "--replay-only") o.replay_only = true;
    else if (a == "--interleave") o.interleave = true;
    else if (a == "--start-order") o.start_order = true;
    else if (a == "--lower-bound-order") o.lower_bound_order = true;
    else if (a == "--random-order") o.random_order = true;
    else if (a == "--blocks" && i + 1 < argc) {
      for (std::string list = argv[++i]; !list.empty();) {
        const auto comma = list.find(',');
        o.block_counts.push_back(static_cast<std::uint32_t>(std::stoul(list.substr(0, comma))));
        list = comma == std::string::npos ? "" : list.substr(comma + 1);
      }
    } else if (a == "--block-threads" && i + 1 < argc) o.block_threads = static_cast<std::uint32_t>(std::stoul(argv[++i]));
    else o.inputs.push_back(a);
  }
  if (o.machine.empty() || o.inputs.empty()) return std::nullopt;
  return o;
}

// The engine alone, on the machine and mapping `run` built: median seconds of `repeat` runs on g, and the makespan
// they gave.
double time_engine(const rr::graph::EventGraph& g, const rr::session::ReplayRun& run,
                   const rr::replay::ReplayOptions& options, int repeat, std::int64_t& makespan) {
  std::vector<double> seconds;
  for (int r = 0; r < repeat; ++r) {
    auto t = Clock::now();
    auto replayed = rr::replay::run_replay(g, run.map, run.model, options);
    seconds.push_back(seconds_since(t));
    if (replayed) makespan = replayed->makespan_ns;
  }
  return median(seconds);
}

// One replay split into blocks (docs/replay.md): its time, its speed-up over one engine, and whether its result is
// the one engine's, field by field. Each split run is paired with a run on one engine just after it (whose result
// it is checked against): the median of the pairs' ratios is the speed-up, steadier than a ratio of medians taken
// minutes apart on a machine whose speed drifts.
bool bench_blocks(const rr::graph::EventGraph& graph, const rr::session::ReplayRun& run,
                  const rr::replay::ReplayOptions& one_engine, const BenchOptions& o, std::uint32_t blocks) {
  rr::replay::ReplayOptions options = one_engine;
  options.execution.blocks = blocks;
  options.execution.threads = o.block_threads;
  std::vector<double> seconds, ratios;
  std::optional<std::string> difference;
  std::uint32_t used = 1;
  for (int r = 0; r < o.repeat; ++r) {
    auto t = Clock::now();
    auto split = rr::replay::run_replay(graph, run.map, run.model, options);
    seconds.push_back(seconds_since(t));
    if (!split) {
      std::fprintf(stderr, "%s\n", split.error().to_string().c_str());
      return false;
    }
    used = split->blocks;
    t = Clock::now();
    auto serial = rr::replay::run_replay(graph, run.map, run.model, one_engine);
    ratios.push_back(seconds_since(t) / seconds.back());
    if (auto d = rr::replay::first_difference(*serial, *split)) difference = d;
  }
  const double s = median(seconds);
  std::printf("engine, %u blocks (%u used) on %u threads: median %.3f s, %.0f operations/s, %.2fx one engine "
              "(median of %d paired runs), %s\n",
              blocks, used, o.block_threads ? o.block_threads : blocks, s, graph.vertex_count() / s, median(ratios),
              o.repeat, difference ? ("DIFFERS: " + *difference).c_str() : "same result");
  return true;
}

// The engine alone, split into blocks, and on renumbered copies of the graph (renumbered_graph.hpp).
bool bench_engine(const rr::graph::EventGraph& graph, const rr::session::ReplayRun& run,
                  const rr::replay::ReplayOptions& options, const BenchOptions& o) {
  std::int64_t makespan = 0;
  const double engine_s = time_engine(graph, run, options, o.repeat, makespan);
  std::printf("engine: median %.3f s, %.0f operations/s, makespan %lld ns%s\n", engine_s,
              graph.vertex_count() / engine_s, static_cast<long long>(makespan),
              makespan == run.result.makespan_ns ? "" : " (DIFFERS from replay_trace)");
  auto time_renumbered = [&](const char* numbering, const rr::graph::EventGraph& renumbered) {
    std::int64_t renumbered_makespan = 0;
    const double s = time_engine(renumbered, run, options, o.repeat, renumbered_makespan);
    std::printf("engine, %s: median %.3f s, %.0f operations/s, makespan %lld ns\n", numbering, s,
                renumbered.vertex_count() / s, static_cast<long long>(renumbered_makespan));
  };
  for (const std::uint32_t blocks : o.block_counts)
    if (!bench_blocks(graph, run, options, o, blocks)) return false;
  if (o.interleave) time_renumbered("nodes interleaved", rr::bench::interleaved(graph));
  if (o.random_order)
    time_renumbered("random order", rr::bench::in_order_of(graph, [](rr::graph::VertexId v) { return v * 2654435761u; }));
  if (o.start_order) time_renumbered("vertices in start order", rr::bench::in_start_order(graph, run.result.ops));
  if (o.lower_bound_order)
    time_renumbered("vertices in lower-bound order", rr::bench::in_lower_bound_order(graph, run.result.ops));
  return true;
}

// The critical path of that replay: the walk back along the releasers, and the lower bound's longest path over the
// whole graph (most of the time).
void bench_critical_path(const rr::graph::EventGraph& graph, const rr::session::ReplayRun& run, int repeat) {
  std::vector<double> seconds;
  std::int64_t bound = 0;
  for (int r = 0; r < repeat; ++r) {
    auto t = Clock::now();
    const rr::replay::CriticalPath cp = rr::replay::critical_path(graph, run.map, run.model, run.result);
    seconds.push_back(seconds_since(t));
    bound = cp.lower_bound_ns;
  }
  std::printf("critical path: median %.3f s, lower bound %lld ns\n", median(seconds), static_cast<long long>(bound));
}

// A sweep of 8 configurations on 1 and on 2 threads (the session's grid runner, critical paths included).
void bench_sweep(const rr::session::LoadedTrace& trace, const BenchOptions& o) {
  std::vector<rr::session::GridJob> grid;
  for (const char* speed : {"1", "2"})
    for (const char* lat : {"1000", "10000"})
      for (const char* frees : {"true", "false"})
        grid.push_back({&trace,
                        {o.machine,
                         {std::string("processors.cpu.speed=") + speed, std::string("network.latency_ns=") + lat,
                          std::string("runtime.wait_frees_processor=") + frees}},
                        "",
                        {}});
  auto sweep = [&](unsigned threads, std::vector<std::int64_t>& out) {
    out.clear();
    auto runs = rr::session::run_grid(grid, threads);
    if (runs)
      for (const auto& s : *runs) out.push_back(s.estimated_ns);
  };
  std::vector<double> one, two;
  std::vector<std::int64_t> r1, r2;
  for (int r = 0; r < o.repeat; ++r) {
    auto t = Clock::now();
    sweep(1, r1);
    one.push_back(seconds_since(t));
    t = Clock::now();
    sweep(2, r2);
    two.push_back(seconds_since(t));
  }
  std::printf("sweep of %zu configurations: 1 thread %.3f s, 2 threads %.3f s, speed-up %.2fx, identical results: %s\n",
              grid.size(), median(one), median(two), median(one) / median(two), r1 == r2 ? "yes" : "NO");
}

// Context profile: trie built once against string building per operation.
void bench_context_profile(const rr::graph::EventGraph& graph, const rr::replay::ReplayResult& result, int repeat) {
  std::vector<double> trie_t, naive_t;
  std::string folded;
  for (int r = 0; r < repeat; ++r) {
    auto t = Clock::now();
    auto trie = rr::replay::ContextTrie::build(graph, result, nullptr);
    folded = trie.folded(false);
    trie_t.push_back(seconds_since(t));
    t = Clock::now();
    auto sums = naive_profile(graph, result);
    naive_t.push_back(seconds_since(t));
    if (sums.empty() && !folded.empty()) std::printf("unexpected: empty naive profile\n");
  }
  std::printf("context profile: trie %.4f s, naive strings %.4f s, ratio %.1fx\n", median(trie_t), median(naive_t),
              median(naive_t) / median(trie_t));
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<BenchOptions> o = parse_options(argc, argv);
  if (!o) {
    std::fprintf(stderr, "usage: bench_replay --machine FILE [--repeat R] [--replay-only] [--interleave] [--start-order] [--lower-bound-order] [--random-order] [--blocks N[,N...]] [--block-threads T] TRACE...\n");
    return 2;
  }
  auto trace = rr::session::load_trace(o->inputs, {});
  if (!trace) {
    std::fprintf(stderr, "%s\n", trace.error().to_string().c_str());
    return 1;
  }
  const rr::graph::EventGraph& graph = trace->graph();

  // 1. Replay throughput, one thread (the processor mapping included, the critical path not).
  std::vector<double> times;
  std::optional<rr::session::ReplayRun> last;  // its machine and mapping serve the engine-alone timing below
  rr::session::ReplaySettings settings;
  settings.critical_path = false;
  for (int r = 0; r < o->repeat; ++r) {
    auto t = Clock::now();
    auto run = rr::session::replay_trace(*trace, {o->machine, {}}, settings);
    times.push_back(seconds_since(t));
    if (!run) {
      std::fprintf(stderr, "%s\n", run.error().to_string().c_str());
      return 1;
    }
    last = std::move(*run);
  }
  const rr::replay::ReplayResult& result = last->result;
  const double replay_s = median(times);
  std::printf("replay: %u operations (%llu completed, %llu stuck), median %.3f s, %.0f operations/s\n",
              graph.vertex_count(), static_cast<unsigned long long>(result.operations),
              static_cast<unsigned long long>(result.stuck), replay_s, graph.vertex_count() / replay_s);
  if (!bench_engine(graph, *last, settings.engine, *o)) return 1;
  bench_critical_path(graph, *last, o->repeat);
  if (!o->replay_only) {
    bench_sweep(*trace, *o);  // 2.
    bench_context_profile(graph, result, o->repeat);  // 3.
  }
  print_peak();
  return 0;
}
