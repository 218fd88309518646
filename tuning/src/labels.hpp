// The words the search uses to say what it may change and what each step changed: kinds, factors and functions,
// in one place for the search space and the neighbours.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/kinds.hpp"
#include "graph/event_graph.hpp"

namespace rr::tuning::labels {

inline std::size_t slot(core::ProcessorKind k) { return static_cast<std::size_t>(k); }
inline std::string kind_name(core::ProcessorKind k) { return std::string(core::processor_kind_name(k)); }

// A factor or count as the shortest text that reads back the same ("0.0153", "2").
inline std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// "function 18 (gradient_species)", or "function 18" when the trace names it no better than its number.
inline std::string function_label(const graph::EventGraph& g, std::uint32_t f) {
  const std::string name = g.function_name(f);
  return name == graph::unnamed_function_label(f) ? "function " + std::to_string(f)
                                                  : "function " + std::to_string(f) + " (" + name + ")";
}

}  // namespace rr::tuning::labels
