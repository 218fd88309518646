// A generated program: processors and operations (tasks, copies, merges) with their dependences, the
// machine its ground truth is scheduled on, and that truth. Independent of the replay library.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace rr::gen {

inline constexpr std::uint32_t kNoOp = 0xffffffffu;

// Realm Processor::Kind as printed: TOC_PROC 0 (GPU), LOC_PROC 1 (CPU), UTIL_PROC 2 (utility).
enum class GenProcKind : std::uint8_t { gpu = 0, cpu = 1, utility = 2 };

struct GenProcessor {
  std::uint32_t node = 0;
  std::uint32_t index = 0;  // among the node's processors (its Realm processor index)
  GenProcKind kind = GenProcKind::cpu;
};

// task, copy and merge are operations with a duration or a cost; trigger (a user event), arrive and alter
// (barrier records) are issued by tasks; a phase is a barrier generation, logged by nobody (its event is the
// barrier's (id, gen)), which fires when its arrivals are in and the phase before it has fired.
enum class GenKind : std::uint8_t { task, copy, merge, trigger, arrive, alter, phase };
inline constexpr const char* kGenKindNames[] = {"task", "copy", "merge", "trigger", "arrive", "alter", "phase"};

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
  // ops it waits for: one at most for a task, copy, trigger or arrive (its precondition); any for a merge; for a
  // phase, its arrivals and then the phase before it (if any)
  std::vector<std::uint32_t> inputs;
  std::uint32_t issuer = kNoOp;  // the task that issues it (its enclosing task), logged on the issuer's node
  std::uint32_t barrier = 0;     // arrive, alter, phase: index into Program::barriers
  std::uint32_t generation = 0;  // arrive, alter, phase: the phase's generation
  std::int32_t amount = 1;       // arrive: its count; alter: its delta
};

// A barrier: created by (and owned by) `node`, expecting `arrivals` per phase before alters.
struct GenBarrier {
  std::uint32_t node = 0;
  std::uint32_t arrivals = 0;
};

// A Task Wait: `task` blocks on `awaited` between the actions it issues before op `before_op` and the rest.
struct GenWait {
  std::uint32_t task = 0;
  std::uint32_t awaited = 0;
  std::uint32_t before_op = 0;
};

struct Program {
  std::string generator;  // "chain", "fork-join", "random-dag"
  std::uint64_t seed = 0;
  std::uint32_t nodes = 1;
  std::uint32_t cpus_per_node = 1;
  std::uint32_t gpus_per_node = 0;
  std::uint32_t utility_per_node = 0;
  std::uint32_t drivers_per_node = 0;  // CPUs kept for long-lived top-level tasks
  // The generator's own parameters, written to truth.json after the common ones: {"mechanism", "dme"}, {"steps", 2}.
  std::vector<std::pair<std::string, std::variant<std::int64_t, std::string>>> parameters;
  // What each task function stands for, written as names.toml beside the logs (which give only ids); empty:
  // no names file.
  std::map<std::uint32_t, std::string> function_names;
  std::vector<GenProcessor> processors;
  std::vector<GenOp> ops;  // inputs and issuers name earlier ops, except a task's wait (a DAG in this order)
  std::vector<GenBarrier> barriers;
  std::vector<GenWait> waits;  // by task, in program order
  // A deliberate cycle, for validation tests: op `cycle_from` also waits on the later op `cycle_to`.
  // Such a program has no schedule; the truth marks what can never run.
  std::uint32_t cycle_from = kNoOp;
  std::uint32_t cycle_to = kNoOp;
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
  std::vector<std::int64_t> start;  // per op; -1 for an op that never runs (only in a program with a cycle)
  std::vector<std::int64_t> end;
  std::vector<std::int64_t> wait_us;  // per GenWait: how long it blocked, whole microseconds rounded up
  std::uint64_t never_ran = 0;
};

// List scheduling of the program under the rules of docs/generator.md ("What the truth assumes").
Truth schedule(const Program& program, const TruthMachine& machine);

}  // namespace rr::gen
