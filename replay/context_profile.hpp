// Where time goes per task-nesting context: a trie of enclosing task functions from the root, built once,
// aggregating busy time and critical-path time; folded-stack output for flame graphs, each frame a function
// as every output names it (EventGraph::function_name: escaped, so a frame never holds the ';' between frames).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/event_graph.hpp"
#include "replay/critical_path.hpp"
#include "replay/replay_result.hpp"

namespace rr::replay {

class ContextTrie {
 public:
  static constexpr std::uint32_t kRoot = 0;

  // Builds the trie over every task's chain of issuing tasks and charges each task segment's busy time,
  // and each critical-path step's time, to the context of the task it belongs to.
  static ContextTrie build(const graph::EventGraph& g, const ReplayResult& r, const CriticalPath* path);

  std::size_t size() const { return parent_.size(); }
  std::uint32_t parent(std::uint32_t node) const { return parent_[node]; }
  std::uint32_t func(std::uint32_t node) const { return func_[node]; }
  TimeNs busy(std::uint32_t node) const { return busy_[node]; }
  TimeNs critical(std::uint32_t node) const { return critical_[node]; }
  // The context of a task vertex (or of a task_resume: its task's).
  std::uint32_t context_of_task(graph::VertexId task) const { return context_of_task_[task]; }

  // "main;f17;calc_new_currents" for a node (empty for the root).
  std::string stack(std::uint32_t node) const;
  // One line per context with a non-zero value: "main;f17;calc_new_currents 1234" (microseconds, rounded),
  // sorted by stack so the output is stable. critical=true folds critical-path time instead of busy time.
  std::string folded(bool critical) const;

 private:
  std::vector<std::uint32_t> parent_;
  std::vector<std::uint32_t> func_;
  std::vector<std::string> frame_;  // the function as the graph names it ("calc_new_currents", "f17")
  std::vector<TimeNs> busy_;
  std::vector<TimeNs> critical_;
  std::vector<std::uint32_t> context_of_task_;  // by vertex; ~0u for non-tasks
};

// Differential folded stacks (flamegraph's difffolded format): "stack before after" for the union of both.
std::string folded_diff(const ContextTrie& before, const ContextTrie& after, bool critical);

}  // namespace rr::replay
