// What the benchmarks of the graph built in parts share (bench_graph_part on threads, bench_graph_part_mpi over MPI
// ranks): which files each rank reads, reading them as a rank does, and one line per rank of what it built.
#pragma once

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "graph/graph_part.hpp"
#include "parser/trace_inputs.hpp"
#include "parser/trace_reader.hpp"
#include "proc_status.hpp"

namespace rr::bench {

// The trace's inputs in the whole trace's order, each with the node its name gives (-1: none).
struct TraceFiles {
  std::vector<std::string> paths;
  std::vector<int> node_of;
  graph::NodeRanks ranks;
};

inline std::optional<TraceFiles> trace_files(const std::string& dir, std::uint32_t ranks) {
  auto inputs = parser::discover_inputs({dir});
  if (!inputs) {
    std::fprintf(stderr, "%s\n", inputs.error().to_string().c_str());
    return std::nullopt;
  }
  TraceFiles files;
  int last = 0;
  for (const parser::TraceInput& input : *inputs) {
    int node = -1;
    parser::is_node_log_name(std::filesystem::path(input.path).filename().string(), &node);
    files.paths.push_back(input.path);
    files.node_of.push_back(node);
    last = std::max(last, node);
  }
  files.ranks = {ranks, static_cast<std::uint32_t>(last) + 1};
  return files;
}

// One rank's files, read on one thread as a rank reads them, its repeated machine records dropped as every command
// drops them; the records may be freed by the build.
struct RankInput {
  std::optional<core::TraceRecords> records;
  graph::PartFiles files;
};

inline void read_rank(const TraceFiles& trace, std::uint32_t rank, RankInput& in) {
  std::vector<std::string> paths;
  for (std::uint32_t f = 0; f < trace.paths.size(); ++f)
    if (trace.ranks.rank_of(trace.node_of[f] < 0 ? graph::kNoNode : static_cast<std::uint32_t>(trace.node_of[f])) ==
        rank) {
      paths.push_back(trace.paths[f]);
      in.files.file_index.push_back(f);
    }
  in.files.total_files = static_cast<std::uint32_t>(trace.paths.size());
  if (paths.empty()) {
    in.records.emplace();
  } else if (auto read = parser::read_trace(paths, {}, 1)) {
    in.records = std::move(*read);
    core::drop_repeated_machine_records(*in.records);
  } else {
    in.files.read_error = read.error().to_string();
    return;
  }
  in.files.records = &*in.records;
  in.files.releasable = &*in.records;
}

template <class T>
std::uint64_t bytes_of(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

inline std::uint64_t part_bytes(const graph::GraphPart& p) {
  return bytes_of(p.ids) + bytes_of(p.kind) + bytes_of(p.node) + bytes_of(p.event) + bytes_of(p.issuer) +
         bytes_of(p.position) + bytes_of(p.payload) + bytes_of(p.local_payload) + bytes_of(p.tasks) +
         bytes_of(p.copies) + bytes_of(p.phases) + bytes_of(p.barrier_values) + bytes_of(p.waits) +
         bytes_of(p.edge_offset) + bytes_of(p.successors) + bytes_of(p.successor_kinds);
}

inline void print_part(std::uint32_t rank, std::uint64_t records, const graph::GraphPart& p) {
  std::printf("rank %u: %llu records read; %zu vertices, %zu edges, %llu bytes; from others: %llu vertices, %llu "
              "edges; sent %llu bytes; every rank lists %llu phases and %llu waiting tasks\n",
              rank, static_cast<unsigned long long>(records), p.size(), p.successors.size(),
              static_cast<unsigned long long>(part_bytes(p)),
              static_cast<unsigned long long>(p.traffic.vertices_from_others),
              static_cast<unsigned long long>(p.traffic.edges_from_others),
              static_cast<unsigned long long>(p.traffic.bytes_sent), static_cast<unsigned long long>(p.traffic.phases),
              static_cast<unsigned long long>(p.traffic.waiting_tasks));
}

}  // namespace rr::bench
