// `realm-replay graph TRACE --dot|--json`: dump the event graph, or one node's or one slice's part of it.
#include <iostream>
#include <optional>
#include <set>

#include "commands.hpp"
#include "graph/graph_export.hpp"
#include "output_file.hpp"
#include "trace_inputs.hpp"
#include "messages.hpp"

namespace rr::app {

namespace {

// Empty when some operation runs on `node`, else a message naming the nodes the graph has: asking for a node
// the trace does not have would otherwise print an empty graph and succeed.
std::string node_without_operations(const graph::EventGraph& g, std::uint32_t node) {
  std::set<std::uint32_t> nodes;
  for (graph::VertexId v = 0; v < g.vertex_count(); ++v) nodes.insert(g.node(v));
  if (nodes.count(node)) return {};
  std::string have;
  if (nodes.size() <= 8) {
    for (std::uint32_t n : nodes) have += (have.empty() ? "" : ", ") + std::to_string(n);
  } else {
    have = std::to_string(nodes.size()) + " nodes from " + std::to_string(*nodes.begin()) + " to " +
           std::to_string(*nodes.rbegin());
  }
  return "--node " + std::to_string(node) + ": no operation runs on that node (the trace's operations are on " +
         (have.empty() ? "no node" : have) + ")";
}

}  // namespace

std::function<int()> add_graph_command(CLI::App& app, CommonOptions& common) {
  struct Options {
    std::vector<std::string> inputs;
    bool dot = false;
    bool json = false;
    bool force = false;
    std::optional<std::uint32_t> node;
    std::string slice;
    std::uint64_t limit = 5000;
    std::string output;
    ReadingFlags reading;
  };
  auto opts = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("graph", "Dump the global event graph as Graphviz DOT or JSON.");
  cmd->add_option("trace", opts->inputs, "trace: folder, log files, globs or tar archives")->required();
  auto* dot = cmd->add_flag("--dot", opts->dot, "Graphviz DOT");
  cmd->add_flag("--json", opts->json, "JSON (schema realm-replay/graph)")->excludes(dot);
  cmd->add_option("--node", opts->node, "only operations on this node");
  cmd->add_option("--slice", opts->slice, "only positions BEGIN:END of the topological order (a window of the run)");
  cmd->add_option("--limit", opts->limit, "refuse to dump more operations than this without --force")
      ->capture_default_str();
  cmd->add_flag("--force", opts->force, "dump however large the selection is");
  cmd->add_option("-o,--output", opts->output, "write to this file (whole or not at all)");
  add_reading_options(cmd, opts->reading, common);

  return [opts, &common]() -> int {
    if (!opts->dot && !opts->json) {
      print_error("graph", "choose --dot or --json");
      return kExitUsage;
    }
    graph::Selection selection;
    selection.node = opts->node;
    if (!opts->slice.empty()) {
      auto colon = opts->slice.find(':');
      try {
        if (colon == std::string::npos) throw std::invalid_argument("no colon");
        if (colon > 0) selection.slice_begin = std::stoull(opts->slice.substr(0, colon));
        if (colon + 1 < opts->slice.size()) selection.slice_end = std::stoull(opts->slice.substr(colon + 1));
      } catch (const std::exception&) {
        print_error("graph", "--slice takes BEGIN:END (either may be empty), not '" + opts->slice + "'");
        return kExitUsage;
      }
    }
    auto trace = open_trace("graph", opts->inputs, common, opts->reading);
    if (!trace) return kExitBadInput;
    const graph::EventGraph& g = trace->graph();
    if (opts->node)
      if (auto problem = node_without_operations(g, *opts->node); !problem.empty()) {
        print_error("graph", problem);
        return kExitUsage;
      }
    auto vertices = graph::select_vertices(g, selection);
    if (vertices.size() > opts->limit && !opts->force) {
      print_error("graph", std::to_string(vertices.size()) + " operations selected, more than --limit " +
                               std::to_string(opts->limit) + "; narrow it with --node or --slice, or pass --force");
      return kExitUsage;
    }
    std::string text = opts->dot ? graph::to_dot(g, vertices) : graph::to_json(g, vertices);
    if (!emit_report("graph", opts->output, text)) return kExitBadInput;
    return kExitOk;
  };
}

}  // namespace rr::app
