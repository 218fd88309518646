// The graph built in parts (graph/graph_part.hpp) on a trace folder, with its ranks as threads of this process: per
// rank, its files, its part and what crossed ranks, and the process's peak memory (all ranks' together); with
// --whole, the whole build instead, for comparison. bench_graph_part_mpi measures each rank alone, over MPI. Not run
// by ctest (docs/scale.md, "The graph built in parts").
//   bench_graph_part TRACE_DIR RANKS     |     bench_graph_part TRACE_DIR --whole
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "graph/graph_builder.hpp"
#include "part_bench.hpp"
#include "replay/part_exchange.hpp"
#include "support/in_process_network.hpp"

namespace {

using namespace rr;

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

int whole(const std::string& dir) {
  const auto start = std::chrono::steady_clock::now();
  auto trace = parser::read_trace({dir}, {});
  if (!trace) {
    std::fprintf(stderr, "%s\n", trace.error().to_string().c_str());
    return 1;
  }
  core::drop_repeated_machine_records(*trace);  // as every command does after reading
  const graph::BuildResult built = graph::build_event_graph_releasing(*trace);
  std::printf("whole: %u vertices, %llu edges, %.2f s, peak %llu KiB\n", built.graph.vertex_count(),
              static_cast<unsigned long long>(built.graph.edge_count()), seconds_since(start),
              static_cast<unsigned long long>(bench::status_kib("VmHWM:")));
  return 0;
}

int parts(const std::string& dir, std::uint32_t ranks) {
  const std::optional<bench::TraceFiles> trace = bench::trace_files(dir, ranks);
  if (!trace) return 1;
  testing::InProcessNetwork network(ranks, 1, false);
  std::vector<std::optional<graph::GraphPart>> built(ranks);
  std::vector<std::uint64_t> records_read(ranks, 0);
  std::vector<std::string> errors(ranks);
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (std::uint32_t r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      bench::RankInput in;
      bench::read_rank(*trace, r, in);
      if (in.records) records_read[r] = in.records->record_count();
      replay::NetworkRankExchange exchange(network.rank(r));
      try {
        built[r] = graph::build_graph_part(in.files, trace->ranks, exchange);
      } catch (const std::exception& e) {
        errors[r] = e.what();
      }
    });
  for (std::thread& t : threads) t.join();
  std::printf("%u ranks: %.2f s, process peak %llu KiB\n", ranks, seconds_since(start),
              static_cast<unsigned long long>(bench::status_kib("VmHWM:")));
  for (std::uint32_t r = 0; r < ranks; ++r) {
    if (built[r])
      bench::print_part(r, records_read[r], *built[r]);
    else
      std::printf("rank %u: %s\n", r, errors[r].c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: bench_graph_part TRACE_DIR RANKS | bench_graph_part TRACE_DIR --whole\n");
    return 2;
  }
  if (std::string(argv[2]) == "--whole") return whole(argv[1]);
  const int ranks = std::atoi(argv[2]);
  if (ranks < 1 || ranks > 64) {
    std::fprintf(stderr, "RANKS: 1 to 64\n");
    return 2;
  }
  return parts(argv[1], static_cast<std::uint32_t>(ranks));
}
