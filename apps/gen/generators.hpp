// Small program generators for tests and benchmarks: a chain, fork-join stages, a random DAG.
#pragma once

#include <cstdint>

#include "program.hpp"

namespace rr::gen {

struct SmallOptions {
  std::uint32_t nodes = 1;
  std::uint32_t cpus_per_node = 2;
  std::uint64_t seed = 1;
};

// `length` tasks, each waiting for the previous one; consecutive tasks alternate between nodes.
Program make_chain(std::uint32_t length, const SmallOptions& options);
// `stages` times: one task forks `width` tasks spread over the nodes, a merge joins them.
Program make_fork_join(std::uint32_t width, std::uint32_t stages, const SmallOptions& options);
// `ops` operations: about 65% tasks, 15% copies (local or remote), 20% merges of 2–6 earlier operations;
// inputs are drawn from earlier operations, so the program is a DAG.
Program make_random_dag(std::uint32_t ops, const SmallOptions& options);

}  // namespace rr::gen
