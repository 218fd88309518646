// The machine a trace was taken on, as far as the trace tells: processors of each kind on each node, the
// memories it logged, and its own durations (speed 1). Every other value is an assumption, marked as such,
// unless the trace measured it (TracedFacts). It is written as a commented TOML machine file, which the loader
// reads like any other (`--machine traced`).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/trace_records.hpp"

namespace rr::machine {

// The name that stands for the traced machine wherever a machine file goes.
inline constexpr const char* kTracedMachine = "traced";

// The network latency the traced machine assumes where the trace measures none (one way, ns): GASNet's UDP conduit
// over loopback, as the bundled real traces ran.
inline constexpr std::int64_t kAssumedNetworkLatencyNs = 25000;

// A value the trace measured, with how: "[T]" read off the trace (Legion Prof timestamps), "[F]" fitted to its
// measured waits (session::fit_traced_network).
struct MeasuredValue {
  double value = 0;
  std::string tag;   // "[T]" or "[F]"
  std::string note;  // how it was measured
};

// What the trace measured beyond its records' counts, gathered by the session (which holds the graph).
struct TracedFacts {
  std::optional<std::uint64_t> median_copy_bytes;  // of the copies with a size
  std::optional<MeasuredValue> network_latency_ns;  // one way, events and the network channel
  // Legion Prof: copies observed start to stop, within a node and between nodes.
  std::optional<MeasuredValue> local_bandwidth_gbs, local_latency_ns;
  std::optional<MeasuredValue> remote_bandwidth_gbs;
  // Legion Prof: the overhead of a task segment on each processor kind (gpu, cpu, utility).
  std::array<std::optional<MeasuredValue>, 3> segment_overhead_ns;
  // The cores each traced process had (--traced-cores: the user says it; no log records it).
  std::optional<MeasuredValue> cores;
  // Legion Prof with --traced-cores: the length of a processor's start-up that the log did not measure, and of each
  // that it did, in order (graph::measured_start_ups).
  std::optional<MeasuredValue> processor_start_ns;
  std::vector<std::int64_t> processor_starts_ns;
};

// What the traced machine's text is written from: the machine the trace logged and the nodes its files are of. A
// trace read in parts puts it together from every rank's files (session/traced_part_machine.hpp).
struct TracedMachineSource {
  core::MachineRecords machine;                  // core::machine_records
  std::uint32_t file_nodes = 1;                  // one past the largest node a file is of; at least 1
  core::IdWidth width = core::IdWidth::unknown;  // of the trace's ids (TraceRecords::width), which give their nodes
  std::string affinities;  // Legion Prof's processor-memory affinity table, as comment lines; empty for Realm logs
};
TracedMachineSource traced_machine_source(const core::TraceRecords& trace);

// The TOML text of the traced machine of `trace`; `label` names the trace in its comments.
std::string traced_machine_toml(const core::TraceRecords& trace, const std::string& label, const TracedFacts& facts = {});
// The same from its source, which is all the text is written from.
std::string traced_machine_toml(const TracedMachineSource& source, const std::string& label, const TracedFacts& facts = {});

}  // namespace rr::machine
