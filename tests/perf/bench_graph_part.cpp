// The graph built in parts (graph/graph_part.hpp) on a trace folder, with its ranks as threads of this process: per
// rank, its files, its part and what crossed ranks, and the process's peak memory; with --whole, the whole build
// instead, for comparison. Not run by ctest (docs/scale.md, "The graph built in parts").
//   bench_graph_part TRACE_DIR RANKS     |     bench_graph_part TRACE_DIR --whole
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "graph/graph_builder.hpp"
#include "graph/graph_part.hpp"
#include "parser/trace_inputs.hpp"
#include "parser/trace_reader.hpp"
#include "proc_status.hpp"
#include "replay/part_exchange.hpp"
#include "support/in_process_network.hpp"

namespace {

using namespace rr;

template <class T>
std::uint64_t bytes_of(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

std::uint64_t part_bytes(const graph::GraphPart& p) {
  return bytes_of(p.ids) + bytes_of(p.kind) + bytes_of(p.node) + bytes_of(p.event) + bytes_of(p.issuer) +
         bytes_of(p.position) + bytes_of(p.payload) + bytes_of(p.local_payload) + bytes_of(p.tasks) +
         bytes_of(p.copies) + bytes_of(p.phases) + bytes_of(p.barrier_values) + bytes_of(p.waits) +
         bytes_of(p.edge_offset) + bytes_of(p.successors) + bytes_of(p.successor_kinds);
}

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
  auto inputs = parser::discover_inputs({dir});
  if (!inputs) {
    std::fprintf(stderr, "%s\n", inputs.error().to_string().c_str());
    return 1;
  }
  std::vector<int> node_of(inputs->size(), -1);
  int last = 0;
  for (std::size_t f = 0; f < inputs->size(); ++f) {
    parser::is_node_log_name(std::filesystem::path((*inputs)[f].path).filename().string(), &node_of[f]);
    last = std::max(last, node_of[f]);
  }
  const graph::NodeRanks node_ranks{ranks, static_cast<std::uint32_t>(last) + 1};
  testing::InProcessNetwork network(ranks, 1, false);
  std::vector<std::optional<graph::GraphPart>> built(ranks);
  std::vector<std::uint64_t> records_read(ranks, 0);
  std::vector<std::string> errors(ranks);
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (std::uint32_t r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      graph::PartFiles files;
      std::vector<std::string> paths;
      for (std::uint32_t f = 0; f < inputs->size(); ++f)
        if (node_ranks.rank_of(node_of[f] < 0 ? graph::kNoNode : static_cast<std::uint32_t>(node_of[f])) == r) {
          paths.push_back((*inputs)[f].path);
          files.file_index.push_back(f);
        }
      files.total_files = static_cast<std::uint32_t>(inputs->size());
      std::optional<core::TraceRecords> records;
      if (!paths.empty()) {
        auto read = parser::read_trace(paths, {}, 1);
        if (read) {
          records = std::move(*read);
          core::drop_repeated_machine_records(*records);
        } else {
          files.read_error = read.error().to_string();
        }
      } else {
        records.emplace();
      }
      if (records) {
        files.records = &*records;
        files.releasable = &*records;
        records_read[r] = records->record_count();
      }
      replay::NetworkRankExchange exchange(network.rank(r));
      try {
        built[r] = graph::build_graph_part(files, node_ranks, exchange);
      } catch (const std::exception& e) {
        errors[r] = e.what();
      }
    });
  for (std::thread& t : threads) t.join();
  std::printf("%u ranks: %.2f s, process peak %llu KiB\n", ranks, seconds_since(start),
              static_cast<unsigned long long>(bench::status_kib("VmHWM:")));
  for (std::uint32_t r = 0; r < ranks; ++r) {
    if (!built[r]) {
      std::printf("rank %u: %s\n", r, errors[r].c_str());
      continue;
    }
    const graph::GraphPart& p = *built[r];
    std::printf("rank %u: %llu records read; %zu vertices, %zu edges, %llu bytes; from others: %llu vertices, %llu "
                "edges; sent %llu bytes; every rank lists %llu phases and %llu waiting tasks\n",
                r, static_cast<unsigned long long>(records_read[r]), p.size(), p.successors.size(),
                static_cast<unsigned long long>(part_bytes(p)),
                static_cast<unsigned long long>(p.traffic.vertices_from_others),
                static_cast<unsigned long long>(p.traffic.edges_from_others),
                static_cast<unsigned long long>(p.traffic.bytes_sent),
                static_cast<unsigned long long>(p.traffic.phases),
                static_cast<unsigned long long>(p.traffic.waiting_tasks));
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
