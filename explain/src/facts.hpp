// The facts a counterfactual replay swaps between two matched runs (docs/explain.md, Classes): tasks' busy times
// and copies' sizes, per class, and the graph that results.
#pragma once

#include <cstdint>
#include <vector>

#include "explain/matching.hpp"
#include "graph/event_graph.hpp"

namespace rr::explain {

inline constexpr std::uint8_t kNoClass = 0xff;

// A task's busy time (Task Time less its waits), a copy's size, or -1 (no time or size, or not compared).
std::int64_t fact_of(const graph::EventGraph& g, graph::VertexId v);

// One run taking facts from the other.
struct Swap {
  const graph::EventGraph& base;           // the graph replayed
  const MatchSide& side;                   // its side of the match
  const std::vector<std::uint8_t>& class_of;  // per vertex of base: its class (durations, copies) or kNoClass
  const graph::EventGraph& other;          // the run the facts come from
  std::uint32_t take = 0;                  // bit c: take class c's facts from `other`
  const std::vector<double>& ratio;        // per class: median of other/base over matched operations
};

// The base graph with the facts of the classes in `take` from the other run: a matched operation takes its match's
// busy time (and its waits' measured durations when it has as many) or size; an unmatched one keeps its own,
// times its class's ratio.
graph::EventGraph swap_facts(const Swap& s);

// Median over matched operations of class c of fact(to)/fact(from), per class (1 for a class without any).
std::vector<double> median_ratios(const graph::EventGraph& from, const MatchSide& side,
                                  const std::vector<std::uint8_t>& class_of, const graph::EventGraph& to,
                                  std::size_t classes);

}  // namespace rr::explain
