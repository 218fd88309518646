// libFuzzer target: the whole pipeline. Arbitrary bytes are a small multi-file trace (files separated by a form
// feed, file i read as node_i.log through the real stream reader), built into the event graph, replayed on its
// traced machine and walked for the critical path. Every stage must end in a result or an InputError: never a
// crash, a hang (libFuzzer's -timeout is the per-input budget) or another exception. The graph must pass the
// structure check a packed trace's graph must pass (EventGraph::structure_problem). A replay must keep its
// contract: operations end after they start and inside the makespan, and the critical path tiles it exactly.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "parser/byte_source.hpp"
#include "parser/line_parser.hpp"
#include "parser/trace_reader.hpp"
#include "session/session.hpp"
#include "support/critical_path_tiling.hpp"
#include "support/prof_log_builder.hpp"

namespace {

constexpr std::size_t kMaxFiles = 4;
constexpr std::uint32_t kMaxFuzzedNodes = 64;

bool replay_holds(const rr::session::ReplayRun& run) {
  const auto& r = run.result;
  for (std::size_t v = 0; v < r.ops.size(); ++v) {
    if (r.end(v) == rr::replay::kNever) continue;
    if (r.start(v) != rr::replay::kNever && r.start(v) > r.end(v)) return false;
    if (r.counts(static_cast<rr::graph::VertexId>(v)) && r.end(v) > r.makespan_ns) return false;
  }
  return !run.critical || rr::testing::tiling_problem(*run.critical, r.makespan_ns).empty();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  rr::core::TraceRecords records;
  rr::parser::ReadOptions options;
  options.chunk_bytes = rr::parser::kMaxLineBytes;  // the smallest chunk: inputs are a few KB
  try {
    for (std::size_t i = 0; i < kMaxFiles && !input.empty(); ++i) {
      const auto ff = i + 1 == kMaxFiles ? std::string_view::npos : input.find('\f');
      const std::string text(input.substr(0, ff));
      input = ff == std::string_view::npos ? std::string_view{} : input.substr(ff + 1);
      records.files.push_back(rr::parser::read_log_stream(std::make_unique<rr::testing::MemorySource>(text),
                                                          "node_" + std::to_string(i) + ".log", options));
    }
  } catch (const rr::parser::SourceError&) {
    return 0;  // a refused file is a correct outcome
  }
  rr::parser::summarise_trace(records);
  rr::session::ReadingOptions reading;
  reading.threads = 1;
  auto trace = rr::session::load_records(std::move(records), "fuzz", reading);
  if (!trace.ok()) return 0;
  // What a packed trace's reader demands of a graph, the builder gives whatever the logs hold.
  if (!trace->graph().structure_problem().empty()) std::abort();
  // A node id far beyond the files given (one 16-bit node field) makes a model of up to 65,536 nodes: right, but
  // milliseconds of allocation per input. tests/hostile covers that size; the fuzzer spends its time on graphs.
  if (trace->nodes > kMaxFuzzedNodes) return 0;
  auto run = rr::session::replay_trace(*trace, {"traced", {}}, {});
  if (!run.ok()) return 0;
  // A graph with a cycle replays what it can; the walk is only defined on an acyclic graph.
  if (trace->built.findings.cycle.empty() && !replay_holds(*run)) std::abort();
  return 0;
}
