// A generated program: processors and operations (tasks, copies, merges) with their dependences, the
// machine its ground truth is scheduled on, and that truth. Independent of the replay library.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rr::gen {

struct GenProcessor {
  std::uint32_t node = 0;
  std::uint32_t index = 0;  // among the node's processors (its Realm processor index)
  bool gpu = false;         // Realm TOC_PROC; else LOC_PROC (CPU)
};

enum class GenKind : std::uint8_t { task, copy, merge };

struct GenOp {
  GenKind kind = GenKind::task;
  std::uint32_t node = 0;       // where it runs (task), where it is requested (copy: the source node), merges
  std::uint32_t processor = 0;  // task: index into Program::processors
  std::uint32_t func = 5;
  std::int32_t priority = 0;
  std::int64_t busy_us = 0;     // task: its run time
  std::uint64_t bytes = 0;      // copy: from memory `src_memory` of `node` to `dst_memory` of `dst_node`
  std::uint32_t dst_node = 0;
  std::uint8_t src_memory = 1;  // Realm Memory::Kind: 1 system, 4 zero-copy, 5 GPU framebuffer
  std::uint8_t dst_memory = 1;
  std::vector<std::uint32_t> inputs;  // ops it waits for: one at most for a task or a copy, any for a merge
};

struct Program {
  std::string generator;  // "chain", "fork-join", "random-dag"
  std::uint64_t seed = 0;
  std::uint32_t nodes = 1;
  std::uint32_t cpus_per_node = 1;
  std::uint32_t gpus_per_node = 0;
  std::string description;  // extra parameters for truth.json, as JSON members ("\"mechanism\": \"dme\", ...")
  std::vector<GenProcessor> processors;
  std::vector<GenOp> ops;  // inputs always name earlier ops: the program is a DAG in this order
};

// The machine the truth is scheduled on; write_machine_toml() describes the same one for the replay.
struct TruthMachine {
  std::int64_t network_latency_ns = 2000;
  std::int64_t trigger_local_ns = 500;
  std::int64_t trigger_remote_ns = 1000;
  std::int64_t merge_ns = 300;
  std::int64_t memcpy_latency_ns = 1000;
  std::int64_t nic_latency_ns = 1500;
  std::uint32_t lanes = 1;
  // Bandwidth is 1 GB/s (1 byte/ns) on both channels, so transfer times are exact integers.
};

struct Truth {
  std::int64_t makespan_ns = 0;
  std::vector<std::int64_t> start;  // per op
  std::vector<std::int64_t> end;
};

// List scheduling of the program (DESIGN §3 rules restricted to what the generated programs use): an op is
// ready when its inputs have fired and been seen (network latency and trigger costs across nodes, the local
// trigger cost on one node); a CPU runs one task at a time, highest priority, then earliest ready, then
// lowest id, choosing only once everything of an instant has happened; a copy holds one lane of its source
// node's channel (memcpy on one node, NIC across nodes) for latency + bytes; a merge fires merge_ns after
// its last input is seen.
Truth schedule(const Program& program, const TruthMachine& machine);

}  // namespace rr::gen
