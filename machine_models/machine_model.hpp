// A machine description: processors, memories, copy channels and paths, network and runtime costs; it prices
// operations (task busy time, transfer time) and never sees the event graph.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "core/kinds.hpp"
#include "machine_models/mapping.hpp"

namespace rr::machine {

using TimeNs = std::int64_t;

// Where an operation issued by a task happens inside the task (docs/replay.md, Replay rules: Issue).
enum class IssuePoint : std::uint8_t { interpolate, start, end };
const char* issue_point_name(IssuePoint p);

// The section of a machine file that sets a kind of processor (processors.gpu, .cpu, .utility), indexed like
// MachineModel::processors; the other kinds (the program's own thread) come with the trace.
inline constexpr const char* kProcessorSections[3] = {"gpu", "cpu", "utility"};

// The name of a memory kind in machine files ("system", "zero_copy", "global", ...), and back.
std::string_view memory_kind_key(core::MemoryKind kind);
std::optional<core::MemoryKind> memory_kind_from_key(std::string_view key);

struct ProcessorClass {
  std::uint32_t count = 0;  // per node, unless per_node gives the node's own count
  std::vector<std::uint32_t> per_node;  // optional: the count of model node n is per_node[n] (nodes beyond: count)
  double speed = 1.0;       // relative to the traced machine: busy time is divided by it
  std::map<std::uint32_t, double> function_speed;  // optional extra factor per task function id
  // Every task segment (a task's start, or its resumption after a wait) holds its processor this long before
  // its own work: the runtime's work around each task on the processor (Legion's task preamble and
  // postamble, Realm's scheduling), which no record times. Legion Prof logs show it as the gaps between a
  // task being ready and starting on a free processor; 0 elsewhere.
  TimeNs segment_overhead_ns = 0;

  std::uint32_t count_on(std::uint32_t node) const { return node < per_node.size() ? per_node[node] : count; }
};

// One kind of transfer resource, instantiated once per node (a PCIe link, a DMA engine, a NIC).
struct Channel {
  std::string name;
  TimeNs latency_ns = 0;
  double bytes_per_ns = 1.0;  // = GB/s
  std::uint32_t lanes = 1;    // transfers that may use one instance at once
  bool destination_side = false;  // the instance used is the destination node's (else the source node's)
};

// Which channels a copy between two memory kinds goes through, in order.
struct CopyPath {
  core::MemoryKind src = core::MemoryKind::system;
  core::MemoryKind dst = core::MemoryKind::system;
  bool remote = false;                 // source and destination on different nodes
  std::vector<std::uint32_t> hops;     // indices into MachineModel::channels
};

struct RuntimeCosts {
  TimeNs task_launch_ns = 0;          // added to every task's busy time
  TimeNs trigger_local_ns = 0;        // an event seen on its own node
  TimeNs trigger_remote_ns = 0;       // extra for an event seen on another node (on top of network latency)
  TimeNs merge_ns = 0;                // a merge fires this long after its last input
  TimeNs barrier_arrival_ns = 0;      // an arrival takes effect this long after it is made
  // A CPU or utility processor's first task starts after its processor's start-up, which freezes its node for this
  // long; the processors of a node start up one after another, as the Legion Prof logs show (docs/replay.md,
  // "Processor start-up").
  TimeNs processor_start_ns = 0;
  // The lengths of a node's first start-ups, in the order they come; the later ones take processor_start_ns. The
  // traced machine lists the start-ups its log measured, so that each keeps its own length where the run had it.
  std::vector<TimeNs> processor_starts_ns;

  // Whether processors start up at all.
  bool starts_up() const {
    return processor_start_ns > 0 || std::any_of(processor_starts_ns.begin(), processor_starts_ns.end(),
                                                 [](TimeNs t) { return t > 0; });
  }
  // The length of a node's k-th start-up (from 0).
  TimeNs start_up_ns(std::size_t k) const {
    return k < processor_starts_ns.size() ? processor_starts_ns[k] : processor_start_ns;
  }
};

// What one model node (one process, a Realm address space) has besides its processors.
struct NodeResources {
  // The cores its threads share (`[node] cores`). The segments of CPU and utility processors and background work
  // are threads; when more of them run than there are cores, they share the cores equally (processor sharing), so
  // each runs at cores / running of its own speed (docs/replay.md, "Cores"). 0: every thread has a core of its own.
  std::uint32_t cores = 0;
};

struct MachineModel {
  std::string name;
  std::string description;
  std::string source;  // the file it was read from
  // Indexed by core::ProcessorKind (gpu, cpu, utility, external). Machine files give the first three; the program's
  // own thread (external) comes with the trace, one per traced process (replay::MachineMap), and always keeps the
  // defaults: speed 1, no overhead.
  std::array<ProcessorClass, core::kModelKindCount> processors;
  NodeResources node;
  std::vector<Channel> channels;
  std::vector<CopyPath> paths;
  TimeNs network_latency_ns = 0;  // one way, node to node, for events seen on another node
  RuntimeCosts runtime;
  bool wait_frees_processor = true;  // may a processor run other tasks while one waits?
  IssuePoint issue_point = IssuePoint::interpolate;
  std::uint64_t default_copy_bytes = 0;  // for copies with no Copy Size
  // The placement replays use unless told otherwise (`[runtime] placement`): the traced machine and a
  // generator's truth machine say "traced", as they reproduce the traced run; unset: pool.
  std::optional<Placement> default_placement;

  const ProcessorClass& processor(core::ProcessorKind k) const { return processors[static_cast<std::size_t>(k)]; }
  // Busy time on this machine of work that took `traced_ns` on the traced one.
  TimeNs scale_busy(core::ProcessorKind kind, std::uint32_t func_id, TimeNs traced_ns) const;
  // The channels a copy takes, or nullptr when the model has no path for it.
  const CopyPath* path(core::MemoryKind src, core::MemoryKind dst, bool remote) const;
  // Time one transfer of `bytes` occupies a lane of `channel`, latency included.
  TimeNs transfer_ns(const Channel& channel, std::uint64_t bytes) const;
};

// The machine with a mapping's processor counts (MappingSpec::processors) laid over its own: each kind given has
// that many processors on every model node.
void apply_processor_counts(MachineModel& model, const ProcessorCounts& counts);

}  // namespace rr::machine
