// End-to-end reading benchmark: read_trace on real files with N threads, median of R runs, throughput and
// peak resident memory per record (VmHWM minus the resident size before reading) of the first run: later
// runs in the same process start on heap that earlier ones left, which a realm-replay invocation never does. With --graph
// it also builds the event graph as the CLI does, freeing the records as they are resolved (--keep-records:
// keep them, as a library caller holding a const trace does).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "graph/graph_builder.hpp"
#include "parser/trace_reader.hpp"
#include "proc_status.hpp"

int main(int argc, char** argv) {
  unsigned threads = 1;
  int repeat = 3;
  bool graph = false;
  bool keep_records = false;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--threads" && i + 1 < argc) threads = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--repeat" && i + 1 < argc) repeat = std::stoi(argv[++i]);
    else if (a == "--graph") graph = true;
    else if (a == "--keep-records") keep_records = true;
    else inputs.push_back(a);
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "usage: bench_read_trace [--threads N] [--repeat R] [--graph [--keep-records]] TRACE...\n");
    return 2;
  }
  const std::uint64_t baseline_kib = rr::bench::status_kib("VmRSS:");
  std::vector<double> parse_seconds, graph_seconds;
  std::uint64_t records = 0, text = 0, peak_kib = 0;
  for (int r = 0; r < repeat; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    auto trace = rr::parser::read_trace(inputs, {}, threads);
    auto t1 = std::chrono::steady_clock::now();
    if (!trace) {
      std::fprintf(stderr, "%s\n", trace.error().to_string().c_str());
      return 1;
    }
    parse_seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
    records = trace->record_count();
    text = 0;
    for (const auto& f : trace->files) text += f.stats.text_bytes;
    if (graph) {
      auto g0 = std::chrono::steady_clock::now();
      auto built = keep_records ? rr::graph::build_event_graph(*trace, {}, threads)
                                : rr::graph::build_event_graph_releasing(*trace, {}, threads);
      graph_seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - g0).count());
      if (r == 0) peak_kib = rr::bench::status_kib("VmHWM:");
      std::printf("graph: %u operations, %llu edges\n", built.graph.vertex_count(),
                  static_cast<unsigned long long>(built.graph.edge_count()));
    } else {
      if (r == 0) peak_kib = rr::bench::status_kib("VmHWM:");
    }
  }
  std::sort(parse_seconds.begin(), parse_seconds.end());
  const double median = parse_seconds[parse_seconds.size() / 2];
  const double per_record = static_cast<double>((peak_kib - baseline_kib) * 1024) / static_cast<double>(records);
  std::printf("{\"threads\": %u, \"runs\": %d, \"text_bytes\": %llu, \"records\": %llu, \"median_s\": %.3f, "
              "\"MB_per_s\": %.1f, \"records_per_s\": %.0f, \"peak_rss_MiB\": %.1f, \"bytes_per_record\": %.1f",
              threads, repeat, static_cast<unsigned long long>(text), static_cast<unsigned long long>(records), median,
              static_cast<double>(text) / 1e6 / median, static_cast<double>(records) / median,
              static_cast<double>(peak_kib) / 1024.0, per_record);
  if (graph) {
    std::sort(graph_seconds.begin(), graph_seconds.end());
    const double g = graph_seconds[graph_seconds.size() / 2];
    std::printf(", \"graph_median_s\": %.3f, \"graph_records_per_s\": %.0f", g, static_cast<double>(records) / g);
  }
  std::printf("}\n");
  return 0;
}
