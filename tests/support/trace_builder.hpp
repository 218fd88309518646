// Test helper: builds TraceRecords from log lines per node, through the real line parser.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/trace_records.hpp"
#include "parser/line_parser.hpp"
#include "parser/trace_reader.hpp"

namespace rr::testing {

struct NodeLog {
  int node;
  std::vector<std::string> lines;  // without the logger prefix; it is added with a fixed thread
};

inline core::TraceRecords make_trace(const std::vector<NodeLog>& logs) {
  core::TraceRecords trace;
  for (const auto& log : logs) {
    core::FileRecords file;
    file.path = "node_" + std::to_string(log.node) + ".log";
    core::RecordBatch batch;
    parser::LineParser parser(batch, file.stats, 10);
    std::uint32_t line = 0;
    for (const auto& text : log.lines) {
      // Task Time, Task Wait and Copy Size are debug-level records ({1}), the rest info ({2}).
      const bool debug = text.starts_with("Task Time") || text.starts_with("Task Wait") || text.starts_with("Copy Size");
      std::string prefixed = "[" + std::to_string(log.node) + " - 7f00000000" + std::to_string(log.node) + "] {" +
                             (debug ? "1" : "2") + "}{graph}: " + text;
      parser.parse_line(prefixed, line++);
    }
    file.node = log.node;
    file.batches.push_back(std::move(batch));
    trace.files.push_back(std::move(file));
  }
  parser::summarise_trace(trace);
  return trace;
}

}  // namespace rr::testing
