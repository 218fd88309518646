// The graph built in parts (graph/graph_part.hpp) over MPI ranks, each a process of its own: each rank reads its
// nodes' files, builds its part and prints its own peak memory, so that a rank's peak is measured alone
// (docs/scale.md, "The graph built in parts"). Not run by ctest. With --step-peaks each rank also prints the peak of
// its reading and of each step of the build, and what it holds when each ends: the kernel's peak is reset between
// steps (Linux: 5 written to /proc/self/clear_refs).
//   mpirun -np RANKS bench_graph_part_mpi [--step-peaks] TRACE_DIR
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

#include "mpi_network.hpp"
#include "part_bench.hpp"
#include "replay/part_exchange.hpp"

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  rr::app::MpiNetwork net;
  const bool step_peaks = argc == 3 && std::string(argv[1]) == "--step-peaks";
  if (argc != 2 && !step_peaks) {
    if (net.rank() == 0) std::fprintf(stderr, "usage: mpirun -np RANKS bench_graph_part_mpi [--step-peaks] TRACE_DIR\n");
    MPI_Finalize();
    return 2;
  }
  // A step's peak and what is held when it ends; the peak then starts again from what is held.
  std::uint64_t steps_peak = 0;  // the largest of the steps' peaks
  const auto step_ended = [&](const char* step) {
    steps_peak = std::max(steps_peak, rr::bench::status_kib("VmHWM:"));
    std::printf("rank %u: %-10s peak %llu KiB, holds %llu KiB\n", net.rank(), step,
                static_cast<unsigned long long>(rr::bench::status_kib("VmHWM:")),
                static_cast<unsigned long long>(rr::bench::status_kib("VmRSS:")));
    std::ofstream("/proc/self/clear_refs") << "5";
  };
  const auto start = std::chrono::steady_clock::now();
  const auto trace = rr::bench::trace_files(argv[argc - 1], net.ranks());
  if (!trace) MPI_Abort(MPI_COMM_WORLD, 1);
  rr::bench::RankInput in;
  rr::bench::read_rank(*trace, net.rank(), in);
  const std::uint64_t records = in.records ? in.records->record_count() : 0;
  const double read_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::uint64_t read_peak = rr::bench::status_kib("VmHWM:");
  if (step_peaks) step_ended("reading");
  rr::replay::NetworkRankExchange exchange(net);
  try {
    const rr::graph::GraphPart part = rr::graph::build_graph_part(in.files, trace->ranks, exchange, {},
                                                                step_peaks ? step_ended : std::function<void(const char*)>());
    const double all_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rr::bench::print_part(net.rank(), records, part);
    std::printf("rank %u: read %.2f s (peak %llu KiB), read and built %.2f s, peak %llu KiB\n", net.rank(), read_s,
                static_cast<unsigned long long>(read_peak), all_s,
                static_cast<unsigned long long>(std::max(steps_peak, rr::bench::status_kib("VmHWM:"))));
  } catch (const std::exception& e) {
    std::printf("rank %u: %s\n", net.rank(), e.what());
    std::fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  std::fflush(stdout);
  net.part_done();  // every rank but 0 ends here, once what it sent has gone
  MPI_Finalize();
  return 0;
}
