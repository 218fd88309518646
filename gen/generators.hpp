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
// Halo exchange over the nodes laid out in 1 or 3 dimensions: per step each node computes (a CPU task), then
// sends a halo copy to every neighbour; a copy waits on a phase barrier owned by the receiver, which the
// sender arrives at when its compute is done and the receiver when it has used the previous halo (an Alter
// lowers the first phase's count). A node's next compute waits on its own and on the halos it received.
Program make_stencil(std::uint32_t dims, std::uint32_t steps, const SmallOptions& options);
// Makes the program cyclic for validation tests: a task without inputs (the chain's first) also waits on a
// later operation that depends on it. Returns false when the program has no such pair.
bool inject_cycle(Program& program);

}  // namespace rr::gen
